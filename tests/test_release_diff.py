"""The releases as data: the diff of two releases' probes (`tf24migrate.dev.releases`), the table
it writes, and the rules that read it (TF24508 `removed-api`, TF24509 `positional-parameters`,
TF24203 `plot-model-positional`) handing the names other rules own to them."""

from __future__ import annotations

import pytest
from tf24migrate.transforms.core.removed_api import REPORTED_ELSEWHERE, RemovedApi
from tf24migrate.transforms.core.renames import (
    FIXED_ELSEWHERE,
    METHODS_RENAMED_IN_PLACE,
    POSITIONAL_PARAMETERS,
)
from tf24migrate.transforms.distribute.renames import EXPERIMENTAL_HINTS_KEYWORD

from tf24migrate import migrate_source
from tf24migrate.dev import release_probe, releases
from tf24migrate.model import release_diff as _release_diff
from tf24migrate.model import symbolic_dispatch
from tf24migrate.rules.needles import MethodCallLines, NotDispatchedCall


def probe(
    version: str,
    modules: dict,
    defines: dict,
    public: dict | None = None,
    imports: dict | None = None,
    symbolic: list | None = None,
    sparse_symbolic: list | None = None,
    signatures: dict | None = None,
) -> dict:
    """A release as `release_probe.py` prints it."""
    return {
        "version": version,
        "modules": modules,
        "defines": defines,
        "imports": imports or {},
        "signatures": signatures or {},
        "public": public or {},
        "symbolic": symbolic or [],
        "sparse_symbolic": sparse_symbolic or [],
        "loss_scale_optimizer": {"attributes": [], "config": []},
        "public_modules": [],
    }


