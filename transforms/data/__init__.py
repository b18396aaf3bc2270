"""tf.data (TF244xx): tf.data service servers that take config tuples, `AUTOTUNE`, and
`Dataset.from_generator(output_signature=)`."""

from .dataset import DATA_AUTOTUNE, FromGeneratorSignature
from .service import DispatchServerConfig, WorkerServerConfig

RULES = (DispatchServerConfig(), WorkerServerConfig(), DATA_AUTOTUNE, FromGeneratorSignature())
