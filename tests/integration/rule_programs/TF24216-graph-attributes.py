"""TF24216: a model's symbolic outputs have no `op` from TF 2.4 (the freeze-graph recipe)."""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="logits")(inputs))
output_names = [out.op.name for out in model.outputs]
assert output_names[0].startswith("logits/"), output_names
print("OK")
