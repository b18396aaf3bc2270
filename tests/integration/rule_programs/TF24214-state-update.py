"""TF24214: `K.update` of a variable to a Keras symbolic value raises from TF 2.4."""
import tensorflow as tf
from tensorflow.keras import backend as K

inputs = tf.keras.Input((3,), batch_size=2)
running = K.variable(tf.zeros((2, 3)), name="running")
update = K.update(running, inputs * 0.5)
assert update is not None
print("OK")
