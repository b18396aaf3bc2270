"""The `output` of a layer that a custom layer calls inside its `call`.
Report: tensorflow/tensorflow#48196: "Getting sub-layer output of a custom layer breaks in a Tensorflow 2.4.1" (`my_custom_layer.conv_1.output`)"""
import tensorflow as tf
from tensorflow import keras


class MyCustomLayer(keras.layers.Layer):
    def __init__(self, num_filters=4, kernel_size=3):
        keras.layers.Layer.__init__(self)
        self.conv_1 = keras.layers.Conv2D(filters=num_filters, kernel_size=kernel_size)

    def call(self, inputs):
        return self.conv_1(inputs)


x = keras.Input(shape=(None, None, 3))
my_custom_layer = MyCustomLayer()
y = my_custom_layer(x)
print(my_custom_layer.conv_1.output)
print("OK")
