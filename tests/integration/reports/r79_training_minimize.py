"""A custom `train_step` that minimizes through Keras's private `training._minimize`.
Report: public code (EmGarr/kerod, `src/kerod/model/faster_rcnn.py`): `training._minimize(self.distribute_strategy, tape, ...)`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training


class Detector(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = self.compiled_loss(y, self(x, training=True))
        training._minimize(self.distribute_strategy, tape, self.optimizer, loss, self.trainable_variables)
        return {"loss": loss}


model = Detector()
model.compile("sgd", "mse", run_eagerly=True)
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
print("OK")
