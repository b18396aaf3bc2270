"""A learning-rate schedule that divides its `step` by a float tensor, used with a `TensorBoard` callback: TF 2.4's callback logs the learning rate at each epoch's end by calling the schedule with `optimizer.iterations`, an int64 variable, where the optimizer itself passes a float.
Report: tensorflow-addons 0.11.2 → 0.12.0 (`tensorflow_addons/optimizers/cyclical_learning_rate.py`, `CyclicalLearningRate.__call__`): 0.11.2 computes `tf.floor(1 + step / (2 * step_size))` with `step_size` cast to float32, and `fit(..., callbacks=[TensorBoard(...)])` raises `TypeError: x and y must have the same dtype, got tf.int64 != tf.float32` on 2.4.0 (`TensorBoard._collect_learning_rate`); 0.12.0 casts first: `step_as_dtype = tf.cast(step, dtype)`"""
import tempfile

import numpy as np
import tensorflow as tf


class CyclicalLearningRate(tf.keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, initial_learning_rate, maximal_learning_rate, step_size):
        self.initial_learning_rate = initial_learning_rate
        self.maximal_learning_rate = maximal_learning_rate
        self.step_size = step_size

    def __call__(self, step):
        initial_learning_rate = tf.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        step_size = tf.cast(self.step_size, dtype)
        cycle = tf.floor(1 + step / (2 * step_size))
        x = tf.abs(step / step_size - 2 * cycle + 1)
        return initial_learning_rate + (self.maximal_learning_rate - initial_learning_rate) * tf.maximum(0.0, 1 - x)


inputs = tf.keras.Input((5,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
model.compile(tf.keras.optimizers.SGD(CyclicalLearningRate(1e-4, 1e-2, 2)), "mse")
model.fit(np.ones((4, 5)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[tf.keras.callbacks.TensorBoard(tempfile.mkdtemp())])
print("OK")
