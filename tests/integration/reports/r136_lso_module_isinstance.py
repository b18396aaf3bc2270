"""A trainer that tells a Keras loss-scale optimizer by the class of Keras's private `mixed_precision.experimental` module.
Report: public code (Cerebras/modelzoo, `modelzoo/common/tf/optimizers/Trainer.py`): `from tensorflow.python.keras.mixed_precision.experimental.loss_scale_optimizer import LossScaleOptimizer`"""
import tensorflow as tf
from tensorflow.python.keras.mixed_precision.experimental.loss_scale_optimizer import (
    LossScaleOptimizer,
)

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(
    tf.keras.optimizers.SGD(), loss_scale="dynamic"
)
if isinstance(optimizer, LossScaleOptimizer):
    print("loss scaling:", type(optimizer).__name__)
print("OK")