ADD_WEIGHT_23 = [
    ["name", "POSITIONAL_OR_KEYWORD", True],
    ["partitioner", "POSITIONAL_OR_KEYWORD", True],
    ["use_resource", "POSITIONAL_OR_KEYWORD", True],
]
ADD_WEIGHT_24 = [
    ["name", "POSITIONAL_OR_KEYWORD", True],
    ["use_resource", "POSITIONAL_OR_KEYWORD", True],
    ["kwargs", "VAR_KEYWORD", False],
]
METRIC_ADD_WEIGHT = [["name", "POSITIONAL_OR_KEYWORD", False], ["shape", "POSITIONAL_OR_KEYWORD", True]]
OLD = probe(
    "2.3.0",
    modules={
        "tensorflow.python.keras.engine": ["training_eager", "training_utils"],
        "tensorflow.python.keras.engine.training_eager": ["train_on_batch", "test_on_batch", "losses_utils"],
        "tensorflow.python.keras.engine.training_utils": ["MetricsAggregator", "smart_cond", "np", "ops"],
        "tensorflow.python.framework.ops": ["Tensor"],
        "tensorflow.python.keras.utils.shared": ["smart_cond"],
        "tensorflow.python.keras.utils.other": ["smart_cond"],
        "tensorflow.python.gone": ["thing"],
    },
    defines={
        "tensorflow.python.keras.engine.training_eager": ["train_on_batch", "test_on_batch"],
        "tensorflow.python.keras.engine.training_utils": ["MetricsAggregator"],
        "tensorflow.python.gone": ["thing"],
    },
    public={
        "tensorflow.keras.layers.LSTM": {
            "parameters": [
                ["units", "POSITIONAL_OR_KEYWORD", False],
                ["implementation", "POSITIONAL_OR_KEYWORD", True],
                ["return_sequences", "POSITIONAL_OR_KEYWORD", True],
            ]
        },
        "tensorflow.raw_ops.MaxPool": {
            "parameters": [["input", "POSITIONAL_OR_KEYWORD", False], ["name", "POSITIONAL_OR_KEYWORD", True]]
        },
        "tensorflow.keras.utils.gone_util": {"parameters": []},
        "tensorflow.keras.layers.Layer": {
            "parameters": [],
            "methods": {"add_weight": ADD_WEIGHT_23, "call": []},
        },
        "tensorflow.keras.layers.Dense": {
            "parameters": [["units", "POSITIONAL_OR_KEYWORD", False]],
            "methods": {"add_weight": ADD_WEIGHT_23},
        },
        "tensorflow.keras.metrics.Metric": {"parameters": [], "methods": {"add_weight": METRIC_ADD_WEIGHT}},
    },
    imports={
        "tensorflow.python.keras.engine.training_utils": {
            "np": "numpy",
            "ops": "tensorflow.python.framework.ops",
        }
    },
)
NEW = probe(
    "2.4.0",
    modules={
        "tensorflow.python.keras.engine": ["training_eager_v1", "training_utils", "training_utils_v1"],
        "tensorflow.python.keras.engine.training_eager_v1": ["train_on_batch", "test_on_batch"],
        "tensorflow.python.keras.engine.training_utils": [],
        "tensorflow.python.keras.engine.training_utils_v1": ["MetricsAggregator"],
        "tensorflow.python.framework.ops": ["Tensor"],
        "tensorflow.python.keras.utils.shared": ["smart_cond"],
        "tensorflow.python.keras.utils.other": ["smart_cond"],
    },
    defines={
        "tensorflow.python.keras.engine.training_eager_v1": ["train_on_batch", "test_on_batch"],
        "tensorflow.python.keras.engine.training_utils_v1": ["MetricsAggregator"],
    },
    public={
        "tensorflow.keras.layers.LSTM": {
            "parameters": [
                ["units", "POSITIONAL_OR_KEYWORD", False],
                ["return_sequences", "POSITIONAL_OR_KEYWORD", True],
                ["kwargs", "VAR_KEYWORD", False],
            ]
        },
        "tensorflow.keras.layers.Dense": {
            "parameters": [["units", "POSITIONAL_OR_KEYWORD", False]],
            "methods": {"add_weight": ADD_WEIGHT_24},
        },
        "tensorflow.raw_ops.MaxPool": {
            "parameters": [["name", "POSITIONAL_OR_KEYWORD", True], ["input", "POSITIONAL_OR_KEYWORD", False]]
        },
        "tensorflow.keras.layers.Layer": {"parameters": [], "methods": {"add_weight": ADD_WEIGHT_24}},
        "tensorflow.keras.metrics.Metric": {"parameters": [], "methods": {"add_weight": METRIC_ADD_WEIGHT}},
    },
)
OLD["symbolic"] = ["_shape_as_list", "device", "graph", "name", "shape"]
NEW["symbolic"] = ["_inferred_value", "name", "shape", "type_spec"]
OLD["sparse_symbolic"] = ["dense_shape", "graph", "indices", "values"]
NEW["sparse_symbolic"] = ["indices", "values", "type_spec"]
OLD["loss_scale_optimizer"] = {
    "attributes": ["_hyper", "get_config", "minimize"],
    "config": ["loss_scale", "optimizer"],
}
NEW["loss_scale_optimizer"] = {
    "attributes": ["get_config", "minimize"],
    "config": ["dynamic", "inner_optimizer"],
}
OLD["public_modules"] = ["tensorflow.keras", "tensorflow.keras.backend"]
NEW["public_modules"] = ["tensorflow.keras", "tensorflow.keras.backend", "tensorflow.experimental.numpy"]
LATER = probe("2.15.1", modules={"tensorflow.python.keras.engine.training_eager_v1": []}, defines={})


def test_a_moved_module_finds_its_home_and_what_it_lost():
    table = releases.removed(OLD, NEW, LATER)
    moved = table["tensorflow.python.keras.engine.training_eager"]
    assert moved.home == "tensorflow.python.keras.engine.training_eager_v1"
    assert moved.home_later is True
    assert moved.lost == ("losses_utils",)


def test_a_moved_name_finds_the_module_that_now_defines_it():
    table = releases.removed(OLD, NEW, LATER)
    moved = table["tensorflow.python.keras.engine.training_utils.MetricsAggregator"]
    assert moved.home == "tensorflow.python.keras.engine.training_utils_v1.MetricsAggregator"
    assert moved.home_later is False  # TF 2.15.1's probe has no such name


