"""TF24301: a name assigned the experimental module moves to the stable one with its uses."""
# rules: TF24302 TF24303 TF24305
import tensorflow as tf

mp = tf.keras.mixed_precision.experimental
mp.set_policy(mp.Policy("mixed_float16"))
optimizer = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
assert mp.global_policy().compute_dtype == "float16"
assert optimizer.get_scaled_loss(tf.constant(1.0)).numpy() == 2.0**15
mp.set_policy("float32")
print("OK")
