"""A custom `fit` decorated with Keras's private `training.enable_multi_worker`, as TF 2.2's own `fit` was.
Report: public code (a context-switching Keras model): `@training.enable_multi_worker` over `def fit(self, x=None, ...)`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training


class ContextModel(tf.keras.Model):
    @training.enable_multi_worker
    def fit(self, x=None, y=None, **kwargs):
        return super().fit(x, y, **kwargs)


inputs = tf.keras.Input((2,))
model = ContextModel(inputs, tf.keras.layers.Dense(1)(inputs))
model.compile("sgd", "mse")
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
print("OK")
