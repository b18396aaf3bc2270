"""The releases as data: what TF 2.4.0 no longer has of TF 2.3.0, diffed from the released wheels.

`python -m tf24migrate.dev releases` runs `release_probe.py` in the TF 2.3.0 and 2.4.0 runtimes of
`scripts/runtimes.py` (and in the TF 2.15.1 of this environment, if it has one, to tell which new
homes still exist there), and writes the difference as `tf24migrate/model/release_diff.py`, the
table the rules TF24508 `removed-api` and TF24509 `changed-parameters` read:

- `REMOVED`: every module and every module-level name of `tensorflow` (internal `tensorflow.python`
  modules included) and of the public `tf.*` API that TF 2.3.0 has and TF 2.4.0 has not, with where
  the same object lives in TF 2.4.0 (a module of the same name holding its definitions, a module that
  now defines the name, what an imported name imported), the public spelling of that object in TF 2.4.0, and whether the new home
  still exists in TF 2.15.1;
- `CHANGED_AT_HOME` and `CHANGED_WHEN_MOVED`: of those moved, the names whose new home defines
  them with other parameters (read from the modules' sources), so not the same object;
- `HOMES_IN_OLD`: of those moved, the names whose home TF 2.3.0 already has (the old module
  imported them from there), so that a fix moving an import there works on both releases;
- `PARAMETERS`: every public callable whose positional parameters (as `inspect.signature` gives
  them) differ between the two releases, or that no longer takes a keyword by name;
- `INTERNAL_PARAMETERS`: the same of the functions and classes the modules define (read from
  their sources), where a module of both releases defines the name (`freeze_graph.freeze_graph`
  took `variable_names_denylist` for `variable_names_blacklist`);
- `METHODS`: the same of the methods the public classes define or inherit (`self` left out),
  with the public classes whose instances have them so changed, each list of classes once
  (`Layer.add_weight` lost `partitioner`: `tf.keras.layers.Layer`, `tf.keras.layers.Dense`, ...);
- `SYMBOLIC_ATTRIBUTES_GONE`: the attributes a Keras layer's output in a Functional model had in
  TF 2.3.0 (a graph tensor) and lacks in TF 2.4.0 (a `KerasTensor`), the data of TF24216;
- `SPARSE_SYMBOLIC_ATTRIBUTES_GONE`: those of a sparse Keras input (a `SparseTensor` in TF 2.3.0, a
  `SparseKerasTensor` in TF 2.4.0), the data of TF24221;
- `LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE` and `LOSS_SCALE_OPTIMIZER_CONFIG_GONE`: the attributes and
  `get_config()` keys of TF 2.3.0's `LossScaleOptimizer` that neither of TF 2.4.0's has, the data of
  TF24307;
- `PUBLIC_MODULES`: the modules of either release's public API, so that a name assigned one
  (`K = tf.keras.backend`) is read as an alias of that module, as an import alias is
  (`rules.names.public_module`).

The data are facts of the wheels only; which of them another rule already reports is the rules'
business (`transforms/core/removed_api.py`, `transforms/core/renames.py`).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PROBE = Path(__file__).with_name("release_probe.py")
SYMBOLIC_PROBE = Path(__file__).with_name("symbolic_probe.py")
OLD, NEW, LATER = "2.3.0", "2.4.0", "2.15.1"
_POSITIONAL = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
_BY_NAME = ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY")
# Raw ops take keyword arguments only (`tf.raw_ops.X(input=...)`): their order is no API.
_KEYWORD_ONLY_APIS = ("tensorflow.raw_ops.", "tensorflow.compat.v1.raw_ops.")
# A moved module's home must hold at least this share of the names the old module defined.
_SAME_MODULE = 0.6


class ReleaseError(Exception):
    """A runtime is missing or its probe failed; the message says which and what to do."""


def runtime_python(release: str) -> Path:
    """The interpreter of the runtime `scripts/runtimes.py` made for `release` (`verify.runtimes`)."""
    from tf24migrate.verify import runtimes

    python = runtimes.runtime_python(release)
    if python is None:
        raise ReleaseError(
            f"no TensorFlow {release} runtime in {runtimes.cache_root()}: run `python scripts/runtimes.py`"
        )
    return python


def probe(python: Path | str, script: Path = PROBE, *arguments: str, given: object = None) -> dict:
    """What the TensorFlow installed for `python` holds (see `release_probe`), or what another
    probe `script` prints (`symbolic_probe`), `given` written to its input as JSON."""
    result = subprocess.run(
        [str(python), str(script), *arguments],
        input=None if given is None else json.dumps(given),
        capture_output=True,
        text=True,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
        check=False,
    )
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise ReleaseError(f"the probe {script.name} failed in {python}: {last}")
    return json.loads(result.stdout)


@dataclass(frozen=True)
class Removed:
    """A module or name of the old release that the new one lacks."""

    home: str  # where the same object lives in the new release, or ""
    public: str  # its public spelling in the new release, or ""
    home_later: bool  # whether `home` also exists in the later release
    lost: tuple[str, ...] = ()  # of a moved module: the names its home no longer binds


def _names(release: dict) -> set[str]:
    """Every module of a release, and every name of a module, as qualified names."""
    found = set(release["modules"])
    for module, names in release["modules"].items():
        found.update(f"{module}.{name}" for name in names)
    return found | set(release["public"])


def _common_prefix(a: str, b: str) -> int:
    """How many leading parts two dotted names share."""
    shared = 0
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x != y:
            break
        shared += 1
    return shared


def _module_home(module: str, old: dict, new: dict) -> str:
    """The module of the new release that holds what `module` defined, or ""."""
    defined = set(old["defines"].get(module, ()))
    if not defined:
        return ""
    last = module.rsplit(".", 1)[-1]
    scored = []
    for candidate in new["modules"]:
        if candidate in old["modules"] or candidate.rsplit(".", 1)[-1] not in (last, f"{last}_v1"):
            continue
        share = len(defined & set(new["defines"].get(candidate, ()))) / len(defined)
        if share >= _SAME_MODULE:
            scored.append((share, _common_prefix(module, candidate), candidate))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[0][:2] == scored[1][:2]):
        return ""
    return scored[0][2]


def _name_home(module: str, name: str, old: dict, new: dict, have: set[str]) -> str:
    """Where the object `module.name` was lives in the new release, or "": for a name `module`
    imported, what it imported, where the new release still has it; for a name it defined, the
    one module of the new release that now defines it (the nearest, when several do)."""
    source = old.get("imports", {}).get(module, {}).get(name)
    if source is not None:
        return source if source in have else ""
    if name not in old["defines"].get(module, ()):
        return ""
    candidates = sorted(
        (
            (_common_prefix(module, candidate), candidate)
            for candidate, defined in new["defines"].items()
            if name in defined and name not in old["defines"].get(candidate, ())
        ),
        reverse=True,
    )
    if not candidates or (len(candidates) > 1 and candidates[0][0] == candidates[1][0]):
        return ""
    return f"{candidates[0][1]}.{name}"


def _public_spelling(locations: set[str], new: dict) -> str:
    """The shortest public name of the new release whose object is defined at one of `locations`."""
    spellings = [
        name
        for name, entry in new["public"].items()
        if entry.get("defined") in locations and ".compat." not in name
    ]
    return min(spellings, key=lambda name: (name.count("."), len(name), name), default="")


def removed(old: dict, new: dict, later: dict | None) -> dict[str, Removed]:
    """The modules and names of `old` that `new` lacks (only the outermost of a removed module's
    contents: a name inside a removed module goes with it)."""
    have, later_names = _names(new), _names(later) if later else set()
    gone_modules = {module for module in old["modules"] if module not in new["modules"]}
    table: dict[str, Removed] = {}
    for module in sorted(gone_modules):
        home = _module_home(module, old, new)
        lost = tuple(sorted(set(old["modules"][module]) - set(new["modules"].get(home, ())))) if home else ()
        table[module] = Removed(home, "", home in later_names, lost)
    for module, names in sorted(old["modules"].items()):
        if module in gone_modules:
            continue
        for name in sorted(set(names) - set(new["modules"].get(module, ()))):
            qualified = f"{module}.{name}"
            if qualified in table:
                continue
            home = _name_home(module, name, old, new, have)
            public = _public_spelling({qualified, home} - {""}, new)
            table[qualified] = Removed(home, public, bool(home) and home in later_names)
    for name in sorted(set(old["public"]) - have):
        module = name.rsplit(".", 1)[0]
        if not any(name.startswith(f"{gone}.") for gone in gone_modules) and module not in gone_modules:
            table[name] = Removed("", "", False)
    return table


@dataclass(frozen=True)
class Parameters:
    """How a public callable's parameters changed."""

    old_positional: tuple[str, ...]  # the parameters a positional argument may fill, in order
    new_positional: tuple[str, ...]
    keywords_gone: tuple[str, ...]  # named in the old release, not by name in the new one
    new_takes_kwargs: bool  # whether the new release takes `**kwargs` (a keyword may still pass)


