"""Other APIs (TF246xx): the renamed lists of the automatic mixed-precision graph rewrite
(environment variables), TF-TRT's converter keywords, and the `TPUEmbedding` constructor."""
