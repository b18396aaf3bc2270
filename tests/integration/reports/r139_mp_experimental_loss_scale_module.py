"""A model module that imports Keras's private `mixed_precision.experimental.loss_scale` module next to its layers.
Report: public code ([stevensdavid/nvae-tf](https://github.com/stevensdavid/nvae-tf), `models.py`, an NVAE in TF 2.3): `from tensorflow.python.keras.mixed_precision.experimental import loss_scale`"""
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.python.keras.mixed_precision.experimental import loss_scale

print(loss_scale.get("dynamic"))
model = tf.keras.Sequential([layers.Dense(1, input_shape=(2,))])
print(model(tf.ones((1, 2))).shape)
print("OK")
