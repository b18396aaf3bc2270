"""A hand-written fit loop that averages the batch losses with Keras's private `MetricsAggregator`.
Report: public code (expertanalytics/tf_bayesian, `tf_bayesian/fitting_methods.py`): `training_utils.MetricsAggregator(True, num_samples=..., steps=...)`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training_utils

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
model.compile("sgd", "mse")
aggregator = training_utils.MetricsAggregator(True, num_samples=None, steps=2)
for step in range(2):
    batch_outs = [model.train_on_batch(tf.ones((4, 2)), tf.ones((4, 1)))]
    if step == 0:
        aggregator.create(batch_outs)
    aggregator.aggregate(batch_outs)
aggregator.finalize()
print(aggregator.results)
print("OK")
