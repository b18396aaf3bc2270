"""The private `_clip_gradients` of a Keras optimizer, used to clip gradients by hand.
Report: OverLordGoldDragon/see-rnn#47: object has no attribute '_clip_gradients' for TF2.4"""
import tensorflow as tf

optimizer = tf.keras.optimizers.Adam(clipnorm=1.0)
grads = optimizer._clip_gradients([tf.constant([3.0, 4.0])])
print(grads)
print("OK")