def test_an_imported_name_lives_where_it_was_imported_from_while_that_lasts():
    table = releases.removed(OLD, NEW, LATER)
    assert (
        table["tensorflow.python.keras.engine.training_utils.ops"].home == "tensorflow.python.framework.ops"
    )
    assert table["tensorflow.python.keras.engine.training_utils.np"].home == ""  # not TensorFlow's


def test_a_home_the_old_release_already_has_is_one_a_fix_for_both_can_use():
    table = releases.removed(OLD, NEW, LATER)
    homes = releases.homes_in_old(OLD, table)
    assert "tensorflow.python.keras.engine.training_utils.ops" in homes  # imported from there
    assert "tensorflow.python.keras.engine.training_utils.MetricsAggregator" not in homes  # a `_v1` module
    assert "tensorflow.python.keras.engine.training_eager" not in homes  # a module's home is new


def test_a_name_neither_imported_nor_defined_and_a_module_gone_with_no_home():
    table = releases.removed(OLD, NEW, LATER)
    assert table["tensorflow.python.keras.engine.training_utils.smart_cond"].home == ""
    assert table["tensorflow.python.gone"].home == ""
    assert "tensorflow.python.gone.thing" not in table  # it goes with its module
    assert table["tensorflow.keras.utils.gone_util"].home == ""
    assert "tensorflow.keras.layers.Dense" not in table


def _parameters(*names: str) -> list:
    """Parameters as the probe lists them: `"name="` has a default, `"**name"` takes keywords."""
    return [
        [
            name.strip("*="),
            "VAR_KEYWORD" if name.startswith("**") else "POSITIONAL_OR_KEYWORD",
            name.endswith("="),
        ]
        for name in names
    ]


def test_a_moved_definition_with_other_parameters_is_changed_at_home():
    """`LossScaleOptimizer(optimizer, loss_scale)` became `LossScaleOptimizer(inner_optimizer,
    dynamic=True)` in the moved module's home, which gives TF 2.3's parameters to
    `LossScaleOptimizerV1`; an added keyword with a default binds every old call alike."""
    module, home = "tensorflow.python.mp.experimental.lso", "tensorflow.python.mp.lso"
    old = probe(
        "2.3.0",
        modules={module: ["LossScaleOptimizer", "wrap"], "tensorflow.python.ops": ["enable"]},
        defines={module: ["LossScaleOptimizer", "wrap"], "tensorflow.python.ops": ["enable"]},
        signatures={
            module: {"LossScaleOptimizer": _parameters("optimizer", "loss_scale"), "wrap": _parameters("v")},
            "tensorflow.python.ops": {"enable": _parameters("dtype", "graph=")},
        },
    )
    new = probe(
        "2.4.0",
        modules={home: ["LossScaleOptimizer", "LossScaleOptimizerV1", "wrap"], "tensorflow.python.ops": []},
        defines={home: ["LossScaleOptimizer", "LossScaleOptimizerV1", "wrap", "enable"]},
        signatures={
            home: {
                "LossScaleOptimizer": _parameters("inner_optimizer", "dynamic="),
                "LossScaleOptimizerV1": _parameters("optimizer", "loss_scale"),
                "wrap": _parameters("v", "op="),
                "enable": _parameters("dtype"),
            }
        },
    )
    table = releases.removed(old, new, None)
    assert table[module].home == home and table["tensorflow.python.ops.enable"].home == f"{home}.enable"
    modules, names = releases.changed_at_home(old, new, table)
    assert modules == {module: {"LossScaleOptimizer": "LossScaleOptimizerV1"}}
    assert names == {"tensorflow.python.ops.enable"}  # `graph=` is no keyword of the new one


