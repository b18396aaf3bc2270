"""tf.keras (TF242xx): the renamed `compile` keyword, the `plot_model` signature change and removed
utils (`api_changes`), and what Keras's functional API changed in TF 2.4, where a layer's symbolic
output became a `KerasTensor` (`functional`)."""

from __future__ import annotations

from .api_changes import REMOVED_KERAS_UTILS, STEPS_PER_EXECUTION, PlotModelPositional
from .functional import (
    KERAS_GET_GRAPH,
    ConcreteFunctionOnSymbolic,
    ControlFlowOnSymbolic,
    KerasSymbolicIsinstance,
    SymbolicGradients,
    TensorNameSuffix,
)

RULES = (
    STEPS_PER_EXECUTION,
    REMOVED_KERAS_UTILS,
    PlotModelPositional(),
    KerasSymbolicIsinstance(),
    TensorNameSuffix(),
    KERAS_GET_GRAPH,
    SymbolicGradients(),
    ControlFlowOnSymbolic(),
    ConcreteFunctionOnSymbolic(),
)
