"""Name resolution: which TensorFlow object a name or dotted expression refers to.

A light, single-pass alternative to LibCST's scope metadata (which costs many times the parse
itself). Scopes are tracked while the transformer walks the tree, so a reference resolves to the
bindings seen before it, as Python evaluates module code top to bottom. Imports bind qualified
names, and so does a name assigned a module of TensorFlow's public API (`K = tf.keras.backend`,
`public_module`); every other binding (assignment, parameter, loop target, `def`, `class`, ...)
shadows.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import libcst as cst

from tf24migrate.model.release_diff import PUBLIC_MODULES
from tf24migrate.rules.text import IDENTIFIER, of_the_last_text, parsed_or_none, python_chunks

TENSORFLOW = "tensorflow"
_V2 = "tensorflow.compat.v2"
_PUBLIC_MODULES = frozenset(PUBLIC_MODULES)


def public_module(qualified_name: str | None) -> str | None:
    """`qualified_name` when it names a module of TensorFlow's public API (`tensorflow.keras.backend`,
    `release_diff.PUBLIC_MODULES`) or is `tensorflow` itself (`tf2 = tf.compat.v2`), else None: a
    name assigned such a module (`K = tf.keras.backend`) is an alias of it, read as an import
    alias is. Other assignments shadow: a name assigned a class or a function may be rebound,
    wrapped or patched, and a rule that rewrites a call through it could not rewrite what it
    names."""
    return qualified_name if qualified_name in _PUBLIC_MODULES or qualified_name == TENSORFLOW else None


def normalize(qualified_name: str) -> str:
    """Map `tensorflow.compat.v2.X` to `tensorflow.X`; compat.v1 names are kept as they are."""
    if qualified_name == _V2 or qualified_name.startswith(_V2 + "."):
        return TENSORFLOW + qualified_name[len(_V2) :]
    return qualified_name


def is_tensorflow(qualified_name: str | None) -> bool:
    return qualified_name is not None and (
        qualified_name == TENSORFLOW or qualified_name.startswith(TENSORFLOW + ".")
    )


def dotted_parts(node: cst.CSTNode) -> list[str] | None:
    """`a.b.c` as `["a", "b", "c"]`; None for anything that is not a chain of names."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    parts.reverse()
    return parts


def head_name(node: cst.CSTNode) -> cst.Name | None:
    """The leftmost `Name` of a dotted chain."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def dotted_name_of_module(node: cst.BaseExpression | None) -> str | None:
    parts = dotted_parts(node) if node is not None else None
    return ".".join(parts) if parts else None


@dataclass(eq=False, slots=True)  # one per name bound, skipped statements' included: kept small
class Binding:
    """A name bound in a scope. `qualified_name` is set for imports only; `module` for a name
    assigned a module of TensorFlow's public API (`K = tf.keras.backend`), which it then stands
    for as an import alias would (`stands_for`)."""

    name: str
    qualified_name: str | None
    node: cst.CSTNode | None = None
    in_handler: bool = False
    module: str | None = None
    renamed_to: str | None = None  # set when a rule renames the imported name
    moved_to: str | None = None  # set when a rule rewrites the import to a new qualified name
    uses: int = 0  # references to an imported name seen in the code
    uses_dropped: int = 0  # of those, how many a rule's applied fix no longer contains

    @property
    def spelled_name(self) -> str:
        """The qualified name the import has in the output (for spelling new names through it);
        a name that is not imported is spelled as itself."""
        return self.moved_to or self.qualified_name or self.name

    @property
    def is_import(self) -> bool:
        return self.qualified_name is not None

    @property
    def stands_for(self) -> str | None:
        """The qualified name of what the name is: an import's, or the module it was assigned."""
        return self.qualified_name or self.module