def _changed(before: list | None, after: list | None, keyword_only: bool = False) -> Parameters | None:
    """How the parameters `before` became `after` (as `release_probe` lists them), or None when a
    call of the old release binds the same in the new one; `keyword_only` for a callable whose
    order is no API."""
    if before is None or after is None:
        return None
    old_positional = tuple(p[0] for p in before if p[1] in _POSITIONAL)
    new_positional = tuple(p[0] for p in after if p[1] in _POSITIONAL)
    keywords_gone = tuple(
        sorted({p[0] for p in before if p[1] in _BY_NAME} - {p[0] for p in after if p[1] in _BY_NAME})
    )
    if keyword_only:
        old_positional = new_positional = ()
    if old_positional[: len(new_positional)] == new_positional[: len(old_positional)] and not keywords_gone:
        return None
    takes_kwargs = any(p[1] == "VAR_KEYWORD" for p in after)
    return Parameters(old_positional, new_positional, keywords_gone, takes_kwargs)


def parameters(old: dict, new: dict) -> dict[str, Parameters]:
    """The public callables whose positional parameters or keywords changed."""
    table = {}
    for name, entry in sorted(old["public"].items()):
        changed = _changed(
            entry.get("parameters"),
            (new["public"].get(name) or {}).get("parameters"),
            keyword_only=name.startswith(_KEYWORD_ONLY_APIS),
        )
        if changed is not None:
            table[name] = changed
    return table


