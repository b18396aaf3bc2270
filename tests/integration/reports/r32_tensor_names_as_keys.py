"""Model inputs looked up by their tensor names, as a feed dictionary does (release notes, Keras).
Report: TF 2.4.0 release notes, Functional API: exact tensor names"""
import tensorflow as tf

inputs = {name: tf.keras.Input((1,), name=name) for name in ("age", "height")}
by_name = {tensor.name: tensor for tensor in inputs.values()}
age = by_name["age:0"]
print("OK")
