"""A loss subclassing an internal Keras class reached through tf.python.
Report: https://github.com/jeongukjae/korean-spacing-model/issues/2"""
import tensorflow as tf


class SparseCategoricalCrossentropyWithIgnore(tf.python.keras.losses.LossFunctionWrapper):
    def __init__(self):
        super().__init__(tf.keras.losses.sparse_categorical_crossentropy, name="with_ignore")


loss = SparseCategoricalCrossentropyWithIgnore()
assert float(loss([0], [[0.5, 0.5]])) > 0
print("OK")