def internal_parameters(old: dict, new: dict) -> dict[str, Parameters]:
    """The callables outside the public API (`tensorflow.python.tools.freeze_graph.freeze_graph`)
    that a module of both releases defines, with parameters a call written for the old one binds
    otherwise in the new one, read from the modules' sources (`signatures`; private names left
    out)."""
    table = {}
    for module, before in sorted(old["signatures"].items()):
        after = new["signatures"].get(module, {})
        for name, parameters in sorted(before.items()):
            changed = None if name.startswith("_") else _changed(parameters, after.get(name))
            if changed is not None:
                table[f"{module}.{name}"] = changed
    return table


def methods(old: dict, new: dict) -> dict[tuple[str, ...], tuple[tuple[str, Parameters], ...]]:
    """`{public classes: the methods their instances have changed alike, with the change}`, of
    the methods the public classes of both releases define or inherit: a class list written once
    for all the methods of the same classes (`CrossDeviceOps`'s `reduce`, `batch_reduce`, ...)."""
    changes: dict[tuple[str, Parameters], list[str]] = {}
    for name, entry in sorted(old["public"].items()):
        after = (new["public"].get(name) or {}).get("methods") or {}
        for method, before in sorted((entry.get("methods") or {}).items()):
            changed = _changed(before, after.get(method))
            if changed is not None:
                changes.setdefault((method, changed), []).append(name)
    table: dict[tuple[str, ...], list[tuple[str, Parameters]]] = {}
    for change, classes in sorted(changes.items(), key=lambda item: item[0][0]):
        table.setdefault(tuple(classes), []).append(change)
    return {classes: tuple(changed) for classes, changed in table.items()}


def homes_in_old(old: dict, table: dict[str, Removed]) -> set[str]:
    """The removed names of `table` whose home the old release already has (the old module
    imported it from there): an import moved to it works on both releases."""
    have = _names(old)
    return {gone for gone, moved in table.items() if moved.home and moved.home in have}


