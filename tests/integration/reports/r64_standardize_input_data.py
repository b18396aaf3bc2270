"""Keras's private `standardize_input_data`, reached through training_utils.
Report: TF 2.4.0 API (wheels' diff): training_utils split into training_utils_v1"""
import numpy as np
from tensorflow.python.keras.engine import training_utils

print(training_utils.standardize_input_data(np.ones((2, 3)), ["x"]))
print("OK")
