"""Which TensorFlow functions do not dispatch on Keras symbolic values, and which dispatch but
raise, printed as JSON: run by the TF 2.4.0 runtime's own Python, then by the TF 2.3.0 one's.

    <runtime python> symbolic_probe.py > symbolic.json
    <runtime python> symbolic_probe.py tensorflow.signal.rfft tensorflow.nn.relu   # these only
    <TF 2.3.0 python> symbolic_probe.py --before < failing.json   # `failing` of the first

Standard library only, Python 3.8 and later: it runs in the runtimes of `scripts/runtimes.py`, never
in the tool. From TF 2.4, `tf.keras.Input(...)` is a `KerasTensor`, and a TF function given one
works only where the op that converts it to a tensor dispatches: a function made by
`dispatch.add_dispatch_support` (or a generated op with a dispatch list) catches the conversion's
TypeError and hands the call to Keras, which makes it an op layer. Any other conversion raises
TypeError ("Cannot convert a symbolic Keras input/output to a numpy array"). TF 2.3 built the
Functional API from graph tensors, where every function worked.

The probe calls each function of the public API (and of `tensorflow.python.ops`) that has no
dispatch list itself, with a distinct `KerasTensor` for each parameter a call must fill (where
none must, for each that defaults to None). A `KerasTensor` converted under a dispatching function
raises TypeError, as on TF 2.4, so that function makes an op layer and the call goes on with its
output; one converted with no dispatching function between it and the probed call converts to a
tensor of zeros instead of raising, and the probe notes the parameters it is, or is made from
(through the op layers' Keras history: `K.moving_average_update(x, value, momentum)` computes
`(x - value) * momentum`, then assigns it): the call would have raised there. A parameter so noted
does not take a `KerasTensor` on TF 2.4. Each required parameter not yet noted of a call that takes
two or more is then probed alone, the others given a variable, then a shape (`_FILLERS`):
`tf.compat.v1.assign(ref, value)` fails on a `KerasTensor` `ref` before it converts `value`. Each
required parameter not yet noted whose documentation says it takes a list, a tuple, a dict or a
nested structure (`_takes_structure`: "values: A list of at least 2 `Tensor` objects") is then
given each of `_STRUCTURES` around a `KerasTensor` (`[x, x]`, `[(x, [None, 4])]`, `[(x, x.shape)]`),
the others a `KerasTensor` each, as a single one fails such a call before it converts anything
(`gen_array_ops.concat_v2(values, axis)`). A function that dispatches is probed only where its
first parameter is one no call passes (`_sentinel`): called by keyword, as it must be, its op
layer raises ValueError for want of a first argument, and the `KerasTensor`s it was handed are
noted. What a call converts only after an
error of its own (a shape that zeros cannot have) goes unnoted, so the answer errs towards
silence.

A function that dispatches (and takes no `_sentinel`) is called with `KerasTensor`s filled in the
same ways, in turn, up to the first call that returns: every required parameter (or, of one
taking only `*args`, `tf.print(*inputs)`, one positional argument) given a `KerasTensor`, those
defaulting to None given None then 1; then each required parameter alone, the others given each
of `_FILLERS` and of `_MORE_FILLERS` (the rank 2 of a `KerasTensor`, alone and in a list:
`tf.debugging.assert_rank_in(x, ranks)`); then each required parameter that takes a structure
given each of `_STRUCTURES`, the others a `KerasTensor` each (`tf.debugging.assert_shapes(shapes)`,
whose op layer turns the Python numbers of `[(x, [None, 4])]` into tensors). A call that raises
is noted (`failing`) where the same call made in a graph (`tf.Graph().as_default()`, where `tf.keras.Input` makes a graph tensor)
returns: Keras's op layer calls the function on placeholders, so what fails there too fails for
its filling, not for Keras. What is left fails in Keras's hands: where the function returns an
Operation (an assertion, a `tf.print`), Keras raises TypeError ("Could not build a TypeSpec for
<tf.Operation ...>"). Most such calls fail on TF 2.3.0 too (a dynamic assertion of a graph tensor outside a graph, a filling
the function refuses): `--before`, run by the TF 2.3.0 runtime with `failing` on its input, calls
each again there, where a Keras input is a graph tensor, and keeps the calls that return (`ran`):
those are what TF 2.4 broke. It prints:

- `version`: `tf.__version__`;
- `functions`: `[[names, parameters], ...]`: the qualified names of one function (public
  spellings and where it is defined), and the parameters that do not take a `KerasTensor`, each
  `[name, position]` (`position`: its index among the positional parameters, or -1);
- `by_keyword`: the qualified names of those functions that do dispatch, but whose op layer wants
  the first argument (`_sentinel`) a call by keyword leaves out: they raise ValueError;
- `failing`: `[[names, [[attempt, parameters, error], ...]], ...]` of the functions that do
  dispatch: each call that raised, as `[only, filler, optional]`, or `[only, -1, None, structure]`
  where `only` was given a structure (`_attempts`), the parameters it
  gave a `KerasTensor` (`[name, position]`) and `[type, first line]` of what it raised;
- `shared`: the last names of those functions (of `functions` and `failing`) that other callables
  of the public API also have (`gen_array_ops.shape`'s, as `tf.shape`, which dispatches), or
  Python's builtins, `math` or NumPy (`sum`): a call spelled by that name alone tells nothing.

With `--before` it prints `version` and `ran`: the entries of `failing` whose call returns on
this release, in the same form, of the functions with one or more.
"""

