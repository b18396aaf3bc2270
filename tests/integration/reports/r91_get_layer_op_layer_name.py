"""A YOLO prediction model cut from the trained one at its `tf.concat` op layers, looked up by their TF 2.3 names.
Report: public code (a TF2 YOLOv4 detection script): `outputs=[model.get_layer('tf_op_layer_concat_4').output, ...]`"""
import tensorflow as tf

inputs = tf.keras.Input((8,), name="input_1")
boxes = tf.keras.layers.Dense(4)(inputs)
scores = tf.keras.layers.Dense(2)(inputs)
detections = tf.concat([boxes, scores], axis=-1)
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(detections))
predict_model = tf.keras.Model(
    inputs=model.get_layer("input_1").input, outputs=[model.get_layer("tf_op_layer_concat").output]
)
print(predict_model(tf.ones((1, 8)))[0].shape)
print("OK")
