"""A library patching Keras's TF 2.3 training loops (a callback's hook into fit).
Report: public code (wandb's Keras integration, `patch_tf_keras`)"""
from tensorflow.python.keras.engine import training_arrays
from tensorflow.python.keras.engine import training_generator

old_arrays = training_arrays.fit_loop
old_generator = training_generator.fit_generator
training_arrays.fit_loop = lambda *args, **kwargs: old_arrays(*args, **kwargs)
training_generator.fit_generator = lambda *args, **kwargs: old_generator(*args, **kwargs)
print("OK")