def test_internal_parameters_are_those_a_module_of_both_releases_defines_otherwise():
    """`freeze_graph(..., variable_names_blacklist="")` became `variable_names_denylist`; an added
    keyword with a default, a private name and a name gone from the module are not listed."""
    module = "tensorflow.python.tools.freeze_graph"
    before = {
        "freeze_graph": _parameters("input_graph", "variable_names_blacklist="),
        "run": _parameters("flags"),
        "_parse": _parameters("a"),
        "gone": _parameters("a"),
    }
    after = {
        "freeze_graph": _parameters("input_graph", "variable_names_denylist="),
        "run": _parameters("flags", "extra="),
        "_parse": _parameters("b"),
    }
    old = probe("2.3.0", modules={module: sorted(before)}, defines={}, signatures={module: before})
    new = probe("2.4.0", modules={module: sorted(after)}, defines={}, signatures={module: after})
    table = releases.internal_parameters(old, new)
    assert list(table) == [f"{module}.freeze_graph"]
    assert table[f"{module}.freeze_graph"].keywords_gone == ("variable_names_blacklist",)


def test_the_probe_reads_parameters_from_the_source():
    """`release_probe._signature`: a `def`'s parameters, a class's `__init__`'s without `self`,
    none for a class that defines no `__init__`; as `_parameters` lists them."""
    import ast

    tree = ast.parse(
        "def f(a, /, b=1, *args, c, d=2, **kw): pass\n"
        "class C:\n    def __init__(self, name, loss_scale=None): pass\n"
        "class D(C): pass\n"
    )
    f, c, d = (release_probe._signature(node) for node in tree.body)
    assert f == [
        ["a", "POSITIONAL_ONLY", False],
        ["b", "POSITIONAL_OR_KEYWORD", True],
        ["args", "VAR_POSITIONAL", False],
        ["c", "KEYWORD_ONLY", False],
        ["d", "KEYWORD_ONLY", True],
        ["kw", "VAR_KEYWORD", False],
    ]
    assert c == [["name", "POSITIONAL_OR_KEYWORD", False], ["loss_scale", "POSITIONAL_OR_KEYWORD", True]]
    assert d is None


def test_parameters_report_shifted_positionals_and_ignore_keyword_only_raw_ops():
    table = releases.parameters(OLD, NEW)
    assert set(table) == {"tensorflow.keras.layers.LSTM"}
    lstm = table["tensorflow.keras.layers.LSTM"]
    assert lstm.old_positional == ("units", "implementation", "return_sequences")
    assert lstm.new_positional == ("units", "return_sequences")
    assert lstm.keywords_gone == ("implementation",)
    assert lstm.new_takes_kwargs is True


def test_methods_group_the_classes_whose_method_changed_alike():
    table = releases.methods(OLD, NEW)
    assert list(table) == [("tensorflow.keras.layers.Dense", "tensorflow.keras.layers.Layer")]
    ((method, changed),) = next(iter(table.values()))
    assert method == "add_weight"
    assert changed.old_positional == ("name", "partitioner", "use_resource")
    assert changed.keywords_gone == ("partitioner",)
    assert changed.new_takes_kwargs is True  # `Metric.add_weight`, the same in both, and `call`, gone: none


def test_the_probe_lists_the_methods_a_class_defines_or_inherits_from_tensorflow():
    """`release_probe._methods`, run here on classes that say they are TensorFlow's."""

    class Mixin:  # not TensorFlow's: an absl `TestCase`'s `fail`
        def fail(self, msg):
            return msg

    class Base:
        __module__ = "tensorflow.python.keras.engine.base_layer"

        def add_weight(self, name, partitioner=None, **kwargs):
            return name

        @staticmethod
        def static(x, y=1):
            return x

        @classmethod
        def build_from(cls, config):
            return config

        @property
        def weights(self):
            return []

        def _private(self):
            return None

    class Dense(Mixin, Base):
        __module__ = "tensorflow.python.keras.layers.core"

        def call(self, inputs, /, training=None):
            return inputs

    assert release_probe._methods(Dense) == {
        "add_weight": [
            ["name", "POSITIONAL_OR_KEYWORD", False],
            ["partitioner", "POSITIONAL_OR_KEYWORD", True],
            ["kwargs", "VAR_KEYWORD", False],
        ],
        "build_from": [["config", "POSITIONAL_OR_KEYWORD", False]],
        "call": [["inputs", "POSITIONAL_ONLY", False], ["training", "POSITIONAL_OR_KEYWORD", True]],
        "static": [["x", "POSITIONAL_OR_KEYWORD", False], ["y", "POSITIONAL_OR_KEYWORD", True]],
    }


