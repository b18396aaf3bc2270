"""TF 2.3 code that each error-severity advisory reports: every line here fails on TF >= 2.4."""

import json

import tensorflow as tf

inputs = tf.keras.Input((3,))
serve = tf.function(lambda t: t * 2)
outcome = {}


def attempt(code, function):
    try:
        function()
        outcome[code] = "ran"
    except Exception as error:  # the kind of failure is what is recorded
        outcome[code] = type(error).__name__


attempt("TF24501", lambda: tf.python.keras.backend)
attempt("TF24202", lambda: tf.keras.utils.multi_gpu_model)
attempt("TF24214", lambda: tf.map_fn(lambda row: row * 2, inputs))
attempt("TF24215", lambda: serve.get_concrete_function(inputs))
print(json.dumps(outcome))
