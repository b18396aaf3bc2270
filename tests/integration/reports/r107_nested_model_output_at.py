"""A sub-model ending at a layer of a nested model, through `get_output_at(1)`.
Report: keras-team/keras#16123: "Cannot Build Intermediate Model to Nested Layers" (the `get_output_at(1)` workaround of tensorflow/tensorflow#34977 works on TF 2.0, not on 2.4.1)"""
import tensorflow as tf

inp_1 = tf.keras.Input((4,))
x = tf.keras.layers.Dense(3, name="id_1")(inp_1)
out_1 = tf.keras.layers.Dense(2)(x)
inner_model = tf.keras.Model(inp_1, out_1, name="inner_model")

inp_outer = tf.keras.Input((4,))
final_model = tf.keras.Model(inp_outer, inner_model(inp_outer))

sub_model = tf.keras.Model(
    inputs=[final_model.input],
    outputs=[final_model.get_layer("inner_model").get_layer("id_1").get_output_at(1)],
)
print(sub_model(tf.ones((1, 4))).shape)
print("OK")
