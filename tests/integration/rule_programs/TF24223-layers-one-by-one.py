"""TF24223: a functional model's op layer takes the op's arguments from TF 2.4."""
import tensorflow as tf

features = tf.keras.Input((4,))
scaled = tf.keras.layers.Dense(3)(features) + 1.0
model = tf.keras.Model(features, scaled)
value = tf.zeros((2, 4))
for layer in model.layers[1:]:
    value = layer(value)
print("OK")
