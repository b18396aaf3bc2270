"""C API (TF247xx): the string helpers removed from the TensorFlow C API in 2.4.

The same rule reads C and C++ sources (through `tf24migrate.sources.c_sources`, which looks for
`c_identifiers` on a rule) and Python files that reach the C API through ctypes or cffi.
"""
