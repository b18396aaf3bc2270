"""A dropout layer that also returns its mask, choosing the branch with Keras's private `smart_cond`.
Report: public code (SachsLab/indl, `indl/model/lfads/utils.py`, `CoordinatedDropout.call`): `tf_utils.smart_cond(training, dropped_inputs, ...)`"""
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.python.keras.utils import tf_utils


class CoordinatedDropout(tf.keras.layers.Dropout):
    def compute_output_shape(self, input_shape):
        return input_shape, input_shape

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()

        def dropped_inputs():
            keep_mask = tf.random.uniform(tf.shape(inputs)) >= self.rate
            return inputs * tf.cast(keep_mask, inputs.dtype) / (1.0 - self.rate), keep_mask

        return tf_utils.smart_cond(
            training, dropped_inputs, lambda: (tf.identity(inputs), tf.ones_like(inputs) > 0)
        )


outputs, keep_mask = CoordinatedDropout(0.5)(tf.ones((2, 3)), training=True)
print(outputs.shape, keep_mask.shape)
print("OK")