def test_the_table_source_is_the_data():
    namespace: dict = {}
    exec(releases.table_source(OLD, NEW, LATER), namespace)
    assert (namespace["OLD"], namespace["NEW"], namespace["LATER"]) == ("2.3.0", "2.4.0", "2.15.1")
    assert namespace["REMOVED"]["tensorflow.python.keras.engine.training_eager"] == (
        "tensorflow.python.keras.engine.training_eager_v1",
        "",
        True,
        ("losses_utils",),
    )
    assert namespace["PARAMETERS"]["tensorflow.keras.layers.LSTM"][2] == ("implementation",)
    ((((method, row),), classes),) = namespace["METHODS"]
    assert method == "add_weight" and row[2] == ("partitioner",)
    assert classes == ("tensorflow.keras.layers.Dense", "tensorflow.keras.layers.Layer")
    assert namespace["SYMBOLIC_ATTRIBUTES_GONE"] == ("_shape_as_list", "device", "graph")
    assert namespace["SPARSE_SYMBOLIC_ATTRIBUTES_GONE"] == ("dense_shape", "graph")
    assert namespace["LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE"] == ("_hyper",)
    assert namespace["LOSS_SCALE_OPTIMIZER_CONFIG_GONE"] == ("loss_scale", "optimizer")
    assert namespace["PUBLIC_MODULES"] == (  # of either release
        "tensorflow.experimental.numpy",
        "tensorflow.keras",
        "tensorflow.keras.backend",
    )


def test_the_committed_table_holds_the_breaks_users_met():
    removed = _release_diff.REMOVED
    for name in (
        "tensorflow.python.keras.mixed_precision.experimental.policy",
        "tensorflow.python.keras.utils.tf_utils.smart_cond",
        "tensorflow.python.keras.utils.tf_utils.constant_value",
        "tensorflow.python.keras.utils.conv_utils.convert_kernel",
        "tensorflow.python.keras.engine.training._minimize",
        "tensorflow.python.keras.engine.training_utils.standardize_input_data",
        "tensorflow.python.keras.engine.training_utils.MetricsAggregator",
        "tensorflow.python.keras.optimizer_v2.optimizer_v2._filter_grads",
        "tensorflow.python.keras.mixed_precision.experimental.loss_scale_optimizer",
        "tensorflow.python.keras.mixed_precision.experimental.autocast_variable",
    ):
        assert name in removed, name
    assert _release_diff.PARAMETERS["tensorflow.keras.layers.LSTM"][2] == ("implementation",)
    add_weight = {
        classes: row
        for changed, classes in _release_diff.METHODS
        for method, row in changed
        if method == "add_weight"
    }
    ((classes, row),) = add_weight.items()
    assert row[2] == ("partitioner",)
    assert {
        "tensorflow.keras.layers.Layer",
        "tensorflow.keras.Model",
        "tensorflow.keras.layers.Dense",
    } <= set(classes)
    assert "tensorflow.keras.metrics.Metric" not in classes  # its own `add_weight`, unchanged
    assert "dense_shape" in _release_diff.SPARSE_SYMBOLIC_ATTRIBUTES_GONE  # a sparse `Input`'s