@dataclass(eq=False)
class Scope:
    kind: str  # "module", "function", "class", "comprehension"
    parent: Scope | None = None
    bindings: dict[str, Binding] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)  # every name bound so far (`ever_bound`)
    # the names whose binding is an import, each with its place in `bindings`: a module binds
    # thousands of names and imports a few, and `visible_imports` is asked at each new spelling
    imports: dict[str, int] = field(default_factory=dict)

    def bind(self, binding: Binding) -> None:
        self.seen.add(binding.name)
        current = self.bindings.get(binding.name)
        # `try: import tensorflow as tf / except ImportError: tf = None` keeps `tf` a TF import (and
        # `K = tf.keras.backend` in the `try` keeps `K` the module).
        if binding.in_handler and binding.stands_for is None and current is not None and current.stands_for:
            return
        if binding.is_import:
            place = self.imports.get(binding.name)
            if place is None:
                place = list(self.bindings).index(binding.name) if current is not None else len(self.bindings)
            self.imports[binding.name] = place
        else:
            self.imports.pop(binding.name, None)
        self.bindings[binding.name] = binding

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        first = True
        while scope is not None:
            # Names bound in a class body are not visible in the functions nested in it.
            if first or scope.kind != "class":
                binding = scope.bindings.get(name)
                if binding is not None:
                    return binding
            first = False
            scope = scope.parent
        return None

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def visible_imports(self) -> list[Binding]:
        """Import bindings visible from here, innermost first, shadowed ones left out."""
        result: list[Binding] = []
        names: set[str] = set()
        scope: Scope | None = self
        first = True
        while scope is not None:
            if scope.parent is None:  # the module: its imports alone, in the order bound
                for name in sorted(scope.imports, key=scope.imports.__getitem__):
                    if name not in names:
                        result.append(scope.bindings[name])
            elif first or scope.kind != "class":
                for name, binding in scope.bindings.items():
                    if name not in names:
                        names.add(name)
                        if binding.is_import:
                            result.append(binding)
            first = False
            scope = scope.parent
        return result

    def ever_bound(self, name: str) -> bool:
        """Whether `name` was bound anywhere seen so far in this scope or an enclosing one."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.seen:
                return True
            scope = scope.parent
        return False


def import_bindings(node: cst.Import | cst.ImportFrom) -> list[tuple[str, str, cst.ImportAlias]]:
    """(local name, qualified name, alias) for each name an import statement binds."""
    result: list[tuple[str, str, cst.ImportAlias]] = []
    if isinstance(node, cst.Import):
        for alias in node.names:
            full = dotted_name_of_module(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                result.append((alias.asname.name.value, full, alias))
            else:
                top = full.split(".")[0]
                result.append((top, top, alias))
        return result
    if node.relative or isinstance(node.names, cst.ImportStar):
        return result
    module = dotted_name_of_module(node.module)
    if module is None:
        return result
    for alias in node.names:
        imported = dotted_name_of_module(alias.name)
        if imported is None:
            continue
        local = imported
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            local = alias.asname.name.value
        result.append((local, f"{module}.{imported}", alias))
    return result


def target_names(node: cst.BaseExpression) -> list[cst.Name]:
    """The names an assignment target binds (`a`, `a, (b, *c)`, ...); attributes bind nothing."""
    if isinstance(node, cst.Name):
        return [node]
    if isinstance(node, (cst.Tuple, cst.List)):
        names: list[cst.Name] = []
        for element in node.elements:
            names.extend(target_names(element.value))
        return names
    if isinstance(node, cst.StarredElement):
        return target_names(node.value)
    return []


def is_import_line(statement: cst.CSTNode) -> bool:
    """Whether a statement line holds only imports."""
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
    )


def tf_spelling(qualified_name: str) -> str:
    """`tensorflow.distribute.X` as `tf.distribute.X`, as messages name it."""
    return (
        "tf" + qualified_name[len("tensorflow") :]
        if qualified_name.startswith("tensorflow")
        else qualified_name
    )


def last_name(node: ast.AST) -> str | None:
    """The name an `ast` expression ends with: `x` of `x`, `attr` of `a.b.attr`; else None."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def ast_import_aliases(tree: ast.Module) -> dict[str, str]:
    """What each name a module's imports bind is (`tf`: `tensorflow`, `Input`:
    `tensorflow.keras.layers.Input`), and each name the module assigns a module of TensorFlow's
    public API once and binds nowhere else (`K = tf.keras.backend`: `tensorflow.keras.backend`,
    `public_module`), read from its `ast` (as `engine.ast_bindings` reads imports for the plan;
    the rules come before the engine)."""
    aliases = {}
    assigned: list[tuple[int, int, str, ast.expr]] = []  # (line, column, name, value) of `name = a.b.c`
    bound: dict[str, int] = {}  # how many times each name is bound other than by an import
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.partition(".")[0]
                aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, (ast.arg, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.arg if isinstance(node, ast.arg) else node.name
            bound[name] = bound.get(name, 0) + 1
        if (found := dotted_assignment(node)) is not None:
            assigned.append((node.lineno, node.col_offset, found[0], node.value))  # type: ignore[attr-defined]
    for _, _, name, value in sorted(assigned, key=lambda entry: entry[:2]):
        if bound.get(name) == 1 and name not in aliases:
            module = public_module(ast_qualified_name(value, aliases))
            if module is not None:
                aliases[name] = module
    return aliases


def ast_dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` of an `ast` chain of names, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def dotted_assignment(statement: ast.AST) -> tuple[str, str] | None:
    """(name, dotted name) of a statement assigning one name a dotted name (`K = tf.keras.backend`:
    `("K", "tf.keras.backend")`), what may make the name an alias of a module (`public_module`);
    else None."""
    if (
        type(statement) is not ast.Assign
        or len(statement.targets) != 1
        or type(statement.value) is not ast.Attribute
    ):
        return None
    target, dotted = statement.targets[0], ast_dotted_name(statement.value)
    return (target.id, dotted) if isinstance(target, ast.Name) and dotted is not None else None


def ast_qualified_name(node: ast.expr, aliases: dict[str, str]) -> str:
    """The normalised qualified name of a dotted `ast` expression rooted in an import of
    `aliases` (`tf.keras.Input`: `tensorflow.keras.Input`), or ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return ""
    return normalize(".".join([aliases[node.id], *reversed(parts)]))


def ast_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    """The classes a module's `ast` defines, at any depth, by name (the first where two share one)."""
    classes: dict[str, ast.ClassDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            classes.setdefault(node.name, node)
    return classes


def _names_bound_by(node: ast.AST) -> tuple[str, ...]:
    """The names `node` binds where it stands: an assignment target or `del`, a definition, a
    parameter, an import (`*` for a star import), a caught exception."""
    if isinstance(node, ast.Name):
        return () if isinstance(node.ctx, ast.Load) else (node.id,)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, ast.arg):
        return (node.arg,)
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".", 1)[0],)
    if isinstance(node, ast.ExceptHandler) and node.name:
        return (node.name,)
    return ()


@of_the_last_text
def _bound_and_named(source: str) -> tuple[dict[str, int], frozenset[str], frozenset[str]] | None:
    """How many times each name is bound in `source` (`_names_bound_by`, or declared `global` or
    `nonlocal`), every name it binds or reads, and every word of its string literals (`quoted`);
    None when it does not parse."""
    tree = parsed_or_none(source)
    if tree is None:
        return None
    bound: dict[str, int] = {}
    named: set[str] = set()
    quoted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            named.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            quoted.update(IDENTIFIER.findall(node.value))
        declared = node.names if isinstance(node, (ast.Global, ast.Nonlocal)) else ()
        for name in (*_names_bound_by(node), *declared):
            bound[name] = bound.get(name, 0) + 1
            named.add(name)
    return bound, frozenset(named), frozenset(quoted)


def quoted(source: str, name: str) -> bool:
    """Whether `name` is a word of a string literal of `source` (or `source` does not parse): a
    docstring's doctest examples run with the module's names, and a string may name one
    (`getattr(module, "name")`, an annotation `"name"`), out of sight of a rename or a removal."""
    found = _bound_and_named(source)
    return found is None or name in found[2]


def renames_cleanly(source: str, old: str, new: str) -> bool:
    """Whether an imported name `old` can become `new` throughout `source`: `old` is bound once
    (its import), `new` is no name of the file at all, nothing is imported with `*`, no
    `__all__` exports names by string, no string literal names `old` (a doctest example using
    it), and no line above the import reads it (a function above a late import). Otherwise a rename would reach a binding of the user's
    (`CommunicationOptions` of their own, a `mixed_precision = False` switch, a `try:` import of
    `old` from elsewhere, a helper module's `set_global_policy`), or miss a use of the name."""
    found = _bound_and_named(source) if "__all__" not in source else None
    if found is None:
        return False
    bound, named, in_strings = found
    return (
        bound.get(old, 0) == 1
        and "*" not in bound
        and new not in named
        and old not in in_strings
        and not _read_above_binding(source, old)
    )


def _read_above_binding(source: str, name: str) -> bool:
    """Whether `source` reads `name` on a line above the one binding it (a function defined above
    a late import, run after it): the pass renames only the uses it meets after the binding."""
    tree = parsed_or_none(source)
    if tree is None:
        return True
    bound_at = min(
        (
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.alias) and name in _names_bound_by(node)
        ),
        default=0,
    )
    return any(
        isinstance(node, ast.Name) and node.id == name and node.lineno < bound_at for node in ast.walk(tree)
    )


@of_the_last_text
def _attribute_parameters(source: str) -> dict[str, list[frozenset[str] | None]] | None:
    """The names `source` defines as attributes of its own objects (functions and methods, `def
    name`; names assigned in a class body; attributes assigned, `obj.name = ...`), each with what
    each of its definitions takes by name: a `def`'s parameters (`**` for a `**kwargs`), None for
    an assignment (a value out of sight); None when the source does not parse. A long source is
    read in chunks (`python_chunks`), as every whole-text walk."""
    found: dict[str, list[frozenset[str] | None]] = {}
    for node in _nodes(source):
        if node is None:
            return None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            names = {a.arg for a in (*arguments.args, *arguments.kwonlyargs)}
            if arguments.kwarg is not None:
                names.add("**")
            found.setdefault(node.name, []).append(frozenset(names))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.setdefault(node.attr, []).append(None)
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                targets = statement.targets if isinstance(statement, ast.Assign) else []
                if isinstance(statement, ast.AnnAssign):
                    targets = [statement.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(None)
    return found


def attribute_takes(source: str, name: str, keywords: tuple[str, ...]) -> bool:
    """Whether every definition `source` gives an attribute `name` of its own objects
    (`defines_attribute`: an override, a method patched onto a class) takes each of `keywords`
    by name: a call of TensorFlow's method that may reach one can pass them so. True where it
    defines none."""
    if not defines_attribute(source, name):
        return True
    found = _attribute_parameters(source)
    if found is None:
        return False
    return all(
        taken is not None and ("**" in taken or taken.issuperset(keywords)) for taken in found.get(name, ())
    )


def _nodes(source: str) -> Iterator[ast.AST | None]:
    """Every node of `source`'s `ast`, a chunk's at a time (`python_chunks`); None last where it
    does not parse."""
    try:
        for tree in python_chunks(source):
            yield from ast.walk(tree)
    except (SyntaxError, ValueError, RecursionError):
        yield None


def defines_attribute(source: str, name: str) -> bool:
    """Whether `source` may give an object of its own an attribute `name` (`_attribute_parameters`):
    a method of a wrapper class, or a name patched onto an object (`s.experimental_run_v2 =
    s.run`), which a call `x.name(...)` may reach instead of TensorFlow's."""
    if not _may_bind(source, name):
        return False  # nothing can define it (a call `x.name(...)` alone): no `ast` needed
    defined = _attribute_parameters(source)
    return defined is None or name in defined


def _found(source: str, pattern: str) -> bool:
    """Whether `pattern` is found in `source`, searched once per text: a rule asks at each call it
    matches, and a whole-text search at each of 2,000 calls took seconds."""
    answers = _searched(source)
    if pattern not in answers:
        answers[pattern] = re.search(pattern, source) is not None
    return answers[pattern]


@of_the_last_text
def _searched(source: str) -> dict[str, bool]:
    """`_found`'s answers for `source`, by pattern: filled as it is asked."""
    return {}


@of_the_last_text
def _keywords_defined(source: str) -> dict[str, frozenset[str]] | None:
    """For each function (or method) name `source` defines, the keywords its definitions take by
    name (parameters, and strings equal to a name in their bodies: `kwargs.pop("name")`); None
    when it does not parse."""
    taken: dict[str, set[str]] = {}
    for node in _nodes(source):
        if node is None:
            return None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = taken.setdefault(node.name, set())
            arguments = node.args
            names.update(a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs))
            names.update(
                inner.value
                for inner in ast.walk(node)
                if isinstance(inner, ast.Constant)
                and isinstance(inner.value, str)
                and inner.value.isidentifier()
            )
    return {name: frozenset(keywords) for name, keywords in taken.items()}


def defines_keyword(source: str, functions: frozenset[str], keyword: str) -> bool:
    """Whether `source` defines a function or method named one of `functions` that takes
    `keyword` by name (a wrapper's `def compile(self, ..., experimental_steps_per_execution=1)`),
    which a call passing it may reach instead of TensorFlow's."""
    if not _found(source, rf"\bdef[ \t]+(?:{'|'.join(map(re.escape, sorted(functions)))})\b"):
        return False  # no such function is defined: no `ast` needed
    defined = _keywords_defined(source)
    return defined is None or any(keyword in defined.get(name, ()) for name in functions)


_IMPORT_WORD = re.compile(r"import\b")  # a literal first: Python's `re` finds it fast
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, *((ast.Match,) if hasattr(ast, "Match") else ()))
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@of_the_last_text
def _imported_conditionally(source: str) -> frozenset[str] | None:
    """The names an import of `source` binds inside a branch of its scope (`if TYPE_CHECKING:`,
    `if __name__ == "__main__":`, a loop), which a use elsewhere in that scope may run without;
    None when it does not parse."""
    found: set[str] = set()
    if not _may_import_in_a_branch(source):  # most files: nothing to parse
        return frozenset()
    try:
        for tree in python_chunks(source):  # top-level statements, a chunk's at a time
            stack: list[tuple[ast.AST, bool]] = [(tree, False)]
            while stack:
                node, branched = stack.pop()
                if isinstance(node, (ast.Import, ast.ImportFrom)) and branched:
                    found.update(_names_bound_by(alias)[0] for alias in node.names if alias.name != "*")
                inner = False if isinstance(node, _DEFINITIONS) else branched or isinstance(node, _BRANCHES)
                stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    except (SyntaxError, ValueError, RecursionError):
        return None
    return frozenset(found)


def _may_import_in_a_branch(source: str) -> bool:
    """Whether an import of `source` may be inside a statement: on a line that starts indented,
    or after a colon (`try: import x`). One that starts a line at column 0 is the module's own."""
    for match in _IMPORT_WORD.finditer(source):
        head = source[source.rfind("\n", 0, match.start()) + 1 : match.start()]
        if head[:1] in (" ", "\t") or ":" in head:
            return True
    return False


def imported_conditionally(source: str, name: str) -> bool:
    """Whether an import of `source` binds `name` in a branch of its scope (`_imported_conditionally`):
    spelling a new name through it may reach a name that is not bound where the new name runs."""
    found = _imported_conditionally(source)
    return found is None or name in found


@of_the_last_text
def _module_rebinds(source: str) -> frozenset[str] | None:
    """The names the module level of `source` binds otherwise than by an import (an assignment, a
    definition, a `for`, ...) outside its `except` clauses (`X = None` where the import failed),
    and those a function declares `global`; None when it does not parse."""
    found: set[str] = set()
    globals_declared = _found(source, r"\bglobal\b")
    try:
        for tree in python_chunks(source):  # top-level statements, a chunk's at a time
            stack: list[ast.AST] = list(tree.body)
            while stack:
                node = stack.pop()
                if isinstance(node, (ast.Import, ast.ImportFrom, ast.ExceptHandler)):
                    continue
                found.update(_names_bound_by(node))
                if isinstance(node, _SCOPES):  # their names are their own, but for `global`
                    if not globals_declared:
                        continue
                    found.update(
                        name
                        for inner in ast.walk(node)
                        if isinstance(inner, ast.Global)
                        for name in inner.names
                    )
                else:
                    stack.extend(ast.iter_child_nodes(node))
    except (SyntaxError, ValueError, RecursionError):
        return None
    return frozenset(found)


def rebound_at_module_level(source: str, name: str) -> bool:
    """Whether the module level of `source` binds `name` otherwise than by an import
    (`_module_rebinds`): a function reading the name when it runs may meet that binding, not
    the import the pass met above it (`LSTM = wrapped(LSTM)` after the function)."""
    if not _may_bind(source, name):
        return False  # nothing binds it but imports: no `ast` needed
    found = _module_rebinds(source)
    return found is None or name in found


@of_the_last_text
def _binding_searches(source: str) -> dict[str, bool]:
    """`_may_bind`'s answers for `source`, by name: a rule asks at each read of the name."""
    return {}


# What may bind a name, or define an attribute of that name (`obj.name = ...`): `def name`,
# `class name`, `global`, `nonlocal` or `del` before it on its line, or `=` (augmented too), `:`
# (an annotation), `,`, `)`, `]` or `in` after it (`name = ...`, `for name in`, `with ... as
# name:`); not the `as` of an import (`import tensorflow as tf`), nor an annotation (`def f(x:
# tf.Tensor)`), which a file holds at most of its lines. Each search starts with a word, which
# `re` finds fast (a leading `\b` or look-behind makes it try every position: 20 to 40 times
# slower over the Model Garden), so a word boundary before the name is checked apart.
_BOUND_BEFORE = tuple(rf"{keyword}[ \t]+{{}}\b" for keyword in ("def", "class")) + tuple(
    rf"{keyword}[ \t][^\n]*\b{{}}\b" for keyword in ("global", "nonlocal", "del")
)
_BOUND_AFTER = r"{}[ \t]*(?:[-+*/%&|^@<>]*=(?!=)|[:,)\]]|in\b)"


