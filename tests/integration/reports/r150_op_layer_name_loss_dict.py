"""A multi-output model whose last output is a `tf.concat` of two decoder outputs, compiled with dictionaries of losses and loss weights keyed by output names, the concat's as `"tf_op_layer_concat"`.
Report: [Mahbaneh/MISPEL#1](https://github.com/Mahbaneh/MISPEL/issues/1): "ValueError : tf_op_layer_concat" (`model.py`, `Multimodel.build_linear_without_Embeded_Images_New_loss`: `out_dict['tf_op_layer_concat'] = similarity_of_synthesized`, `loss_weights['tf_op_layer_concat'] = ...`; on later TensorFlow "Found unexpected keys that do not correspond to any Model output: dict_keys(['tf_op_layer_concat']). Expected: [..., 'tf.concat']")"""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import backend as K
from tensorflow.keras import layers


def mae(y_true, y_pred):
    return K.mean(K.abs(y_pred - y_true))


def similarity_of_synthesized(y_true, y_pred):
    return mae(y_pred[:, :, :, 0], y_pred[:, :, :, 1])


modalities = ["ge", "philips"]
inputs = [keras.Input(shape=(8, 8, 1), name="enc_" + m + "_input") for m in modalities]
outputs = []
for ind, (inp, m) in enumerate(zip(inputs, modalities)):
    conv = layers.Conv2D(1, 3, padding="same")(inp)
    outputs.append(layers.Lambda(lambda x: x + 0, name="em_%d_dec_%s" % (ind, m))(conv))
outputs += [tf.concat(outputs[0:2], 3)]

out_dict = {"em_%d_dec_%s" % (ind, m): mae for ind, m in enumerate(modalities)}
out_dict["tf_op_layer_concat"] = similarity_of_synthesized
loss_weights = {"em_%d_dec_%s" % (ind, m): 1.0 for ind, m in enumerate(modalities)}
loss_weights["tf_op_layer_concat"] = 0.5

model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(optimizer=keras.optimizers.Adam(lr=1e-3), loss=out_dict, loss_weights=loss_weights)
x = np.ones((4, 8, 8, 1), "float32")
model.fit([x, x], [x, x, np.concatenate([x, x], 3)], epochs=1, verbose=0)
print("OK")
