"""multi_gpu_model imported from tensorflow.keras.utils.
Report: https://github.com/Delta-ML/delta/issues/261"""
from tensorflow.keras.utils import multi_gpu_model

assert callable(multi_gpu_model)
print("OK")
