"""A Keras optimizer class imported from tensorflow.python.keras.optimizers.
Report: public code (a DQN agent and others): `from tensorflow.python.keras.optimizers import Adam`"""
from tensorflow.python.keras.optimizers import Adam

optimizer = Adam(0.01)
print(type(optimizer).__name__)
print("OK")
