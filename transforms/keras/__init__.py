"""tf.keras (TF242xx): the renamed `compile` keyword, removed utils and `get_graph` (`renames`), the
`plot_model` signature change, and what Keras's functional API changed in TF 2.4, where a layer's
symbolic output became a `KerasTensor` (the TF2421x rules, with the evidence they share in `_symbolic`)."""
