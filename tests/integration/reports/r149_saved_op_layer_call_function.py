"""A model with a TF op between Keras layers, saved as a SavedModel and read back with `tf.saved_model.load`, whose op layer's traced call function is then used (as a model importer reads it from the object graph).
Report: [Stack Overflow question 75746489](https://stackoverflow.com/questions/75746489) (read at a mirror, coderapp.vercel.app/answer/75746489): "Why is the graph for the 'TFOpLambda' layer's 'call' method not stored in the SavedModel object_graph_def?" (a `tf.nn.relu` between layers saved as a `TensorFlowOpLayer` in TF 2.3.0 with its `call_and_return_conditional_losses` function; as a `TFOpLambda`, later, without it)"""
import os
import tempfile

import tensorflow as tf

x = tf.keras.layers.Input(shape=[None, 1])
z = tf.keras.layers.Conv1D(32, kernel_size=2, padding="causal")(x)
z = tf.nn.relu(z)
model = tf.keras.models.Model(inputs=[x], outputs=[z])
path = os.path.join(tempfile.mkdtemp(), "ModelWithTFSymbol")
model.save(path)

loaded = tf.saved_model.load(path)
op_layer = loaded.keras_api.layers[-1]
call_fn = op_layer.keras_api.call_and_return_conditional_losses
outputs, losses = call_fn(tf.ones((1, 3, 32)))
print(outputs.shape)
print("OK")
