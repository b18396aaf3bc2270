"""A YOLOv3 training script that sets a mixed-precision policy through `tf.keras.mixed_precision.experimental` only when asked to (`--mixed_precision`, default `float32`) and always logs the global policy's loss scale before training.
Report: public code ([christos-vasileiou/forestland-fire-detection](https://github.com/christos-vasileiou/forestland-fire-detection), `train.py` and `yolov3_tf2/models.py`, on the experimental mixed-precision API of TF 2.1-2.3): `logging.info("global policy loss: {}\\n".format(tf_mixed_precision.global_policy().loss_scale))`"""
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as tf_mixed_precision

mixed_precision = "float32"  # the script's default flag value
if mixed_precision == "float16":
    policy = tf_mixed_precision.Policy("mixed_" + mixed_precision)
    tf_mixed_precision.set_policy(policy)
else:
    tf.keras.backend.set_floatx("float32")

print("global policy: {}".format(tf_mixed_precision.global_policy()))
print("global policy loss: {}\n".format(tf_mixed_precision.global_policy().loss_scale))
print("OK")
