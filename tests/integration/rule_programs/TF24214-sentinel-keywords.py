"""TF24214: `tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=..., logits=...)` of Keras
symbolic values raises from TF 2.4: it dispatches, but Keras's op layer wants the `_sentinel` that
a call by keyword leaves out."""
import tensorflow as tf

labels = tf.keras.Input((3,))
logits = tf.keras.Input((3,))
loss = tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
assert loss is not None
print("OK")