import functools
import inspect
import json
import os
import re
import signal
import sys
import types
import warnings

from release_probe import api_values  # type: ignore[import-not-found]  # run as a script: its folder

# The internal modules whose functions are probed with the public API's (a prefix of a module's
# name), and the modules whose functions are never called: they touch files, download, start
# servers, or build and run whole programs (each call runs in a child process, so what it does to
# the process itself is forgotten).
_INTERNAL = ("tensorflow.python.ops.",)
_NEVER = (
    "tensorflow.app",
    "tensorflow.compat.v1.app",
    "tensorflow.config",
    "tensorflow.compat.v1.config",
    "tensorflow.debugging.experimental",
    "tensorflow.compat.v1.debugging.experimental",
    "tensorflow.distribute",
    "tensorflow.compat.v1.distribute",
    "tensorflow.estimator",
    "tensorflow.compat.v1.estimator",
    "tensorflow.flags",
    "tensorflow.compat.v1.flags",
    "tensorflow.io.gfile",
    "tensorflow.compat.v1.io.gfile",
    "tensorflow.compat.v1.gfile",
    "tensorflow.keras",
    "tensorflow.compat.v1.keras",
    "tensorflow.lite",
    "tensorflow.compat.v1.lite",
    "tensorflow.profiler",
    "tensorflow.compat.v1.profiler",
    "tensorflow.saved_model",
    "tensorflow.compat.v1.saved_model",
    "tensorflow.summary",
    "tensorflow.compat.v1.summary",
    "tensorflow.test",
    "tensorflow.compat.v1.test",
    "tensorflow.tpu",
    "tensorflow.compat.v1.tpu",
    "tensorflow.compat.v1.train",
    "tensorflow.train",
    "tensorflow.compat.v1.logging",
    "tensorflow.autograph",
    "tensorflow.compat.v1.autograph",
    "tensorflow.python.ops.script_ops",
    "tensorflow.python.ops.logging_ops",
    "tensorflow.python.ops.io_ops",
    "tensorflow.python.ops.gen_io_ops",
    "tensorflow.python.ops.gen_logging_ops",
    "tensorflow.python.ops.gen_script_ops",
    "tensorflow.python.ops.gen_summary_ops",
    "tensorflow.python.ops.summary_ops_v2",
    "tensorflow.python.ops.gen_data_flow_ops",
    "tensorflow.python.ops.gen_dataset_ops",
    "tensorflow.python.ops.gen_experimental_dataset_ops",
)
# Of Keras, the modules of functions applied to tensors are probed; its other modules are never called.
_KERAS = tuple(
    f"{keras}.{module}."
    for keras in ("tensorflow.keras", "tensorflow.compat.v1.keras")
    for module in ("activations", "backend", "losses", "metrics")
)
# Functions whose names say they act outside the call (files, settings): never called.
_NEVER_NAMES = (
    "set_",
    "enable_",
    "disable_",
    "reset_",
    "clear_",
    "write",
    "save",
    "remove",
    "delete",
    "rename",
)
_SECONDS = 5


