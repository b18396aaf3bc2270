"""Files due for migration, generated from small TF 2.3 templates (nothing large is committed)."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = [
    """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model_{n} = tf.keras.Sequential([tf.keras.layers.Dense({n})])
    optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(inputs):
    def step_fn(batch):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model_{n}(batch))
        grads = tape.gradient(loss, model_{n}.trainable_variables)
        optimizer.apply_gradients(zip(grads, model_{n}.trainable_variables))
        return loss

    per_replica = strategy.experimental_run_v2(step_fn, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
""",
    """\
import tensorflow as tf

strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    tf.distribute.experimental.CollectiveCommunication.NCCL
)
hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack={n} * 1024)


def dataset_fn(context):
    return tf.data.Dataset.range({n}).batch(4)


dataset = strategy.experimental_distribute_datasets_from_function(dataset_fn)
for batch in dataset:
    strategy.reduce("SUM", batch, axis=None, experimental_hints=hints)
""",
    """\
import tensorflow as tf
from tensorflow.keras.utils import plot_model

inputs = tf.keras.Input(shape=({n},))
outputs = tf.keras.layers.Dense(1)(inputs)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="mse", experimental_steps_per_execution={n})
plot_model(model, "model_{n}.png", True)
model.fit(tf.zeros(({n}, {n})), tf.zeros(({n}, 1)), epochs=1)
""",
    """\
import tensorflow as tf
from tensorflow.python.compiler.tensorrt import trt_convert as trt

params = trt.DEFAULT_TRT_CONVERSION_PARAMS._replace(max_workspace_size_bytes={n} << 20)
converter = trt.TrtGraphConverter(
    input_saved_model_dir="saved_{n}",
    nodes_blacklist=["output_{n}"],
)
graph = converter.convert()
print(tf.__version__, graph)
""",
]


def write_due_files(folder: Path, count: int = 100) -> list[Path]:
    """`count` files of 10-30 lines, each with something for a rule to do."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        path = folder / f"train_{n:03d}.py"
        path.write_text(TEMPLATES[n % len(TEMPLATES)].format(n=n + 1))
        paths.append(path)
    return paths
