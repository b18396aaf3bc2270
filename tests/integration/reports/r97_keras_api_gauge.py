"""A custom `fit` that records itself in Keras's private usage gauge, as TF 2.2's `fit` did.
Report: public code (a context-switching Keras model's `fit`): `training._keras_api_gauge.get_cell('fit').set(True)`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training


class ContextModel(tf.keras.Model):
    def fit(self, x=None, y=None, **kwargs):
        training._keras_api_gauge.get_cell("fit").set(True)
        return super().fit(x, y, **kwargs)


inputs = tf.keras.Input((2,))
model = ContextModel(inputs, tf.keras.layers.Dense(1)(inputs))
model.compile("sgd", "mse")
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
print("OK")
