"""TF24203: TF 2.4 puts `show_dtype` fourth in `plot_model`'s parameters: a fourth positional
argument meant `show_layer_names` in TF 2.3. (The drawing is recorded, not made: no pydot needed.)"""
import tensorflow as tf
from tensorflow.python.keras.utils import vis_utils

drawn = {}


class Dot:
    def write(self, path, format=None):
        drawn["path"] = path


def model_to_dot(model, **options):
    drawn.update(options)
    return Dot()


vis_utils.model_to_dot = model_to_dot
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
tf.keras.utils.plot_model(model, "model.dot", True, False)
assert drawn["show_layer_names"] is False, drawn
print("OK")