def changed_at_home(
    old: dict, new: dict, table: dict[str, Removed]
) -> tuple[dict[str, dict[str, str]], set[str]]:
    """Of the moved modules and names of `table`, what their home defines with other parameters
    than the old release did (a call written for the old one binds otherwise there: `_changed`),
    read from the modules' sources (`signatures`): `({moved module: {name: the name its home
    gives the old parameters, or ""}}, {moved name})`. A class whose body defines no `__init__`
    is not compared."""
    modules: dict[str, dict[str, str]] = {}
    names: set[str] = set()
    for gone, moved in table.items():
        if not moved.home:
            continue
        if gone in old["modules"]:
            before = old["signatures"].get(gone, {})
            after = new["signatures"].get(moved.home, {})
            for name in sorted(before.keys() & after.keys()):
                if _changed(before[name], after[name]) is not None:
                    twins = sorted(twin for twin, other in after.items() if other == before[name])
                    twin = next((twin for twin in twins if twin.startswith(name)), twins[0] if twins else "")
                    modules.setdefault(gone, {})[name] = twin
        else:
            module, _, name = gone.rpartition(".")
            home, _, home_name = moved.home.rpartition(".")
            before_parameters = old["signatures"].get(module, {}).get(name)
            after_parameters = new["signatures"].get(home, {}).get(home_name)
            if _changed(before_parameters, after_parameters) is not None:
                names.add(gone)
    return modules, names


def table_source(old: dict, new: dict, later: dict | None) -> str:
    """The text of `tf24migrate/model/release_diff.py`."""
    lines = [
        f'"""What TensorFlow {NEW} no longer has of TensorFlow {OLD}, and the modules of their public API,',
        "from the released wheels.",
        "",
        "Generated by `python -m tf24migrate.dev releases` (`tf24migrate/dev/releases.py` says how); do not",
        "edit by hand.",
        '"""',
        "",
        f"OLD, NEW, LATER = {old['version']!r}, {new['version']!r}, {(later or {}).get('version', '')!r}",
        "",
        "# qualified name -> (home in NEW or '', public spelling in NEW or '', home still in LATER,",
        "# names of a moved module that its home lacks)",
        "REMOVED: dict[str, tuple[str, str, bool, tuple[str, ...]]] = {",
    ]
    table = removed(old, new, later)
    for name, gone in table.items():
        lines.append(f"    {name!r}: ({gone.home!r}, {gone.public!r}, {gone.home_later!r}, {gone.lost!r}),")
    changed_modules, changed_names = changed_at_home(old, new, table)
    lines += [
        "}",
        "",
        "# moved module -> {name its home defines with other parameters: the name the home gives",
        "# OLD's parameters, or ''}: a call written for OLD binds otherwise there",
        "CHANGED_AT_HOME: dict[str, dict[str, str]] = {",
        *(f"    {module!r}: {names!r}," for module, names in changed_modules.items()),
        "}",
        "# the moved names whose new home defines them with other parameters",
        *_names_table("CHANGED_WHEN_MOVED", changed_names, frozen=True),
        "# the removed names whose home OLD already has: an import moved there works on both",
        *_names_table("HOMES_IN_OLD", homes_in_old(old, table), frozen=True),
        "",
        "# (positional parameters in OLD, in NEW, keywords NEW no longer takes by name, whether NEW",
        "# takes **kwargs)",
        "Signature = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]",
        "",
        "# public callable -> how its parameters changed",
        "PARAMETERS: dict[str, Signature] = {",
        *(f"    {name!r}: {_row(changed)}," for name, changed in parameters(old, new).items()),
        "}",
        "",
        "# internal callable (of a module, not the public API) -> how its parameters changed",
        "INTERNAL_PARAMETERS: dict[str, Signature] = {",
        *(f"    {name!r}: {_row(changed)}," for name, changed in internal_parameters(old, new).items()),
        "}",
        "",
        "# ((method, how its parameters changed), ...), the public classes whose instances have them",
        "METHODS: tuple[tuple[tuple[tuple[str, Signature], ...], tuple[str, ...]], ...] = (",
    ]
    for classes, alike in methods(old, new).items():
        lines += [
            "    (",
            "        (",
            *(f"            ({method!r}, {_row(change)})," for method, change in alike),
            "        ),",
            "        (",
            *(f"            {name!r}," for name in classes),
            "        ),",
            "    ),",
        ]
    lines += [
        ")",
        "",
        "# the attributes of a Keras layer's output in a Functional model that OLD has and NEW has not:",
        "# raise AttributeError on the `KerasTensor`s of NEW",
        *_names_table("SYMBOLIC_ATTRIBUTES_GONE", _gone(old, new, "symbolic")),
        "",
        "# the attributes of a sparse Keras input (`Input(..., sparse=True)`) that OLD has and NEW has",
        "# not: raise AttributeError on the `SparseKerasTensor`s of NEW",
        *_names_table("SPARSE_SYMBOLIC_ATTRIBUTES_GONE", _gone(old, new, "sparse_symbolic")),
        "",
        "# the attributes and the `get_config()` keys of OLD's `LossScaleOptimizer` that no",
        "# `LossScaleOptimizer` of NEW has (neither the experimental class nor the stable one)",
        *_names_table(
            "LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE", _gone(old, new, "loss_scale_optimizer", "attributes")
        ),
        *_names_table("LOSS_SCALE_OPTIMIZER_CONFIG_GONE", _gone(old, new, "loss_scale_optimizer", "config")),
        "",
        "# the modules of the public API of OLD or NEW (`tensorflow.keras.backend`): what a name",
        "# assigned one of them (`K = tf.keras.backend`) stands for",
        *_names_table("PUBLIC_MODULES", set(old["public_modules"]) | set(new["public_modules"])),
        "",
    ]
    return "\n".join(lines)