def test_the_dispatch_table_source_is_the_data():
    symbolic = {
        "version": "2.4.0",
        "functions": [
            [["tensorflow.signal.rfft", "tensorflow.python.ops.signal.fft_ops.rfft"], [["input_tensor", 0]]],
            [["tensorflow.vectorized_map"], [["elems", 1], ["fallback_to_while_loop", -1]]],
            [["tensorflow.compat.v1.nn.sigmoid_cross_entropy_with_logits"], [["labels", 1], ["logits", 2]]],
        ],
        "shared": ["rfft", "print", "gone"],  # `gone`: of a call TF 2.3.0 failed too, in no table
        "by_keyword": ["tensorflow.compat.v1.nn.sigmoid_cross_entropy_with_logits"],
        "op_layer_fails": [
            [["tensorflow.debugging.assert_rank_in"], [["x", 0]], "Operation"],
            [["tensorflow.print"], [["inputs", 0]], "Operation"],
        ],
        "structure_fails": [
            [["tensorflow.debugging.assert_shapes"], [["shapes", 0]], [["pairs", "TypeError"]]],
        ],
    }
    namespace: dict = {}
    exec(releases.dispatch_source(symbolic), namespace)
    assert namespace["OP_LAYER_FAILS"] == (
        (("tensorflow.debugging.assert_rank_in",), (("x", 0),), "Operation"),
        (("tensorflow.print",), (("inputs", 0),), "Operation"),
    )
    assert namespace["NOT_DISPATCHED"] == (
        (("tensorflow.signal.rfft", "tensorflow.python.ops.signal.fft_ops.rfft"), (("input_tensor", 0),)),
        (("tensorflow.vectorized_map",), (("elems", 1), ("fallback_to_while_loop", -1))),
        (("tensorflow.compat.v1.nn.sigmoid_cross_entropy_with_logits",), (("labels", 1), ("logits", 2))),
    )
    assert namespace["STRUCTURE_FAILS"] == (
        (("tensorflow.debugging.assert_shapes",), (("shapes", 0),), (("pairs", "TypeError"),)),
    )
    assert namespace["SHARED_NAMES"] == frozenset({"rfft", "print"})
    assert namespace["BY_KEYWORD"] == frozenset({"tensorflow.compat.v1.nn.sigmoid_cross_entropy_with_logits"})


def test_the_op_layers_that_fail_are_the_calls_the_old_release_ran():
    """`ran` of TF 2.3.0's pass: a row of each function, the parameters given a `KerasTensor` in any
    call that ran, and what the first raised on TF 2.4.0: "Operation" for Keras's TypeSpec error."""
    no_type_spec = "Could not build a TypeSpec for <tf.Operation 'a/NoOp' type=NoOp> with type Operation"
    ran = [
        [
            ["tensorflow.debugging.assert_rank_in", "tensorflow.python.ops.check_ops.assert_rank_in_v2"],
            [[["x", 3, None], [["x", 0]], ["TypeError", no_type_spec]]],
        ],
        [
            ["tensorflow.f"],
            [
                [[None, -1, None], [["b", 1], ["a", 0]], ["ValueError", "Shapes must be equal rank"]],
                [["c", 0, None], [["c", -1]], ["TypeError", no_type_spec]],
            ],
        ],
    ]
    assert releases.op_layer_fails(ran) == [
        [
            ["tensorflow.debugging.assert_rank_in", "tensorflow.python.ops.check_ops.assert_rank_in_v2"],
            [["x", 0]],
            "Operation",
        ],
        [["tensorflow.f"], [["c", -1], ["a", 0], ["b", 1]], "ValueError"],
    ]


def test_the_calls_that_gave_a_structure_are_a_table_of_their_own():
    """Of `ran`, the calls whose attempt gave a parameter a structure (`[only, -1, None,
    structure]`) are `structure_fails`', each structure with what it raised; the others stay
    `op_layer_fails`', whose row a function with only structured calls does not get."""
    no_type_spec = "Could not build a TypeSpec for <tf.Operation 'a/NoOp' type=NoOp> with type Operation"
    ran = [
        [
            ["tensorflow.compat.v1.debugging.assert_shapes"],
            [
                [["shapes", -1, None, "pairs"], [["shapes", 0]], ["TypeError", "Expected int32"]],
                [["shapes", -1, None, "shape pairs"], [["shapes", 0]], ["TypeError", no_type_spec]],
            ],
        ],
        [
            ["tensorflow.f"],
            [
                [[None, -1, None], [["a", 0]], ["TypeError", no_type_spec]],
                [["b", -1, None, "tensors"], [["b", 1]], ["ValueError", "Shapes must be equal rank"]],
            ],
        ],
    ]
    assert releases.structure_fails(ran) == [
        [
            ["tensorflow.compat.v1.debugging.assert_shapes"],
            [["shapes", 0]],
            [["pairs", "TypeError"], ["shape pairs", "Operation"]],
        ],
        [["tensorflow.f"], [["b", 1]], [["tensors", "ValueError"]]],
    ]
    assert releases.op_layer_fails(ran) == [[["tensorflow.f"], [["a", 0]], "Operation"]]


