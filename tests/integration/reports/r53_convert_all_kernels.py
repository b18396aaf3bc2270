"""`convert_all_kernels_in_model` imported from tf.keras.utils.
Report: titu1994/Neural-Style-Transfer#76: cannot import name 'convert_all_kernels_in_model'"""
from tensorflow.keras.utils import convert_all_kernels_in_model

print(convert_all_kernels_in_model)
print("OK")
