"""TF24226: a model called inside another adds no node to its layers from TF 2.4 (`get_output_at(1)`)."""
import tensorflow as tf

encoder_input = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(3, name="hidden")(encoder_input)
encoder = tf.keras.Model(encoder_input, tf.keras.layers.Dense(2)(hidden), name="encoder")
outer_input = tf.keras.Input((6,))
outer = tf.keras.Model(outer_input, encoder(outer_input))
hidden_model = tf.keras.Model(outer.input, outer.get_layer("encoder").get_layer("hidden").get_output_at(1))
assert hidden_model(tf.ones((2, 6))).shape == (2, 3)
print("OK")
