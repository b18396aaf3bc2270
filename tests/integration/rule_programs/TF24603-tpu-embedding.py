"""TF24603: `TPUEmbedding` takes no `batch_size` from TF 2.4."""
import tensorflow as tf

table = tf.tpu.experimental.embedding.TableConfig(vocabulary_size=8, dim=2, initializer=tf.zeros_initializer())
feature_config = {"feature": tf.tpu.experimental.embedding.FeatureConfig(table=table)}
optimizer = tf.tpu.experimental.embedding.SGD(learning_rate=0.1)
embedding = tf.tpu.experimental.embedding.TPUEmbedding(feature_config, 16, optimizer)
print("OK")
