"""What one installed TensorFlow release holds, printed as JSON: run by a release's own Python.

    <runtime python> release_probe.py > tf-2.3.0.json

Standard library only, Python 3.8 and later: it runs in the runtimes of `scripts/runtimes.py`
(TF 2.3.0 and 2.4.0 on Python 3.8), never in the tool. It prints one object:

- `version`: `tf.__version__`;
- `modules`: every module of the `tensorflow` package found as a file (`.py`, or a compiled
  extension), test modules left out, each with the names its source binds at the top level (`def`,
  `class`, assignments, imports, its submodules, and what a `from ... import *` of another module
  of the package brings), read with `ast`: no module is imported, so a module that cannot import
  on this machine (a TPU, a GPU, an optional dependency) is listed all the same;
- `defines`: of each module, the names its own `def`, `class` and assignment statements bind
  (where an object is defined, not imported: what tells where a name moved);
- `signatures`: of each module, the parameters of the functions it defines and of the classes
  whose `__init__` it defines, read from the source (`self` left out; as `public` gives them): what
  tells a moved name's new definition from its old one;
- `imports`: of each module, the names its imports bind, each with what it imports (`{"np":
  "numpy", "nest": "tensorflow.python.util.nest"}`): where the object of an imported name is;
- `public`: every name of the public API reached from `import tensorflow as tf` through its API
  modules (`tf.keras.layers.LSTM`: `tensorflow.keras.layers.LSTM`), with where the object is
  defined and, for a callable, its parameters as `inspect.signature` gives them (a class: its
  `__init__` without `self`); for a class, also `methods`: each public method it defines or
  inherits (from any class but `object`) with its parameters, `self` left out;
- `public_modules`: the modules of that public API (`tensorflow.keras.backend`);
- `symbolic`: the attributes of a Keras layer's output in a Functional model (`__dunder__` ones
  left out);
- `sparse_symbolic`: the same of a sparse Keras input (`tf.keras.Input(..., sparse=True)`);
- `loss_scale_optimizer`: the attributes and the `get_config()` keys of Keras's
  `LossScaleOptimizer`s.
"""

import ast
import inspect
import json
import os
import sys
import warnings

_SKIPPED_FOLDERS = {"__pycache__", "include", "xla_aot_runtime_src"}
# Public modules to walk: the generated API modules and the estimator's, never `tensorflow.python`.
# The packages whose classes' methods are TensorFlow's API.
_METHOD_OWNERS = ("tensorflow", "keras")
_API_PREFIXES = ("tensorflow._api.", "tensorflow.keras", "tensorflow_estimator.python.estimator.api")
# `tf.compat.v1.keras` and its modules are generated in `tensorflow.python.keras.api`: listed as the
# public API's modules (`public_modules`), not walked for `public` (whose names `REMOVED` and
# `PARAMETERS` are diffed from).
_KERAS_V1_API = "tensorflow.python.keras.api."


def _module_files(root):
    """`{module name: path}` of the package folder `root` (test modules left out)."""
    found: dict[str, str] = {}  # local annotations are never evaluated: Python 3.8 runs this
    base = os.path.dirname(root)
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name not in _SKIPPED_FOLDERS)
        for file in sorted(files):
            stem, dot, suffix = file.partition(".")
            if not dot or stem.endswith("_test") or stem.endswith("_benchmark"):
                continue
            if suffix != "py" and not (suffix.endswith("so") and not stem.startswith("lib")):
                continue
            path = os.path.join(folder, file)
            parts = os.path.relpath(path, base).split(os.sep)
            parts[-1] = stem
            if stem == "__init__":
                parts.pop()
            if all(part.isidentifier() for part in parts):
                found.setdefault(".".join(parts), path)
    return found


def _absolute(module, level, package):
    """The module a `from` import names, relative ones made absolute against `package`."""
    if not level:
        return module
    parts = package.split(".")
    base = parts[: len(parts) - level + 1]
    return ".".join(base + ([module] if module else []))


