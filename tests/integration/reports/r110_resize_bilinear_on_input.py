"""`tf.compat.v1.image.resize_bilinear` applied to a Keras input while building a model.
Report: tensorflow/tensorflow#48928: "compat.v1.resize_bilinear fails in 2.4.1" ("works in 2.3.2 but fails in 2.4.1")"""
import numpy as np
import tensorflow as tf

h, w = 3, 1
image = tf.constant(np.arange(h * w).reshape((h, w)), dtype=tf.float32)[tf.newaxis, ..., tf.newaxis]
_input = tf.keras.layers.Input((h, w, 1))
tf2_img = tf.image.resize(_input, [9, 1])
tf1_img = tf.compat.v1.image.resize(_input, [9, 1], align_corners=True)
tf1_img_bl = tf.compat.v1.image.resize_bilinear(_input, [9, 1], align_corners=True)
out = tf.concat([tf1_img, tf2_img, tf1_img_bl], 2)

m = tf.keras.Model(inputs=_input, outputs=out)
print(m(image).shape)
print("OK")
