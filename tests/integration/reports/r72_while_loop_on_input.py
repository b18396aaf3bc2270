"""tf.while_loop over a Keras symbolic input while building a functional model.
Report: TF 2.4.0 release notes, Functional API (control flow ops on symbolic inputs are unsupported)"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
_, outputs = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2.0), [tf.constant(0), inputs])
model = tf.keras.Model(inputs, outputs)
print(model(tf.ones((1, 3))).numpy())
print("OK")
