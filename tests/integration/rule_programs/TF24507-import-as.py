"""TF24507: `import tensorflow.python.x as y` fails on Python 3.6 from TF 2.4 (this runs on 3.8,
where both spellings work: the program shows the `from` form on both releases)."""
import tensorflow.python.keras.backend as K

assert K.floatx() == "float32"
print("OK")
