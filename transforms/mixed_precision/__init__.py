"""Mixed precision (TF243xx): `tf.keras.mixed_precision.experimental` to the stable API of
TF 2.4–2.15, the `LossScaleOptimizer` constructor mapping, and the TF 2 loss-scale classes.

The experimental module is gone from TF 2.9. The module import (`from
tensorflow.keras.mixed_precision import experimental as mp`) is rewritten by TF24301; each use
through it (`mp.Policy`, `mp.set_policy`, ...) is rewritten by the rule of that name, spelled
through the user's alias.
"""