def _may_bind(source: str, name: str) -> bool:
    """Whether `source` may bind `name`, or define an attribute `name`, otherwise than by an
    import (a superset, by text); searched once per text and name."""
    searched = _binding_searches(source)
    if name not in searched:
        escaped = re.escape(name)
        searched[name] = any(
            match.start() == 0
            or not (source[match.start() - 1].isalnum() or source[match.start() - 1] == "_")
            for pattern in (*_BOUND_BEFORE, _BOUND_AFTER)
            for match in re.finditer(pattern.format(escaped), source)
        )
    return searched[name]


# what has names of its own (a comprehension's variables are its own too)
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def bound_once_in_scope(source: str, name: str, line: int) -> bool:
    """Whether the scope holding `line` of `source` (the module, or the innermost function or
    class) binds `name` once: no other assignment, parameter, import or `del` of it there, no
    `global` (or `nonlocal`) declaration of it in a function nested in it, and nothing imported
    with `*`. A name bound in two branches (`if amp: mp = ...` / `else: mp = None`) is not."""
    tree = parsed_or_none(source)
    if tree is None:
        return False
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.lineno <= line <= (node.end_lineno or node.lineno)
            and node.lineno >= getattr(scope, "lineno", 0)
        ):
            scope = node
    declared = ast.Global if scope is tree else ast.Nonlocal
    count = 0
    stack = list(ast.iter_child_nodes(scope))  # a function's parameters among them
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False  # it binds a name of another scope, read out of sight
        bound = _names_bound_by(node)
        if "*" in bound:
            return False  # a star import may bind the name
        count += bound.count(name)  # a nested definition's own name too
        if isinstance(node, _SCOPES):
            # its names are its own, but a function nested here may declare the name and rebind it
            count += sum(1 for inner in ast.walk(node) if isinstance(inner, declared) and name in inner.names)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return count == 1