def _signature(node):
    """The parameters of a `def`, or of the `__init__` a `class` defines (`self` left out), as
    `_parameters` gives them (`[[name, kind, has default], ...]`), or None for a class that
    defines no `__init__`."""
    if isinstance(node, ast.ClassDef):
        init = next(
            (item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"),
            None,
        )
        return None if init is None else _signature(init)[1:]
    arguments = node.args
    only = getattr(arguments, "posonlyargs", [])
    positional = only + arguments.args
    first_default = len(positional) - len(arguments.defaults)
    found = [
        [arg.arg, "POSITIONAL_ONLY" if index < len(only) else "POSITIONAL_OR_KEYWORD", index >= first_default]
        for index, arg in enumerate(positional)
    ]
    if arguments.vararg:
        found.append([arguments.vararg.arg, "VAR_POSITIONAL", False])
    found += [
        [arg.arg, "KEYWORD_ONLY", arguments.kw_defaults[index] is not None]
        for index, arg in enumerate(arguments.kwonlyargs)
    ]
    if arguments.kwarg:
        found.append([arguments.kwarg.arg, "VAR_KEYWORD", False])
    return found


def _bound_names(tree, package):
    """The names a module's top level binds, those its `def`, `class` and assignment statements
    bind, the modules it star-imports, what each of its imports binds, and the signatures of its
    functions and classes."""
    names, defined, stars, imported, signatures = set(), set(), [], {}, {}

    def targets(node):
        if isinstance(node, ast.Name):
            names.add(node.id)
            defined.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                targets(element)
        elif isinstance(node, ast.Starred):
            targets(node.value)

    def statements(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                defined.add(node.name)
                signature = _signature(node)
                if signature is not None:
                    signatures[node.name] = signature
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    targets(target)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets(node.target)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    names.add(bound)
                    imported[bound] = alias.name if alias.asname else bound
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    source = _absolute(node.module, node.level, package)
                    if alias.name == "*":
                        stars.append(source)
                    else:
                        names.add(alias.asname or alias.name)
                        imported[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for field in ("body", "orelse", "finalbody"):
                    statements(getattr(node, field, []))
                for handler in getattr(node, "handlers", []):
                    statements(handler.body)

    statements(tree.body)
    return names, defined, stars, imported, signatures


def modules(root):
    """`({module: sorted names}, {module: sorted defined names}, {module: {name: source}},
    {module: {name: signature}})` of the package at `root` (see the module docstring)."""
    files = _module_files(root)
    bound: dict[str, set[str]] = {}
    defines: dict[str, set[str]] = {}
    stars: dict[str, list[str]] = {}
    imports: dict[str, dict[str, str]] = {}
    signatures: dict[str, dict[str, str]] = {}
    for module, path in files.items():
        bound[module], defines[module], stars[module], imports[module], signatures[module] = (
            set(),
            set(),
            [],
            {},
            {},
        )
        if not path.endswith(".py"):
            continue
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        try:
            with open(path, "rb") as source:
                tree = ast.parse(source.read(), path)
        except (SyntaxError, ValueError):
            continue
        bound[module], defines[module], stars[module], imports[module], signatures[module] = _bound_names(
            tree, package
        )
    for module in files:  # submodules are attributes of their package once imported
        parent, _, name = module.rpartition(".")
        if parent in bound:
            bound[parent].add(name)

    def resolved(module, seen):
        names = set(bound.get(module, ()))
        for star in stars.get(module, ()):
            if star not in seen:
                names |= {name for name in resolved(star, seen | {star}) if not name.startswith("_")}
        return names

    names = {
        module: sorted(name for name in resolved(module, {module}) if not name.startswith("__"))
        for module in sorted(files)
    }
    return (
        names,
        {module: sorted(defines[module]) for module in sorted(files) if defines[module]},
        {module: imports[module] for module in sorted(files) if imports[module]},
        {module: signatures[module] for module in sorted(files) if signatures[module]},
    )


def _parameters(obj):
    """`[[name, kind, has default], ...]` of a callable, or None where it has no signature."""
    target = obj
    if inspect.isclass(obj):
        target = obj.__init__
        if target is object.__init__:
            return []
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    parameters = list(signature.parameters.values())
    if inspect.isclass(obj) and parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return [[p.name, p.kind.name, p.default is not inspect.Parameter.empty] for p in parameters]


def _methods(cls):
    """`{method: parameters}` of the public methods a class defines or inherits from a class of
    TensorFlow (or of its estimator, or Keras), `self` (or `cls`) left out: not those of `object`,
    nor of other packages (`absltest.TestCase.fail` changes with the absl-py a runtime got)."""
    found = {}
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        owner = next((base for base in inspect.getmro(cls) if name in vars(base)), None)
        if owner is None or not getattr(owner, "__module__", "").startswith(_METHOD_OWNERS):
            continue
        raw = vars(owner)[name]
        if isinstance(raw, staticmethod):
            function, bound = raw.__func__, False
        elif isinstance(raw, classmethod):
            function, bound = raw.__func__, True
        elif inspect.isfunction(raw):
            function, bound = raw, True
        else:  # a property, a nested class, an attribute, a builtin slot
            continue
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            continue
        if bound and parameters and parameters[0].kind.name in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"):
            parameters = parameters[1:]
        found[name] = [[p.name, p.kind.name, p.default is not inspect.Parameter.empty] for p in parameters]
    return found


def _api_walk(tf, prefixes=_API_PREFIXES):
    """`(qualified name, value)` of everything of the public API reached from `tf` through its API
    modules (those whose `__name__` starts with one of `prefixes`), the API modules themselves
    included (`tensorflow.keras.backend`)."""
    walked = set()

    def walk(module, prefix):
        walked.add(id(module))
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # a lazily loaded module that cannot load here
                continue
            qualified = prefix + "." + name
            if inspect.ismodule(value):
                # `tf.compat.v2` is `tf` again, and `tf.compat.vN.compat` its `tf.compat`
                nested_compat = name == "compat" and ".compat." in qualified
                if value.__name__.startswith(prefixes) and not (
                    qualified == "tensorflow.compat.v2" or nested_compat
                ):
                    yield qualified, value
                    if id(value) not in walked:
                        yield from walk(value, qualified)
                continue
            yield qualified, value

    yield from walk(tf, "tensorflow")
    for alias in ("keras", "estimator"):  # reached through a lazy loader or a `setattr`
        value = getattr(tf, alias, None)
        if value is not None and id(value) not in walked:
            yield "tensorflow." + alias, value
            yield from walk(value, "tensorflow." + alias)


def api_values(tf):
    """`(qualified name, value)` of every name of the public API that is not a module
    (`tensorflow.keras.layers.LSTM`)."""
    return ((qualified, value) for qualified, value in _api_walk(tf) if not inspect.ismodule(value))


def public_modules(tf):
    """The qualified names of the public API's modules (`tensorflow.keras.backend`), each way the
    API reaches one (`tensorflow.compat.v1.keras.backend` too)."""
    walked = _api_walk(tf, (*_API_PREFIXES, _KERAS_V1_API))
    return sorted({qualified for qualified, value in walked if inspect.ismodule(value)})


def public(tf):
    """`{public name: {"defined": module.qualname, "parameters": ..., "methods": ...}}` of the API."""
    found = {}
    for qualified, value in api_values(tf):
        entry = {}
        defined_in = getattr(value, "__module__", None)
        defined_as = getattr(value, "__qualname__", None)
        if isinstance(defined_in, str) and isinstance(defined_as, str):
            entry["defined"] = defined_in + "." + defined_as
        if callable(value):
            entry["parameters"] = _parameters(value)
        if inspect.isclass(value):
            entry["methods"] = _methods(value)
        found[qualified] = entry
    return found


def symbolic_attributes(tf):
    """The attributes (not `__dunder__`) of a Keras layer's output in a Functional model: a graph
    tensor up to TF 2.3, a `KerasTensor` from TF 2.4."""
    value = tf.keras.layers.Dense(1)(tf.keras.Input((1,)))
    return sorted(name for name in dir(value) if not name.startswith("__"))


def sparse_symbolic_attributes(tf):
    """The attributes (not `__dunder__`) of a sparse Keras input (`tf.keras.Input(..., sparse=True)`):
    a `SparseTensor` up to TF 2.3, a `SparseKerasTensor` from TF 2.4."""
    value = tf.keras.Input((1,), sparse=True)
    return sorted(name for name in dir(value) if not name.startswith("__"))


def loss_scale_optimizer(tf):
    """The attributes (not `__dunder__`) and the `get_config()` keys of Keras's
    `LossScaleOptimizer`s (the experimental one built with `"dynamic"` and the stable one, where the
    release has each), each list of both together."""
    precision = tf.keras.mixed_precision
    built = []
    if hasattr(precision, "experimental"):  # gone in TF 2.9
        built.append(precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic"))
    if hasattr(precision, "LossScaleOptimizer"):
        built.append(precision.LossScaleOptimizer(tf.keras.optimizers.SGD()))
    return {
        "attributes": sorted({name for value in built for name in dir(value) if not name.startswith("__")}),
        "config": sorted({key for value in built for key in value.get_config()}),
    }


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    warnings.simplefilter("ignore")
    import tensorflow as tf  # type: ignore[import-untyped]

    names, defines, imports, signatures = modules(os.path.dirname(tf.__file__))
    json.dump(
        {
            "version": tf.__version__,
            "modules": names,
            "defines": defines,
            "imports": imports,
            "signatures": signatures,
            "public": public(tf),
            "public_modules": public_modules(tf),
            "symbolic": symbolic_attributes(tf),
            "sparse_symbolic": sparse_symbolic_attributes(tf),
            "loss_scale_optimizer": loss_scale_optimizer(tf),
        },
        sys.stdout,
        sort_keys=True,
        separators=(",", ":"),
    )


if __name__ == "__main__":
    main()
