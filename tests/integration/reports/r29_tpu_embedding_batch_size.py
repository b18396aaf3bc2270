"""A TPUEmbedding built with the global batch size (release notes, TPU).
Report: TF 2.4.0 release notes, TPU: TPUEmbedding takes no batch_size"""
import tensorflow as tf

table = tf.tpu.experimental.embedding.TableConfig(vocabulary_size=16, dim=4, initializer=tf.zeros_initializer())
feature_config = {"ids": tf.tpu.experimental.embedding.FeatureConfig(table=table)}
optimizer = tf.tpu.experimental.embedding.SGD(learning_rate=0.1)
embedding = tf.tpu.experimental.embedding.TPUEmbedding(feature_config, 64, optimizer)
print("OK")
