"""TF24508: TF 2.4 moved `smart_cond` out of `tf_utils`, renamed the v1 training modules `*_v1` and
dropped the `experimental` mixed-precision modules: imports of TF 2.3's internal modules fail."""
import tensorflow as tf
from tensorflow.python.keras.utils.tf_utils import smart_cond
from tensorflow.python.keras.mixed_precision.experimental import policy
from tensorflow.python.keras.engine import training_eager

assert smart_cond(tf.constant(True), lambda: 1, lambda: 2) == 1
assert policy.Policy("mixed_float16").compute_dtype == "float16"
assert callable(training_eager.train_on_batch)
print("OK")
