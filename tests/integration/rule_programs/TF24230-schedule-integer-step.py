"""TF24230: TF 2.4's `TensorBoard` callback calls the learning-rate schedule with the int64 step."""
import tempfile

import numpy as np
import tensorflow as tf


class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, d_model, warmup_steps=4000):
        super(CustomSchedule, self).__init__()
        self.d_model = tf.cast(d_model, tf.float32)
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        arg1 = tf.math.rsqrt(step)
        arg2 = step * (self.warmup_steps**-1.5)
        return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)


inputs = tf.keras.Input((5,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
model.compile(tf.keras.optimizers.Adam(CustomSchedule(128)), "mse")
log_dir = tempfile.mkdtemp()
model.fit(np.ones((4, 5)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[tf.keras.callbacks.TensorBoard(log_dir)])
print("OK")
