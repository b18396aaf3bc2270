"""TF24511: callables imported from TF's internal modules whose positional parameters shifted in
TF 2.4: `recurrent.LSTM`'s `implementation` (through `**kwargs` there) and `vis_utils.plot_model`,
which gained `show_dtype` after `show_shapes`. The arguments after the change bind to other
parameters; `plot_model` is bound by its real signature without drawing anything."""
import inspect

import tensorflow as tf
from tensorflow.python.keras.layers.recurrent import LSTM
from tensorflow.python.keras.utils import vis_utils

signature = inspect.signature(vis_utils.plot_model)
vis_utils.plot_model = lambda *args, **kwargs: signature.bind(*args, **kwargs).arguments

layer = LSTM(
    4, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True,
    None, None, None, None, None, None, None, 0.0, 0.0, 2, True,
)
assert layer.implementation == 2 and layer.return_sequences is True, (layer.implementation, layer.return_sequences)
bound = vis_utils.plot_model(None, "model.png", True, True, "TB")
assert bound["show_layer_names"] is True and bound["rankdir"] == "TB", bound
print("OK")
