"""The lower-case optimizer aliases of tensorflow.python.keras.optimizers.
Report: public code: `from tensorflow.python.keras.optimizers import adam, rmsprop, sgd, adagrad, adadelta, adamax`"""
from tensorflow.python.keras.optimizers import adam, sgd

print(type(adam(lr=0.01)).__name__, type(sgd(lr=0.1)).__name__)
print("OK")
