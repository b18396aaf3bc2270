"""TF24701: `TF_StringEncode` and the other string functions are gone from the C API in TF 2.4
(reached here through ctypes, as a Python extension would)."""
import ctypes
import os

import tensorflow as tf

library = ctypes.CDLL(os.path.join(os.path.dirname(tf.__file__), "python", "_pywrap_tensorflow_internal.so"))
encoded_size = library.TF_StringEncodedSize
encoded_size.restype = ctypes.c_size_t
assert encoded_size(ctypes.c_size_t(3)) == 4
print("OK")
