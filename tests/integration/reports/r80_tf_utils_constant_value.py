"""A metric-learning head resolving `training` with Keras's private `tf_utils.constant_value`.
Report: public code (ArcFace/CosFace/AdaCos Keras layers, one copy guarding `tf.__version__ == "2.4.0"`): `return tf_utils.constant_value(training)`"""
import tensorflow as tf
from tensorflow.python.keras.utils import tf_utils


def _resolve_training(layer, training):
    if training is None:
        training = tf.keras.backend.learning_phase()
    if isinstance(training, int):
        training = bool(training)
    if not layer.trainable:
        training = False
    return tf_utils.constant_value(training)


class CosFace(tf.keras.layers.Layer):
    def call(self, inputs, training=None):
        if _resolve_training(self, training):
            return inputs - 0.35
        return inputs


print(CosFace()(tf.ones((1, 2)), training=True))
print("OK")
