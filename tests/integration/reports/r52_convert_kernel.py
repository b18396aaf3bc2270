"""`convert_kernel` imported from Keras's conv_utils.
Report: Sparkier/luna#19: the import for conv_utils does not work"""
import numpy as np
from tensorflow.python.keras.utils.conv_utils import convert_kernel

print(convert_kernel(np.ones((2, 2, 1, 1))).shape)
print("OK")
