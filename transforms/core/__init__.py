"""TF core (TF245xx): hidden internal modules, complex Max/Min, TF32, XLA devices and deprecations.

Sources: the "Breaking Changes" of the TensorFlow 2.4 release notes (TensorFloat-32; `tensorflow.python`,
`core` and `compiler` no longer attributes of `tf`; no complex `Max` / `Min`; XLA devices off by default;
`quantize_and_dequantize_v2`), and the modules of the released wheels that each rule's docstring names.
"""
