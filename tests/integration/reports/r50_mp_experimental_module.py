"""An import of the experimental mixed-precision package of tensorflow.python.
Report: OverLordGoldDragon/see-rnn#48: No module named 'tensorflow.python.keras.mixed_precision.experimental'"""
from tensorflow.python.keras.mixed_precision.experimental import policy

print(policy.global_policy().name)
print("OK")
