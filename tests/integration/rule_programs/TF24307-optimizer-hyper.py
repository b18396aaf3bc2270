"""TF24307: TF 2.3's `LossScaleOptimizer` had `_hyper`; neither of TF 2.4's has."""
import tensorflow as tf

sgd = tf.keras.optimizers.SGD(learning_rate=0.5)
opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(sgd, "dynamic")
assert isinstance(opt._hyper, dict)
print("OK")
