"""A k-fold training loop that kills Keras's multiprocessing pools after each fold.
Report: public code (a k-fold image training script): `tf.keras.experimental.terminate_keras_multiprocessing_pools(grace_period=0.1, use_sigkill=True)`"""
import tensorflow as tf

for fold in range(2):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.compile("sgd", "mse")
    model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
    tf.keras.backend.clear_session()
    tf.keras.experimental.terminate_keras_multiprocessing_pools(grace_period=0.1, use_sigkill=True)
print("OK")
