"""TF 2.3 Keras mixed precision: the experimental policy API, and one epoch of training with a
LossScaleOptimizer of each kind (dynamic, a number, FixedLossScale, DynamicLossScale)."""
import numpy as np
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as mixed_precision

policy = mixed_precision.Policy("mixed_float16", loss_scale="dynamic")
mixed_precision.set_policy(policy)
assert mixed_precision.global_policy().name == "mixed_float16"

features = np.random.RandomState(0).rand(32, 4).astype("float32")
targets = features.sum(axis=1, keepdims=True)


def train_one_epoch(optimizer):
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
            tf.keras.layers.Dense(1, dtype="float32"),
        ]
    )
    assert mixed_precision.get_layer_policy(model.layers[0]).name == "mixed_float16"
    model.compile(optimizer=optimizer, loss="mse")
    history = model.fit(features, targets, batch_size=8, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0]), history.history


train_one_epoch(mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic"))
train_one_epoch(mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(), 128))
train_one_epoch(
    mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(), tf.mixed_precision.experimental.FixedLossScale(64)
    )
)
train_one_epoch(
    mixed_precision.LossScaleOptimizer(
        optimizer=tf.keras.optimizers.SGD(),
        loss_scale=tf.mixed_precision.experimental.DynamicLossScale(
            initial_loss_scale=1024, increment_period=10
        ),
    )
)
print("OK")