def _required(function):
    """`[(name, position, positional, default)]` of the parameters of `function` that a call must
    fill (`default`: `inspect.Parameter.empty`), and of those whose default is None (a call may
    need them too: `tf.reverse_sequence`'s `seq_axis`); where none is required, those whose default
    is None (but `name` and `_sentinel`), as required; None when there are none."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    required, position = [], 0
    for parameter in parameters:
        positional = parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is parameter.empty or (parameter.default is None and parameter.name != "name"):
            required.append((parameter.name, position if positional else -1, positional, parameter.default))
        if positional:
            position += 1
    if any(default is inspect.Parameter.empty for *_, default in required):
        return required
    # every parameter has a default: those defaulting to None are what a call fills, by keyword
    # (`tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None)`)
    inputs = [
        (name, position, False, inspect.Parameter.empty)
        for name, position, _, _ in required
        if not name.startswith("_")
    ]
    return inputs or None


# What TF 2.4's op layer raises when the call it is handed lacks the function's first argument.
_NO_FIRST_ARGUMENT = "The first argument to `Layer.call` must always be passed"


def _takes_a_sentinel(function):
    """Whether `function`'s first parameter is one no call passes (`_sentinel`), so that Keras's op
    layer cannot take a call of it by keyword, though it dispatches
    (`tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=..., logits=...)`)."""
    try:
        first = next(iter(inspect.signature(function).parameters), "")
    except (TypeError, ValueError):
        return False
    return first.startswith("_")


def _functions(tf):
    """`{id: (function, set of qualified names)}` of the functions to probe, and `{last name: ids}`
    of every callable of the public API."""
    found: dict = {}  # local annotations are never evaluated: Python 3.8 runs this
    public: dict = {}

    def add(function, name):
        if not inspect.isfunction(function) and not inspect.isbuiltin(function):
            return
        last = name.rsplit(".", 1)[1]
        never = name.startswith(_NEVER) and not name.startswith(_KERAS) and last != "preprocess_input"
        if never or last.startswith(_NEVER_NAMES) or last.endswith("_eager_fallback"):
            return
        entry = found.setdefault(id(function), (function, set()))
        entry[1].add(name)
        module, qualname = getattr(function, "__module__", None), getattr(function, "__qualname__", "")
        if isinstance(module, str) and module.startswith("tensorflow.") and "<" not in qualname:
            entry[1].add(module + "." + qualname)

    for qualified, value in api_values(tf):
        if callable(value):
            public.setdefault(qualified.rsplit(".", 1)[1], set()).add(id(value))
        add(value, qualified)
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not module_name.startswith(_INTERNAL) or module_name.startswith(_NEVER):
            continue
        for name, value in sorted(vars(module).items()):  # what it defines and what it imports
            if not name.startswith("_") and str(getattr(value, "__module__", "")).startswith(_INTERNAL):
                add(value, module_name + "." + name)
    return found, public


def _dispatch_codes():
    """The code objects of the functions that dispatch: a conversion below one of them is caught
    and handed to Keras."""
    from tensorflow.python.util import dispatch  # type: ignore[import-untyped]

    codes = set()
    for module in list(sys.modules.values()):
        if module is None or not getattr(module, "__name__", "").startswith("tensorflow"):
            continue
        for value in list(vars(module).values()):
            if callable(value) and hasattr(value, dispatch.DISPATCH_ATTR):
                code = getattr(value, "__code__", None)
                if code is not None:
                    codes.add(code)
    return codes


class _Watch:
    """The `KerasTensor`s of one probed call, and those of them converted with no dispatch."""

    def __init__(self, dispatching, call):
        self.dispatching = dispatching  # code objects of the functions that dispatch
        self.call = call  # the code object of `_call`, where the walk up the stack ends
        self.inputs: dict = {}  # id of a `KerasTensor` -> (parameter, position)
        self.converted: set = set()
        self.dispatched: set = set()  # those handed to Keras by a dispatching function

    def dispatches(self, value):
        """Whether a function between the conversion of `value` and the probed call dispatches:
        the conversion must then raise TypeError, as TF 2.4's does, so that function hands its
        call to Keras (an op layer, whose `KerasTensor` the probed call goes on with). Otherwise
        the conversion would raise out of the call: note the parameters `value` comes from."""
        frame: types.FrameType | None = sys._getframe(2)
        while frame is not None and frame.f_code is not self.call:
            if frame.f_code in self.dispatching:
                self.dispatched.update(self._origins(value))
                return True
            frame = frame.f_back
        if frame is not None:
            self.converted.update(self._origins(value))
        return False

    def _origins(self, value):
        """The (parameter, position) of each of the call's `KerasTensor`s that `value` is or is
        made from, found through the Keras history of the op layers between them."""
        found, seen, stack = [], set(), [value]
        while stack:
            value = stack.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            kind = self.inputs.get(id(value))
            if kind is not None:
                found.append(kind)
                continue
            history = getattr(value, "_keras_history", None)
            if history is not None:
                stack.extend(history.layer._inbound_nodes[history.node_index].keras_inputs)
        return found


def _call(function, arguments, keywords):
    return function(*arguments, **keywords)


def _arguments(tf, inputs, required, optional, only=None, filler=None, structure=None):
    """The positional and keyword arguments of a call filling `required` (see `_converted`), the
    `KerasTensor`s given noted in `inputs` (`{id: (parameter, position)}`). With `structure` (a
    name of `_STRUCTURES`), `only` is given that structure around its `KerasTensor`, and the other
    required parameters a `KerasTensor` each, where `filler` is None."""
    arguments, keywords = [], {}
    for name, position, positional, default in required:
        if default is None:
            value = optional
        elif only is None or name == only or (structure and filler is None):
            value = tf.keras.Input((4,))
            inputs[id(value)] = (name, position)
            if structure and name == only:
                value = dict(_STRUCTURES)[structure](value)
        else:
            value = filler(tf)
        if positional:
            arguments.append(value)
        else:
            keywords[name] = value
    return arguments, keywords


def _converted(tf, watch, function, required, optional, only=None, filler=None, structure=None):
    """`[[parameter, position], ...]` that a call of `function` with a `KerasTensor` for each of
    the `required` parameters converts with no dispatch; a parameter whose default is None is
    then given `optional` (None, or 1 where None fails the call before it converts anything).
    With `only`, that parameter alone is given a `KerasTensor`, and the other required ones
    `filler()` (see `_FILLERS`); with `structure` too, `only` is given that structure around it
    (`_STRUCTURES`), the others a `KerasTensor` each."""
    watch.inputs, watch.converted, watch.dispatched = {}, set(), set()
    arguments, keywords = _arguments(tf, watch.inputs, required, optional, only, filler, structure)
    try:
        _call(function, arguments, keywords)
    except ValueError as error:  # conversions are noted, whatever the call does after
        if _NO_FIRST_ARGUMENT in str(error):  # Keras's op layer could not take the call
            watch.converted |= watch.dispatched
    except BaseException:
        pass
    return [list(kind) for kind in watch.converted]


# What the other required parameters are given when one alone gets a `KerasTensor`: a variable
# (the target of `tf.compat.v1.assign(ref, value)`, `K.update(x, new_x)`,
# `K.moving_average_update(x, value, momentum)`) and a shape (`placeholder_with_default(input,
# shape)`). A `KerasTensor` in every parameter fails those calls before they convert the value.
_FILLERS = (
    lambda tf: tf.Variable(tf.zeros((1, 4))),
    lambda tf: [1, 4],
)


# What a required parameter whose documentation says it takes a structure (`_takes_structure`) is
# given around a `KerasTensor`, by name: a list of it, twice (`values` of `gen_array_ops.concat_v2`,
# "A list of at least 2 `Tensor` objects"), and a list of one (tensor, shape) pair, the shape written
# with Python numbers (`[None, 4]`), then as its `TensorShape` (`shapes` of
# `tf.debugging.assert_shapes`, "a list of (`Tensor`, shape) tuples"). A single `KerasTensor` fails
# those calls before they convert it.
_STRUCTURES = (
    ("tensors", lambda value: [value, value]),
    ("pairs", lambda value: [(value, value.shape.as_list())]),
    ("shape pairs", lambda value: [(value, value.shape)]),
)
# The words of a parameter's documentation that say it takes a structure.
_STRUCTURE_WORDS = re.compile(r"\b(?:list|tuple|sequence|dict|dictionary|structure|iterable)s?\b", re.I)
_DOCUMENTED = re.compile(r"^(\s*)\**(\w+)\s*(?:\([^)]*\))?:(.*)$")


def _documented(function, name):
    """The text of `function`'s docstring that documents its parameter `name` (Google style:
    `name: text`, continued on the lines indented deeper), or ""."""
    text, indent = [], None
    for line in (inspect.getdoc(function) or "").splitlines():
        match = _DOCUMENTED.match(line)
        if indent is not None:
            if not line.strip() or (match and len(match.group(1)) <= indent):
                break
            text.append(line.strip())
        elif match and match.group(2) == name:
            indent = len(match.group(1))
            text.append(match.group(3))
    return " ".join(text)


def _takes_structure(function, required):
    """The names of the required parameters of `function` whose documentation says they take a
    list, a tuple, a dict or a nested structure: those a call gives `_STRUCTURES` too."""
    return [
        name
        for name, _, _, default in required
        if default is inspect.Parameter.empty and _STRUCTURE_WORDS.search(_documented(function, name))
    ]


def _in_structures(tf, watch, function, required, names):
    """The `[parameter, position]` of `names` (`_takes_structure`) that a call of `function`
    converts with no dispatch when that parameter is given each of `_STRUCTURES` in turn, the
    others a `KerasTensor` each, up to the first structure so noted: all in one child process,
    not a process each (the probe forks thousands already)."""
    found: list = []
    for name in names:
        for structure, _ in _STRUCTURES:
            noted = _converted(tf, watch, function, required, None, name, None, structure)
            if any(kind[0] == name for kind in noted):
                found.extend(kind for kind in noted if kind[0] == name)
                break
    return found


def _one_at_a_time(tf, watch, function, required, converted):
    """`converted` and the `[parameter, position]` that `function` converts with no dispatch when
    that parameter alone is given a `KerasTensor` and the other required ones a filler: the
    parameters whose conversion the other `KerasTensor`s kept from happening
    (`K.moving_average_update(x, value, momentum)` converts `momentum` first)."""
    names = [name for name, _, _, default in required if default is not None]
    if len(names) < 2:
        return converted
    converted = list(converted)
    for name in names:
        if any(kind[0] == name for kind in converted):
            continue
        for filler in _FILLERS:
            found = _in_child(
                functools.partial(_converted, tf, watch, function, required, None, name, filler)
            )
            if found:
                converted.extend(kind for kind in found if kind not in converted)
                break
    return converted


# What the other required parameters of a dispatching function are given besides `_FILLERS`:
# the rank of the `KerasTensor` (2), alone and in a list (`assert_rank(x, rank)`,
# `assert_rank_in(x, ranks)`), where `[1, 4]` and a variable fail the call first.
_MORE_FILLERS = (lambda tf: 2, lambda tf: [2])


def _dispatch_required(function):
    """`_required(function)`, or where it has none, one positional `KerasTensor` for its `*args`
    (`tf.print(*inputs)`); None where a call has nothing to give a `KerasTensor` (`tf.no_op`)."""
    required = _required(function)
    if required:
        return required
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    rest = [p.name for p in parameters if p.kind == p.VAR_POSITIONAL]
    return [(rest[0], 0, True, inspect.Parameter.empty)] if rest else None


def _attempts(required, structured=()):
    """The fillings of a call of a dispatching function, in `_converted`'s order, each `[only,
    filler, optional]`: a `KerasTensor` for every required parameter (`only` None, `filler` -1),
    those defaulting to None given None, then 1; then, of a call that takes two or more, each
    required parameter alone, the others given each of `_FILLERS` and `_MORE_FILLERS` (its index);
    then each parameter of `structured` (`_takes_structure`) given each of `_STRUCTURES` around a
    `KerasTensor`, the others a `KerasTensor` each: `[only, -1, None, structure]`."""
    yield [None, -1, None]
    yield [None, -1, 1]
    names = [name for name, _, _, default in required if default is not None]
    if len(names) >= 2:
        for name in names:
            for index in range(len(_FILLERS + _MORE_FILLERS)):
                yield [name, index, None]
    for name in structured:
        for structure, _ in _STRUCTURES:
            yield [name, -1, None, structure]


def _outcome(tf, function, required, attempt):
    """`[]` where a call of `function` filled as `attempt` says (`_attempts`) returns, else
    `[type, first line]` of what it raises."""
    only, index, optional, *structure = attempt
    filler = (_FILLERS + _MORE_FILLERS)[index] if index >= 0 else None
    arguments, keywords = _arguments(tf, {}, required, optional, only, filler, *structure)
    try:
        _call(function, arguments, keywords)
    except Exception as error:
        return [type(error).__name__, (str(error).splitlines() or [""])[0][:300]]
    return []


def _failures(tf, function, required):
    """`[[attempt, [[parameter, position], ...], [type, first line]], ...]`: the fillings of a
    call of the dispatching `function` (`_attempts`) that raise, up to the first that returns (a
    function that takes `KerasTensor`s so), with the parameters given a `KerasTensor`; only those
    that return where the same call is made in a graph, where `tf.keras.Input` makes a graph
    tensor, as on TF 2.3 (the op layer makes it on placeholders: what fails there too is the
    filling's fault, not Keras's)."""
    failed = []
    for attempt in _attempts(required, _takes_structure(function, required)):
        outcome = _outcome(tf, function, required, attempt)
        if not outcome:
            break
        with tf.Graph().as_default():
            if _outcome(tf, function, required, attempt):
                continue
        given = [[name, position] for name, position, _, default in required if default is not None]
        failed.append([attempt, [kind for kind in given if attempt[0] in (None, kind[0])], outcome])
    return failed


def _in_child(work):
    """What `work()` returns, run in a child process that may crash (a failed check of TF's C++
    aborts) or hang (killed after `_SECONDS`): None then."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        signal.alarm(_SECONDS)
        try:
            answer = json.dumps(work()).encode()
        except BaseException:
            answer = b"null"
        os.write(write, answer)
        os._exit(0)
    os.close(write)
    chunks = []
    while True:
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except ValueError:
        return None


def probe(tf, only=()):
    """`[[sorted names, [[parameter, position], ...]], ...]` (see the module docstring), of the
    functions named `only` if any, the last names of theirs that other public callables have, and
    the names of those of them that dispatch (`by_keyword`)."""
    from tensorflow.python.framework import tensor_conversion_registry  # type: ignore[import-untyped]
    from tensorflow.python.keras.engine import keras_tensor  # type: ignore[import-untyped]
    from tensorflow.python.util import dispatch

    found, public = _functions(tf)
    if only:
        found = {key: entry for key, entry in found.items() if entry[1] & set(only)}
    watch = _Watch(_dispatch_codes(), _call.__code__)

    def zeros(shape):
        return [1 if size is None else size for size in shape]

    def convert(value, dtype=None, name=None, as_ref=False):
        if watch.dispatches(value):
            raise TypeError("a KerasTensor converted where a function dispatches")
        return tf.zeros(zeros(value.shape), dtype or value.dtype)

    def to_array(self, dtype=None):
        import numpy

        if watch.dispatches(self):
            raise TypeError("a KerasTensor converted where a function dispatches")
        return numpy.zeros(zeros(self.shape), dtype or "float32")

    tensor_conversion_registry.register_tensor_conversion_function(keras_tensor.KerasTensor, convert, 1)
    keras_tensor.KerasTensor.__array__ = to_array
    rows: list = []
    by_keyword: set = set()
    failing: list = []
    for function, names in found.values():
        dispatching = hasattr(function, dispatch.DISPATCH_ATTR)
        if dispatching and not _takes_a_sentinel(function):
            required = _dispatch_required(function)
            failed = _in_child(functools.partial(_failures, tf, function, required)) if required else []
            if failed:
                failing.append([sorted(names), failed, id(function)])
            continue
        required = _required(function)
        if not required:
            continue
        converted = _in_child(functools.partial(_converted, tf, watch, function, required, None))
        if not converted:
            converted = _in_child(functools.partial(_converted, tf, watch, function, required, 1))
        converted = _one_at_a_time(tf, watch, function, required, converted or [])
        structured = [name for name in _takes_structure(function, required) if name not in dict(converted)]
        if structured:
            found = _in_child(functools.partial(_in_structures, tf, watch, function, required, structured))
            converted += found or []
        if converted:
            rows.append([sorted(names), sorted(converted, key=lambda kind: (kind[1], kind[0])), id(function)])
            if dispatching:  # noted only as its op layer failed (`_takes_a_sentinel`)
                by_keyword.update(names)
    ids = {row.pop() for row in rows + failing}
    lasts = {name.rsplit(".", 1)[1] for names, _ in rows + failing for name in names}
    import builtins
    import math

    import numpy

    common = set(dir(builtins)) | set(dir(math)) | set(dir(numpy))  # `sum(`, `np.sum(`
    shared = {last for last in lasts if public.get(last, set()) - ids or last in common}
    return sorted(rows), sorted(shared), sorted(by_keyword), sorted(failing)


def ran_before(tf, failing):
    """Of `failing` (the `failing` of the new release's answer), the fillings that return on this
    one, an older release where a Keras input is a graph tensor: `[[names, [[attempt, parameters,
    error], ...]], ...]`, of the functions with one or more (a function none of whose names this
    release has is left out)."""
    found, _ = _functions(tf)
    by_name = {name: function for function, names in found.values() for name in names}
    ran = []
    for names, failed in failing:
        function = next((by_name[name] for name in names if name in by_name), None)
        required = _dispatch_required(function) if function is not None else None
        if not required:
            continue
        given = {name for name, _, _, default in required if default is not None}
        kept = [
            entry
            for entry in failed
            if entry[0][0] in given | {None}
            and _in_child(functools.partial(_outcome, tf, function, required, entry[0])) == []
        ]
        if kept:
            ran.append([names, kept])
    return ran


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    warnings.simplefilter("ignore")
    import tensorflow as tf  # type: ignore[import-untyped]

    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what probed functions print is no part of the answer
    if sys.argv[1:] == ["--before"]:  # the older release, given the newer's `failing` on stdin
        answer = {"version": tf.__version__, "ran": ran_before(tf, json.load(sys.stdin))}
    else:
        rows, shared, by_keyword, failing = probe(tf, sys.argv[1:])
        answer = {
            "version": tf.__version__,
            "functions": rows,
            "shared": shared,
            "by_keyword": by_keyword,
            "failing": failing,
        }
    json.dump(answer, out, sort_keys=True, separators=(",", ":"))
    out.close()


if __name__ == "__main__":
    main()