def _gone(old: dict, new: dict, *path: str) -> set[str]:
    """The names at `path` of OLD's probe (`"symbolic"`; `"loss_scale_optimizer", "config"`) that
    NEW's lacks."""
    for key in path:
        old, new = old[key], new[key]
    return set(old) - set(new)


def _names_table(constant: str, names: Iterable[str], *, frozen: bool = False) -> list[str]:
    """The lines of `CONSTANT: tuple[str, ...] = (...)`, or of `CONSTANT = frozenset({...})`, holding
    `names`, sorted."""
    opener, closer = (
        (f"{constant} = frozenset({{", "})") if frozen else (f"{constant}: tuple[str, ...] = (", ")")
    )
    return [opener, *(f"    {name!r}," for name in sorted(names)), closer]


def _row(changed: Parameters) -> str:
    return (
        f"({changed.old_positional!r}, {changed.new_positional!r}, "
        f"{changed.keywords_gone!r}, {changed.new_takes_kwargs!r})"
    )


def probe_later() -> dict:
    """The probe of this environment's TensorFlow, which must be LATER."""
    import importlib.metadata

    installed = set()
    for distribution in ("tensorflow", "tensorflow-cpu"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            installed.add(importlib.metadata.version(distribution))
    if LATER not in installed:
        raise ReleaseError(
            f"this environment has no TensorFlow {LATER}, which tells whether a new home lasts: "
            'install it with `python -m pip install -e ".[test-tensorflow]"`'
        )
    return probe(sys.executable)


def probe_releases() -> tuple[dict, dict, dict]:
    """The probes of the old and new runtimes, and of this environment's TensorFlow (LATER)."""
    return probe(runtime_python(OLD)), probe(runtime_python(NEW)), probe_later()


def probe_symbolic(*only: str) -> dict:
    """Which functions of the new runtime do not dispatch on Keras symbolic values, and which of
    those that do raise, where the old runtime ran the same call of a Keras input (`failing`,
    then `ran` of the old: see `symbolic_probe`); of the functions named `only` if any."""
    new = probe(runtime_python(NEW), SYMBOLIC_PROBE, *only)
    old = probe(runtime_python(OLD), SYMBOLIC_PROBE, "--before", given=new["failing"])
    return dict(new, op_layer_fails=op_layer_fails(old["ran"]), structure_fails=structure_fails(old["ran"]))


# What Keras raises on TF 2.4 when the function its op layer calls returns an Operation.
_NO_TYPE_SPEC = "Could not build a TypeSpec for <tf.Operation"


def _what(raised: list) -> str:
    """ "Operation" where a call raised (`[type, first line]`) as the function returned one, for
    which Keras builds no `TypeSpec`, else the error's type."""
    error, message = raised
    return "Operation" if message.startswith(_NO_TYPE_SPEC) else error


def _sorted_kinds(parameters: Iterable[tuple]) -> list[list]:
    return sorted(map(list, parameters), key=lambda kind: (kind[1], kind[0]))


def op_layer_fails(ran: list) -> list[list]:
    """`[[names, [[parameter, position], ...], what], ...]` of the dispatching functions whose op
    layer raises on TF 2.4 where TF 2.3 ran the call (`ran` of the old runtime's probe), given
    single `KerasTensor`s: the parameters given one in any such call, and `what` of the first
    (`_what`). The calls that gave one a structure are `structure_fails`'."""
    rows = []
    for names, calls in ran:
        single = [call for call in calls if len(call[0]) == 3]
        if single:
            parameters = {tuple(kind) for _, given, _ in single for kind in given}
            rows.append([sorted(names), _sorted_kinds(parameters), _what(single[0][2])])
    return sorted(rows)


def structure_fails(ran: list) -> list[list]:
    """`[[names, [[parameter, position], ...], [[structure, what], ...]], ...]` of the dispatching
    functions whose op layer raises on TF 2.4 where TF 2.3 ran the call (`ran` of the old
    runtime's probe) that gave a parameter a structure holding a `KerasTensor` (the attempts
    `[only, -1, None, structure]` of `symbolic_probe._attempts`): that parameter, and each
    structure so failing with `what` it raised (`_what`), in the probe's order."""
    rows = []
    for names, calls in ran:
        structured = [call for call in calls if len(call[0]) > 3]
        if structured:
            parameters = {tuple(kind) for _, given, _ in structured for kind in given}
            failed = [[attempt[3], _what(raised)] for attempt, _, raised in structured]
            rows.append([sorted(names), _sorted_kinds(parameters), failed])
    return sorted(rows)


def _last_names(symbolic: dict) -> set[str]:
    """The last names of the functions of both tables of the symbolic probe's answer (`shared`
    also holds those of the calls the old runtime failed too)."""
    tables = (*symbolic["functions"], *symbolic["op_layer_fails"], *symbolic["structure_fails"])
    return {name.rsplit(".", 1)[1] for names, *_ in tables for name in names}


def dispatch_source(symbolic: dict) -> str:
    """The text of `tf24migrate/model/symbolic_dispatch.py`, from the symbolic probe's answer."""
    lines = [
        f'"""The TensorFlow {symbolic["version"]} functions that do not dispatch on Keras symbolic values, from the',
        "released wheel: each raises on a `KerasTensor` given to one of the parameters listed.",
        "",
        "Generated by `python -m tf24migrate.dev releases` (`tf24migrate/dev/symbolic_probe.py` says how);",
        "do not edit by hand.",
        '"""',
        "",
        "# (qualified names of one function, ((parameter, position among the positional ones or -1), ...))",
        "NOT_DISPATCHED: tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], ...] = (",
    ]
    for names, parameters in symbolic["functions"]:
        lines.append(f"    ({tuple(names)!r}, {tuple((name, position) for name, position in parameters)!r}),")
    lines += [
        ")",
        "",
        "# the last names of those that other callables also have (TF's public API, Python's builtins,",
        "# `math`, NumPy): a call spelled by such a name alone may be of another function",
        *_names_table("SHARED_NAMES", set(symbolic["shared"]) & _last_names(symbolic), frozen=True),
        "",
        "# of those, the functions that do dispatch, but whose op layer wants the first argument",
        "# (`_sentinel`) that a call by keyword leaves out: they raise ValueError, not TypeError",
        *_names_table("BY_KEYWORD", symbolic["by_keyword"], frozen=True),
        "",
        "# the functions that do dispatch, but whose op layer raises on a `KerasTensor` given to one of",
        f"# the parameters listed, where TF {OLD} ran the same call of a Keras input (a graph tensor):",
        "# (qualified names, parameters, what: 'Operation' where the function returns one, for which",
        "# Keras builds no TypeSpec and raises TypeError, else the type of the error raised)",
        "OP_LAYER_FAILS: tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...], str], ...] = (",
        *(
            f"    ({tuple(names)!r}, {tuple((name, position) for name, position in parameters)!r}, {what!r}),"
            for names, parameters, what in symbolic["op_layer_fails"]
        ),
        ")",
        "",
        "# the functions that do dispatch, but whose op layer raises where one of the parameters listed",
        "# holds a structure with a `KerasTensor` in it, where TF 2.3.0 ran the same call: (qualified",
        "# names, parameters, ((structure, what), ...)), each structure as the probe wrote it (`x` a",
        "# `KerasTensor` of shape (None, 4)): 'tensors' `[x, x]`, 'pairs' `[(x, [None, 4])]`, a shape of",
        "# Python numbers, 'shape pairs' `[(x, x.shape)]`, none; `what` as above",
        "STRUCTURE_FAILS: tuple[",
        "    tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, str], ...]], ...",
        "] = (",
        *(
            f"    ({tuple(names)!r}, {tuple((name, position) for name, position in parameters)!r}, "
            f"{tuple((structure, what) for structure, what in failed)!r}),"
            for names, parameters, failed in symbolic["structure_fails"]
        ),
        ")",
        "",
    ]
    return "\n".join(lines)
