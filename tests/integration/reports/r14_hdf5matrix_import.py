"""HDF5Matrix imported from the Keras shipped with TensorFlow.
Report: https://github.com/basveeling/pcam/issues/13"""
from tensorflow.keras.utils import HDF5Matrix

assert HDF5Matrix.__name__ == "HDF5Matrix"
print("OK")
