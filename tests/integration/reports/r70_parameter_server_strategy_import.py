"""The TF 2.3 ParameterServerStrategy imported from its module, for an Estimator.
Report: public code: `from tensorflow.python.distribute.parameter_server_strategy import ParameterServerStrategy`"""
from tensorflow.python.distribute.parameter_server_strategy import ParameterServerStrategy

print(ParameterServerStrategy.__name__)
print("OK")
