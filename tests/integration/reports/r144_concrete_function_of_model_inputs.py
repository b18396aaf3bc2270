"""A Keras model frozen for OpenVINO by tracing `tf.function(lambda x: model(x))` on the model's own symbolic inputs.
Report: public code ([deepchem/deepchem](https://github.com/deepchem/deepchem), `deepchem/models/openvino_model.py`, DeepChem's CI on TF 2.3): `func.get_concrete_function(model.inputs)`"""
import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

inputs = tf.keras.Input((4,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))

# Freeze Keras model
func = tf.function(lambda x: model(x))
func = func.get_concrete_function(model.inputs)
frozen_func = convert_variables_to_constants_v2(func)
graph_def = frozen_func.graph.as_graph_def()
print(len(graph_def.node))
print("OK")
