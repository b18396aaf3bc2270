"""Whether mixed precision is on, read from the global policy's loss scale.
Report: https://github.com/zaccharieramzi/fastmri-reproducible-benchmark/issues/120"""
from tensorflow.keras import mixed_precision

precision_policy = mixed_precision.experimental.global_policy()
use_clipping = precision_policy.loss_scale is None
assert use_clipping
print("OK")