def test_the_committed_dispatch_table_holds_the_functions_users_met():
    """The functions real reports applied to Keras inputs (`tests/integration/reports/`: r77, r110,
    r113, r114, and the untuned samples' probing), with the parameter they gave; none that
    dispatches; and of those that dispatch, r153's assertion, whose op layer fails."""
    table = {
        name: dict(parameters) for names, parameters in symbolic_dispatch.NOT_DISPATCHED for name in names
    }
    for name, parameter in (
        ("tensorflow.reverse_sequence", "input"),
        ("tensorflow.compat.v1.image.resize_bilinear", "images"),
        ("tensorflow.python.ops.sparse_ops.sparse_tensor_dense_mat_mul", "b"),
        ("tensorflow.python.ops.gen_cudnn_rnn_ops.cudnn_rnn", "input"),
        ("tensorflow.signal.rfft", "input_tensor"),
        ("tensorflow.math.bincount", "arr"),
        ("tensorflow.io.decode_jpeg", "contents"),
    ):
        assert parameter in table.get(name, {}), name
    for name in ("tensorflow.nn.relu", "tensorflow.reshape", "tensorflow.einsum", "tensorflow.concat"):
        assert name not in table, name
    fails = {
        name: (dict(parameters), what)
        for names, parameters, what in symbolic_dispatch.OP_LAYER_FAILS
        for name in names
    }
    assert fails["tensorflow.debugging.assert_rank_in"] == ({"x": 0}, "Operation")  # r153
    assert "tensorflow.nn.relu" not in fails


@pytest.mark.parametrize(("callable_name", "code"), sorted(FIXED_ELSEWHERE.items()))
def test_the_callables_left_to_other_rules_are_theirs(callable_name, code):
    """TF24509 leaves these callables to `code`: that rule reports a shifted call of each."""
    assert callable_name in _release_diff.PARAMETERS
    old = _release_diff.PARAMETERS[callable_name][0]
    call = f"{callable_name.replace('tensorflow', 'tf', 1)}({', '.join(f'a{i}' for i in range(len(old)))})"
    result = migrate_source(f"import tensorflow as tf\nx = {call}\n", select="all")
    codes = {finding.code for finding in result.findings}
    assert code in codes and "TF24509" not in codes, (call, codes)


@pytest.mark.parametrize("method", sorted(METHODS_RENAMED_IN_PLACE))
def test_the_methods_renamed_in_place_are_left_alone(method):
    """TF24509 leaves these methods alone: their parameter was renamed in its place, so a
    positional argument binds the same; TF24103 fixes the keyword in the calls users write."""
    rows = [
        (row, classes)
        for changed, classes in _release_diff.METHODS
        for name, row in changed
        if name == method
    ]
    assert rows, method
    (old, new, gone, _), classes = rows[0]
    assert [a for a, b in zip(old, new, strict=False) if a != b] == list(gone)  # renamed in place
    receiver = f"import tensorflow as tf\nobj = {classes[0].replace('tensorflow', 'tf', 1)}()\n"
    positional = f"obj.{method}({', '.join(f'a{i}' for i in range(len(old)))})\n"
    assert "TF24509" not in {f.code for f in migrate_source(receiver + positional, select="all").findings}
    by_keyword = f"obj.{method}(a0, a1, {gone[0]}=hints)\n"
    codes = [f.code for f in migrate_source(receiver + by_keyword, select="all").findings]
    assert codes == (["TF24103"] if method in EXPERIMENTAL_HINTS_KEYWORD.callees else []), codes


@pytest.mark.parametrize(("name", "code"), sorted(REPORTED_ELSEWHERE.items()))
def test_the_names_left_to_other_rules_are_theirs(name, code):
    assert name in _release_diff.REMOVED
    module, last = name.rsplit(".", 1)
    result = migrate_source(f"import tensorflow as tf\nfrom {module} import {last}\n", select="all")
    assert [finding.code for finding in result.findings] == [code]


