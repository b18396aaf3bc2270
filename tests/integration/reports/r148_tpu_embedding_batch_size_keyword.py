"""The CPU half of the TPUEmbedding example in TF 2.3's API documentation: the embedding built with `batch_size=` by keyword, its tables read on CPU for evaluation.
Report: [TF 2.3 API docs, `tf.tpu.experimental.embedding.TPUEmbedding`](https://www.tensorflow.org/versions/r2.3/api_docs/python/tf/tpu/experimental/embedding/TPUEmbedding): "Under CPU, we only access to the embedding_tables property" (`TPUEmbedding(feature_config=feature_config, batch_size=1024, optimizer=tf.tpu.experimental.embedding.SGD(0.1))`, then `embedding.embedding_tables`)"""
import tensorflow as tf

table_config_one = tf.tpu.experimental.embedding.TableConfig(
    vocabulary_size=16, dim=4, initializer=tf.zeros_initializer())
feature_config = {
    "feature_one": tf.tpu.experimental.embedding.FeatureConfig(table=table_config_one),
}

embedding = tf.tpu.experimental.embedding.TPUEmbedding(
    feature_config=feature_config,
    batch_size=1024,
    optimizer=tf.tpu.experimental.embedding.SGD(0.1))
checkpoint = tf.train.Checkpoint(embedding=embedding)
tables = embedding.embedding_tables
print(tf.nn.embedding_lookup(tables[table_config_one], [1, 2]).shape)
print("OK")
