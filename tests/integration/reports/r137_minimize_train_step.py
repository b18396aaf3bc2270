"""A model whose `train_step` applies its gradients with Keras's private `training._minimize`, as TF 2.2 and 2.3's own `train_step` did.
Report: public code (ronaldluc/DeepSaber, `src/train/model.py`, `AVSModel.train_step`): `_minimize(self.distribute_strategy, tape, self.optimizer, loss, self.trainable_variables)`"""
import tensorflow as tf
from tensorflow.python.eager import backprop
from tensorflow.python.keras.engine import data_adapter
from tensorflow.python.keras.engine.training import _minimize


class AVSModel(tf.keras.Model):
    def train_step(self, data):
        data = data_adapter.expand_1d(data)
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        with backprop.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)
        _minimize(self.distribute_strategy, tape, self.optimizer, loss, self.trainable_variables)
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return {m.name: m.result() for m in self.metrics}


inputs = tf.keras.Input((2,))
model = AVSModel(inputs=inputs, outputs=tf.keras.layers.Dense(1)(inputs))
model.compile(optimizer="adam", loss="mse")
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
print("OK")