def test_the_needle_finds_imports_and_the_uses_of_what_they_bind_and_nothing_else():
    """TF24508's trigger: the lines it must see, without following every import to every use."""
    (needle,) = RemovedApi.triggers
    text = (
        "import tensorflow as tf\n"
        "from tensorflow.python.keras.utils import tf_utils, layer_utils\n"  # tf_utils lost names
        "from tensorflow.python.eager import def_function\n"  # lost `pywrap_tfe` only
        "import tensorflow.python.keras.engine.training_utils as tu\n"
        "from tensorflow.python.keras.engine import (\n    training_eager,\n)\n"
        "a = tf_utils.smart_cond(p, f, g)\n"
        "b = tf_utils.is_symbolic_tensor(x)\n"  # still there in TF 2.4
        "c = def_function.function(f)\n"
        "d = tu.standardize_input_data(x)\n"
        "e = layer_utils.count_params(w)\n"
    )
    lines = sorted({text.count("\n", 0, match.start()) + 1 for match in needle.finditer(text)})
    assert lines == [5, 8, 11]


def test_the_needle_reads_no_file_that_imports_no_internals():
    (needle,) = RemovedApi.triggers
    assert not needle.search("import tensorflow as tf\nx = tf.keras.layers.Dense(3)\nsmart_cond = 1\n")


def test_the_method_needle_finds_the_lines_that_tell_a_receiver():
    """TF24509's needle of methods: the calls of a changed method with enough positional
    arguments to shift, its definitions, the class headers where one is called on `self` or
    `super()`, and the bindings of a named receiver; nothing where no call can shift."""
    (needle,) = [n for n in POSITIONAL_PARAMETERS.triggers if isinstance(n, MethodCallLines)]
    assert needle.positional == 8  # `add_weight`: the 8th, `partitioner`, is gone
    text = (
        "import tensorflow as tf\n"
        "class Base(tf.keras.layers.Layer):\n"  # a header: `self.add_weight(` below
        "    def add_weight(self, *args):\n"  # a definition
        "        return super().add_weight(*args)\n"  # passes `*args`: no shift seen
        "class Scale(Base):\n"
        "    def build(self, input_shape):\n"
        "        self.w = self.add_weight('w', (1,), None, 'ones', None, True, None, None)\n"
        "        self.v = self.add_weight('v', (1,), trainable=(a, b, c, d, e, f, g, h))\n"
        "layer = tf.keras.layers.Dense(3)\n"  # binds the receiver below
        "other = 1\n"
        "layer.add_weight(\n    'v', (2,), 'a,b,c,d,e,f',  # g, h,\n    None, None, None, None, None)\n"
        "layer_add_weight = 2\n"  # not the word
    )
    lines = sorted({text.count("\n", 0, match.start()) + 1 for match in needle.finditer(text)})
    assert lines == [2, 3, 5, 7, 9, 11]
    short = "import tensorflow as tf\nclass A(tf.keras.layers.Layer):\n    def build(self, s):\n"
    assert not needle.search(short + "        self.add_weight('w', (1,), dtype=None)\n")


def test_the_dispatch_needle_finds_calls_of_what_does_not_dispatch_and_no_namesake():
    needle = NotDispatchedCall()
    assert needle.search("y = tf.signal.rfft(x)\n")
    assert needle.search("from tensorflow.python.ops.gen_cudnn_rnn_ops import cudnn_rnn as rnn\n")
    assert needle.search("h = gen_array_ops.shape (x)\n")  # `shape` by its module: others have it
    assert needle.search("c = tf.constant(x)\n")
    assert needle.search("tf.debugging.assert_rank_in(image, [2, 3, 4])\n")  # its op layer fails
    assert not needle.search("n = tf.shape(x)\nshape = x.shape\n")  # `tf.shape` dispatches
    assert not needle.search("rfft = 1\ntotal = sum(values)\nmean = np.mean(x)\n")
