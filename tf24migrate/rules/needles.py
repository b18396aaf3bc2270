"""What a rule's `requires` and `triggers` are made of: a `Needle`, a literal string or a `Pattern`.

A pattern is a regular expression that names the literals each of its matches holds, and is
searched for only on the lines holding one of them: `str.find` over a TF source costs about a
hundredth of a regular expression that starts with `\\b` or a lookbehind, which Python's `re`
tries at every position of the text. Its own module so that the generated trigger table can
build patterns without importing the prefilter that reads the table.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
from collections.abc import Iterable, Iterator, Mapping

from tf24migrate.rules.text import line_starts, parsed_or_none


class Pattern:
    """A regular expression (`regex`, text) that matches within one line only, each match holding
    one of `literals`: it is searched for only on the lines where one of them occurs."""

    __slots__ = ("_hash", "_regex", "literals", "pattern")

    def __init__(self, regex: str, *literals: str) -> None:
        if not literals:
            raise ValueError(f"Pattern({regex!r}) names no literal its matches hold")
        self.pattern = regex
        self._regex: re.Pattern[str] | None = None
        self.literals = literals
        self._hash = hash((regex, literals))  # a needle is a key of every text's probe

    @property
    def regex(self) -> re.Pattern[str]:
        """The regular expression, compiled when first searched: a run that looks for none (most
        literals are absent from most files) compiles none of the trigger table's."""
        if self._regex is None:
            self._regex = re.compile(self.pattern)
        return self._regex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pattern) and (self.pattern, self.literals) == (other.pattern, other.literals)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:  # as Python code (the trigger table is generated from it)
        regex = self.pattern
        raw = '"' not in regex and not regex.endswith("\\")
        code = 'r"' + regex + '"' if raw else quoted(regex)
        return f"Pattern({', '.join([code, *map(quoted, self.literals)])})"

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches in `text`, line by line, the lines holding a literal only (in no order)."""
        searched: set[int] = set()  # the lines searched, by where they start
        regex = None
        for literal in self.literals:
            at = text.find(literal)
            while at >= 0:
                start = text.rfind("\n", 0, at) + 1
                if self.passes_over(text, at, start):
                    at = text.find(literal, at + len(literal))
                    continue
                end = text.find("\n", at)
                end = len(text) if end < 0 else end
                if start not in searched:
                    searched.add(start)
                    regex = regex or self.regex_in(text)
                    yield from regex.finditer(text, start, end)
                at = text.find(literal, end)

    def passes_over(self, text: str, at: int, line_start: int) -> bool:
        """Whether the literal at `at` (on the line starting at `line_start`) is known from the text
        around it to be in no match, so that its line is not searched for it."""
        return False

    def regex_in(self, text: str) -> re.Pattern[str]:
        """The regular expression searched in `text` (where one of the literals is)."""
        return self.regex

    def search(self, text: str) -> bool:
        return next(self.finditer(text), None) is not None


Needle = str | Pattern


def literals_of(needle: Needle) -> tuple[str, ...]:
    """The literals every occurrence of `needle` holds one of: itself, or a pattern's."""
    return (needle,) if isinstance(needle, str) else needle.literals


class AnyOf(Pattern):
    """A needle found where any of `alternatives` is (`any_of`)."""

    __slots__ = ("alternatives",)

    def __init__(self, *alternatives: Needle) -> None:
        regexes = [n.pattern if isinstance(n, Pattern) else re.escape(n) for n in alternatives]
        literals = [literal for n in alternatives for literal in literals_of(n)]
        super().__init__("|".join(f"(?:{regex})" for regex in regexes), *dict.fromkeys(literals))
        self.alternatives = alternatives

    def __repr__(self) -> str:  # as Python code (the trigger table is generated from it)
        return f"any_of({', '.join(quoted(n) if isinstance(n, str) else repr(n) for n in self.alternatives)})"

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches of each alternative (a needle that narrows its regex's matches, as
        `ModuleAttribute` does, keeps narrowing them)."""
        for needle in self.alternatives:
            yield from (Pattern(re.escape(needle), needle) if isinstance(needle, str) else needle).finditer(
                text
            )


class _MadeOf(Pattern):
    """A needle that narrows its regular expression's matches by reading the text around them,
    made of a few strings: equal, hashed and written as code (in the trigger table) by those."""

    __slots__ = ("_arguments",)
    _arguments: tuple[str, ...]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _MadeOf) and type(other) is type(self) and other._arguments == self._arguments
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:  # as Python code (the trigger table is generated from it)
        return f"{type(self).__name__}({', '.join(map(quoted, self._arguments))})"


class ModuleAttribute(_MadeOf):
    """`name.attribute` (one of `attributes`) where `name` can be bound to `module` by the text's
    imports (`names_bound_to`), or is a `v2` (`tf.compat.v2` is `tensorflow` to the rules); not
    in an import (`from tensorflow.python import x`). What a `\\w+\\.python` pattern cannot tell:
    `tfds.core` holds the literal of `tf.core`, and TF-based libraries are full of it."""

    __slots__ = ("_tail", "attributes", "module")
    _RECEIVER = r"(?<![.\w])(?<!from )(?<!import )"

    def __init__(self, module: str, *attributes: str) -> None:
        self._tail = rf"[ \t]*\.[ \t]*(?:{'|'.join(map(re.escape, attributes))})\b"
        # any receiver: `regex_in` narrows it to the names the text binds to `module`
        super().__init__(rf"{self._RECEIVER}\w+{self._tail}", *(f".{name}" for name in attributes))
        self.module, self.attributes = module, attributes
        self._arguments = (module, *attributes)

    def regex_in(self, text: str) -> re.Pattern[str]:
        names = "|".join(map(re.escape, sorted(names_bound_to(text, self.module))))
        return re.compile(rf"(?:{self._RECEIVER}(?:{names})|\bv2){self._tail}")


class KeywordOfModuleCall(_MadeOf):
    """`keyword=` as an argument of a call that can be of a function of `module` outside its
    `excluded` submodules: not of a callee the text shows to be something else. A callee is
    something else when, reading back from the keyword to the bracket that opens its call (over
    simple strings, not over comments), it is a dotted name whose first name no import of
    `module` in the text can bind (`layer(`, `self.dense(`, a `def`), or one through an excluded
    submodule (`tf.keras.layers.Dense(`). Anything else is kept: a callee that is itself a call or
    a subscript, an alias bound otherwise, a bracket not found. TF24217's `name=` is one of a TF
    op: Keras code is full of layers' `name=`, and the ops' are rare."""

    __slots__ = ("excluded", "keyword", "module")

    def __init__(self, keyword: str, module: str, *excluded: str) -> None:
        super().__init__(rf"(?<![\w.]){re.escape(keyword)}[ \t]*=(?!=)", keyword)
        self.keyword, self.module, self.excluded = keyword, module, excluded
        self._arguments = (keyword, module, *excluded)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        imported: set[str] | None = None
        for match in super().finditer(text):
            callee = _callee_before(text, match.start())
            if callee is _NOT_A_CALL:
                continue
            if callee is not None:
                parts = callee.split(".")
                if imported is None:
                    imported = names_imported_with(text, self.module, self.excluded)
                if parts[0] not in imported or any(part in self.excluded for part in parts):
                    continue
            yield match


class RemovedReference(_MadeOf):
    """A reference to a module or name of TF 2.3.0 that TF 2.4.0 lacks (`model.release_diff`):
    a dotted path in one of the internal `packages` (an import, mostly) that is, or is inside,
    such a module or name; and a use, through the name an import binds to a module that lost names,
    of one of those names (`tf_utils.smart_cond` after `from tensorflow.python.keras.utils import
    tf_utils`). What a rule that followed every such import to every use would pay for: TF's own
    files import `ops` and `context`, whose lost names no user reads."""

    __slots__ = ("packages",)
    _IMPORTED = re.compile(r"\bimport\b(.*)", re.DOTALL)
    _PATH = r"(?:{})(?:[ \t]*\.[ \t]*\w+)*"

    def __init__(self, *packages: str) -> None:
        # one literal, their package (`tensorflow.`): a find of each costs as much as one of it
        literal = packages[0].rpartition(".")[0] + "."
        assert all(package.startswith(literal) for package in packages), packages
        super().__init__(rf"(?<![.\w]){self._PATH.format('|'.join(map(re.escape, packages)))}", literal)
        self.packages = packages
        self._arguments = packages

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        from tf24migrate.model.release_diff import REMOVED

        lost = _lost_names()
        bound: dict[str, set[str]] = {}  # a name an import binds to a module that lost names -> those
        for match in super().finditer(text):
            path = re.sub(r"\s|\\", "", match.group())
            if _reaches(path, REMOVED):
                yield match  # `import gone.module`, `from gone.module import x`, `gone.module.x`
                continue
            start, end = _logical_line(text, match.start())
            keyword = text[start : match.start()].split()[-1:]
            if keyword == ["from"]:
                imported = self._IMPORTED.search(text, match.end(), end)
                for name, alias in _imported_names(imported.group(1) if imported else ""):
                    if _reaches(f"{path}.{name}", REMOVED):
                        yield match
                    elif f"{path}.{name}" in lost:
                        bound.setdefault(alias or name, set()).update(lost[f"{path}.{name}"])
            elif path in lost and (named := _AS_AFTER.match(text, match.end(), end)):
                bound.setdefault(named.group(1), set()).update(lost[path])  # `import a.b as b`
        if bound:
            yield from _uses(
                tuple((receiver, tuple(sorted(bound[receiver]))) for receiver in sorted(bound))
            ).finditer(text)


class NotDispatchedCall(_MadeOf):
    """A call (`rfft(`, `gen_array_ops.shape (`) or an import renaming (`cudnn_rnn as`) of a TF
    function that does not dispatch on Keras symbolic values, or whose op layer raises
    (`model.symbolic_dispatch`: `assert_rank_in(`), by its last name, or, where other functions have that name (`shape`, `sum`), by its module's last name
    with it (`gen_array_ops.shape`, `tf.constant`). Hundreds of names: one regular expression, their
    trie, searched once over a text (a search of each name would cost a scan each)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(r"(?!)", "(", "as")  # each match holds one; the expression is `regex`'s
        self._arguments = ()

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:
            self._regex = re.compile(rf"\b{_trie(_not_dispatched_spellings())}(?:[ \t]*\(|[ \t]+as\b)")
        return self._regex

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text)


def _not_dispatched_spellings() -> list[str]:
    """How a call of a function of `symbolic_dispatch.NOT_DISPATCHED`, `OP_LAYER_FAILS` or
    `STRUCTURE_FAILS` is spelled (see `NotDispatchedCall`)."""
    from tf24migrate.model.symbolic_dispatch import (
        NOT_DISPATCHED,
        OP_LAYER_FAILS,
        SHARED_NAMES,
        STRUCTURE_FAILS,
    )

    spelled = set()
    functions = [names for names, _ in NOT_DISPATCHED] + [
        names for names, _, _ in (*OP_LAYER_FAILS, *STRUCTURE_FAILS)
    ]
    for names in functions:
        for name in names:
            module, last = name.rsplit(".", 1)
            if last not in SHARED_NAMES:
                spelled.add(last)
            elif module == "tensorflow":
                spelled.update((f"tf.{last}", name))
            else:
                spelled.add(f"{module.rsplit('.', 1)[1]}.{last}")
    return sorted(spelled)


def _trie(words: Iterable[str]) -> str:
    """A regular expression matching any of `words`, as a trie (`r(?:fft|oll)`): Python's `re`
    tries the alternatives of a plain `a|b|...` one by one at each position."""
    root: dict = {}
    for word in words:
        node = root
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}

    def expression(node: dict) -> str:
        branches = [
            re.escape(character) + expression(child) for character, child in sorted(node.items()) if character
        ]
        if not branches:
            return ""
        joined = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{joined})?" if "" in node else joined

    return expression(root)


class MethodCallLines(_MadeOf):
    """The lines a rule resolving the receiver of a call of one of `methods` must see
    (`rules.receivers`), in a text holding a call of one with at least `positional` positional
    arguments (fewer cannot shift: the text is passed over): those calls, each `method` as a word
    elsewhere (its definitions in the file's classes); where one is called on `self` or
    `super()`, the header of every class; where one is called on a name, the lines that may bind
    that name (`x = ...`). The names of a few methods bring in few files; what a receiver is bound
    to is read only in those."""

    __slots__ = ("methods", "positional")
    _LINE = r"(?:\A|(?<=[\n\r]))[ \t]*"  # `LINE_START`, then the indentation
    _CLASS = re.compile(rf"{_LINE}class[ \t]+\w+")
    _RECEIVER = re.compile(r"(?:(?<![\w.])(\w+)|\))[ \t]*\.[ \t]*\Z")
    _OPENS = re.compile(r"[ \t]*\(")

    def __init__(self, positional: str | int, *methods: str) -> None:
        super().__init__(rf"\b{_one_of(methods)}\b", *methods)
        self.methods, self.positional = methods, int(positional)
        self._arguments = (str(positional), *methods)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        receivers: set[str] = set()
        others: list[re.Match[str]] = []
        for match in super().finditer(text):
            opens = self._OPENS.match(text, match.end())
            called = self._RECEIVER.search(text, max(0, match.start() - 80), match.start())
            if opens is None or called is None:
                others.append(match)  # `def method(`, `method = ...`
            elif _positional_arguments(text, opens.end()) >= self.positional:
                receivers.add(called.group(1) or ")")
                yield match
        if not receivers:
            return
        yield from others
        if receivers & {"self", ")"}:
            yield from self._CLASS.finditer(text)
        names = sorted(receivers - {"self", ")"})
        if names:
            bound = rf"{self._LINE}{_one_of(tuple(names))}[ \t]*(?::[^\n\r=]*)?=(?!=)"
            yield from re.finditer(bound, text)


class FirstParameterUses(_MadeOf):
    """The `def` of each method named one of `methods` (`def __call__(self, step):`), and the lines
    of it that name its first parameter after the instance (`step`, in the signature and the
    body), as Python's parse of the text gives them: what a rule judging how a method uses that
    parameter must see, without the rest of the method (its uses of `self`, which `Rule.follows`
    would bring)."""

    __slots__ = ("methods",)

    def __init__(self, *methods: str) -> None:
        super().__init__(rf"\b(?:async[ \t]+)?def[ \t]+{_one_of(methods)}\b", *methods)
        self.methods = methods
        self._arguments = methods

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        for header in super().finditer(text):
            yield header
            found = _first_parameter(text, header.start())
            if found is not None:
                name, end = found
                yield from re.compile(rf"\b{name}\b").finditer(text, header.end(), end)


def _first_parameter(text: str, at: int) -> tuple[str, int] | None:
    """The name of the second parameter of the function whose `def` is at `at` (the first after
    `self`), and where the function ends; None when the text does not parse (the engine then reads
    every line anyway) or the function takes fewer."""
    tree = parsed_or_none(text)
    if tree is None:
        return None
    starts = line_starts(text)
    line = bisect.bisect_right(starts, at)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
            parameters = [*node.args.posonlyargs, *node.args.args]
            if len(parameters) < 2:
                return None
            last = node.end_lineno or line
            return parameters[1].arg, starts[last] if last < len(starts) else len(text)
    return None


_STRING = re.compile(r"""('{3}|"{3}|'|")(?:\\.|(?!\1).)*?\1""", re.DOTALL)


def _positional_arguments(text: str, at: int, limit: int = 4000) -> int:
    """How many positional arguments the call whose arguments start at `at` passes before its
    first keyword, `*` or `**` argument (read over strings, comments and brackets), as far as
    `limit` characters: an estimate for a needle, never more than the call has."""
    depth, count, started = 0, 0, False
    end = min(len(text), at + limit)
    position = at
    while position < end:
        char = text[position]
        if char in "'\"":
            string = _STRING.match(text, position)
            position = string.end() if string else end
            started = True
            continue
        if char == "#":
            newline = text.find("\n", position)
            position = end if newline < 0 else newline
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return count + started
            depth -= 1
        elif depth == 0 and char == ",":
            count, started = count + 1, False
        elif (
            depth == 0
            and char == "="
            and text[position + 1 : position + 2] != "="
            and (text[position - 1 : position] not in ("=", "!", "<", ">"))
        ):
            return count  # the argument being read is a keyword
        elif depth == 0 and char == "*" and not started:
            return count
        elif not char.isspace():
            started = True
        position += 1
    return count


def _reaches(path: str, removed: Mapping[str, object]) -> bool:
    """Whether the dotted `path` is, or is inside, a module or name of `removed`."""
    parts = path.split(".")
    return any(".".join(parts[:end]) in removed for end in range(2, len(parts) + 1))


@functools.lru_cache(maxsize=64)
def _uses(bound: tuple[tuple[str, tuple[str, ...]], ...]) -> Pattern:
    """`receiver.name` for each receiver and the names its module lost, searched on the lines
    holding `receiver.`."""
    uses = "|".join(
        rf"{re.escape(receiver)}\.(?:{'|'.join(map(re.escape, names))})" for receiver, names in bound
    )
    return Pattern(rf"(?<![.\w])(?:{uses})\b", *(f"{receiver}." for receiver, _ in bound))


@functools.cache
def _lost_names() -> dict[str, frozenset[str]]:
    """`{module: the names TF 2.4.0 no longer has in it}` of `model.release_diff`."""
    from tf24migrate.model.release_diff import REMOVED

    lost: dict[str, set[str]] = {}
    for name in REMOVED:
        module, _, last = name.rpartition(".")
        lost.setdefault(module, set()).add(last)
    return {module: frozenset(names) for module, names in lost.items()}


_AS_AFTER = re.compile(r"[ \t]+as[ \t]+(\w+)")
_IMPORT_NAME = re.compile(r"([\w.]+)(?:[ \t]+as[ \t]+(\w+))?")


def _imported_names(names: str) -> Iterator[tuple[str, str | None]]:
    """`(name, alias)` of each name a `from ... import` or `import` statement's tail lists."""
    for item in names.replace("(", " ").replace(")", " ").replace("\\", " ").split(","):
        match = _IMPORT_NAME.search(item.strip())
        if match:
            yield match.group(1), match.group(2)


_CLOSING = {")": "(", "]": "[", "}": "{"}
_CALLEE = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*)[ \t]*\Z")
_ON_A_RESULT = re.compile(r"[)\]][ \t]*(?:\.[ \t]*[A-Za-z_]\w*[ \t]*)*\Z")
_NOT_A_CALL = ""  # what `_callee_before` says of a keyword no call holds by name


def _callee_before(text: str, at: int) -> str | None:
    """The dotted name called by the call whose brackets hold the keyword at `at` (spaces removed);
    `_NOT_A_CALL` when the keyword is not an argument (an assignment `name = x`, a `lambda`'s) or
    the callee is not a dotted name (`super().__init__(`, `f()(`: no import names it); None when
    reading back cannot tell: a comment or a string it cannot skip on the way, no bracket."""
    index = _previous_code(text, at)
    if index is None:
        return None
    if index < 0 or text[index] not in "(,":
        return _NOT_A_CALL
    depth = 0
    line_start = text.rfind("\n", 0, index) + 1
    while index >= 0:
        character = text[index]
        if character in "\"'":
            opening = text.rfind(character, line_start, index)
            if opening < 0 or text[opening - 1 : opening] in ("\\", character):
                return None  # a string over lines, an escaped or a triple quote: not read back
            index = opening - 1
            continue
        if character == "\n":
            line_start = text.rfind("\n", 0, index) + 1
            if "#" in text[line_start:index]:
                return None  # a comment may hold anything
        elif character in _CLOSING:
            depth += 1
        elif character in "([{":
            if depth == 0:
                if character != "(":
                    return None
                found = _CALLEE.search(text, max(0, index - 200), index)
                if found is not None:
                    return re.sub(r"[ \t]", "", found.group(1))
                on_a_result = _ON_A_RESULT.search(text, max(0, index - 200), index)  # `f()(`, `super().f(`
                return _NOT_A_CALL if on_a_result is not None else None
            depth -= 1
        index -= 1
    return None


def _previous_code(text: str, at: int) -> int | None:
    """Where the last character of code before `at` is (past spaces, line ends and backslashes;
    -1 at the start of `text`), or None when a line on the way holds a comment."""
    index = at - 1
    while index >= 0 and text[index] in " \t\f\r\n\\":
        if text[index] == "\n":
            line_start = text.rfind("\n", 0, index) + 1
            if "#" in text[line_start:index]:
                return None
        index -= 1
    return index


def names_imported_with(text: str, module: str, excluded: tuple[str, ...] = ()) -> set[str]:
    """Every name an import statement that names `module` (as a whole word) may bind, but for
    those of a `from` import of an `excluded` submodule (`from tensorflow.keras import layers`):
    each word after its `import` (a superset: `from tensorflow import keras as K` gives `keras`
    and `K`), and `module` itself."""
    names = {module}
    for statement in _imports_naming(text, module):
        keyword = re.search(r"\bimport\b", statement)
        source = re.match(r"[ \t]*from[ \t]+([\w. \t\\\r\n]+?)[ \t]+import\b", statement)
        of_excluded = source is not None and any(
            part.strip() in excluded for part in source.group(1).split(".")
        )
        if keyword is not None and not of_excluded:
            names.update(re.findall(r"[A-Za-z_]\w*", statement[keyword.end() :]))
    return names


_AS_NAME = re.compile(r"\bas[ \t]+(\w+)")


def names_bound_to(text: str, module: str) -> set[str]:
    """The names an import in `text` can bind to `module` (a superset): `module` itself, and each
    name bound with `as` by an import statement that names `module` (as a whole word), over lines
    continued by brackets or backslashes. Only the lines holding `module` are read."""
    names = {module}
    for statement in _imports_naming(text, module):
        names.update(_AS_NAME.findall(statement))
    return names


def _imports_naming(text: str, module: str) -> Iterator[str]:
    """The text of each statement holding `module` as a whole word and `import` (over lines
    continued by brackets or backslashes); only the lines holding `module` are read."""
    at = text.find(module)
    while at >= 0:
        end = at + len(module)
        if _word_at(text, at, end):
            start, end = _logical_line(text, at)
            statement = text[start:end]
            if "import" in statement:
                yield statement
        at = text.find(module, end)


def _word_at(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "_" or after.isalnum() or after == "_")


def _logical_line(text: str, at: int) -> tuple[int, int]:
    """Where the statement holding `at` starts and ends, when it is an import: backslashes before
    and after, and an import's parenthesised names (which hold no other bracket)."""
    start = text.rfind("\n", 0, at) + 1
    while start and _continued(text, start - 1):
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    if "import" not in text[start:end]:
        return start, end
    while end < len(text) and _continued(text, end):
        following = text.find("\n", end + 1)
        end = len(text) if following < 0 else following
    if text.count("(", start, end) > text.count(")", start, end):
        closing = text.find(")", end)
        end = len(text) if closing < 0 else closing
    return start, end


def _continued(text: str, newline: int) -> bool:
    """Whether the line ending at `newline` (a `\\n`) ends with a backslash."""
    before = newline - 1 if newline and text[newline - 1] == "\r" else newline
    return before > 0 and text[before - 1] == "\\"


def any_of(*needles: Needle) -> AnyOf:
    """One needle found where any of `needles` is: a rule's `requires` holds each of its entries,
    and this is how one entry can be satisfied in more than one way."""
    return AnyOf(*needles)


# The start of a line, whatever its ending (`\n`, `\r\n`, `\r`): a pattern may look behind where its
# search starts.
LINE_START = r"(?:\A|(?<=[\n\r]))"


def _one_of(names: tuple[str, ...]) -> str:
    """A regular expression matching any of `names` (a group when there are several)."""
    alternatives = "|".join(map(re.escape, names))
    return f"(?:{alternatives})" if len(names) > 1 else alternatives


def word(name: str, *others: str) -> Pattern:
    """Where `name` (or one of `others`) is a whole word: not in `OnDeviceEmbedding`,
    `EmbeddingTest` nor `set_mixed_precision_policy`."""
    return Pattern(rf"\b{_one_of((name, *others))}\b", name, *others)


def attribute(name: str, *others: str) -> Pattern:
    """Where `name` (or one of `others`) can be an attribute: after a `.`, or first on a line
    (`x.\\` then `name`, or within brackets), not in `def name(` nor in `self._name`."""
    return Pattern(rf"(?:\.|{LINE_START})[ \t]*{_one_of((name, *others))}\b", name, *others)


def after_dot(name: str, *others: str) -> Pattern:
    """Where `name` (or one of `others`) follows a `.` on its line (`.dense_shape`): `attribute`'s
    needle without a line's start, for names short or common enough (`op`) that a line starting with
    one would keep many statements for nothing."""
    return Pattern(rf"\.{_one_of((name, *others))}\b", *(f".{n}" for n in (name, *others)))


def imported_or_attribute(name: str, *, whole: bool = True) -> Pattern:
    """Where `name` can name something a module holds: where `attribute` finds it, or after an
    `import` on its line (`from m import a, name`); not in prose (`a name`), nor in `x_name`. Not
    `whole`: as the start of a name too (`complex` of `complex64`)."""
    ending = r"\b" if whole else ""
    return Pattern(rf"(?:\.|{LINE_START}|\bimport\b[^\n\r]*?[ \t,(])[ \t]*{re.escape(name)}{ending}", name)


def keyword(name: str) -> Pattern:
    """Where `name` can be a keyword argument (`name=`, or `name` ending a line or before a
    comment, the `=` on the next), not in `x.name` nor in `name == y`."""
    return Pattern(rf"(?<![\w.]){re.escape(name)}[ \t]*(?:=(?!=)|#|\\?\r?(?m:$))", name)


# TensorFlow's own packages, not its public API: a file whose only TensorFlow imports are of these
# (`from tensorflow.python.ops import math_ops`) is TensorFlow's implementation, and no name it
# binds is one a rule matches by its public name (`tensorflow.distribute...`).
TENSORFLOW_INTERNALS = ("python", "core", "compiler", "tools", "security", "tsl", "dtensor")
_INTERNAL = rf"[ \t]*\.[ \t]*(?:{'|'.join(TENSORFLOW_INTERNALS)})\b"  # after `tensorflow`
_NOT_INTERNAL = rf"(?!{_INTERNAL})"
_INTERNAL_AFTER = re.compile(_INTERNAL)


class PublicImports(_MadeOf):
    """Where a text can import TensorFlow's public API: `import tensorflow` (`as tf`, `.compat.v1`,
    in a list of modules, any `import tensorflow.x`), `from tensorflow(.keras) import ...`, a line
    that starts with `tensorflow` (a statement continued by a backslash); in code, a doctest or a
    notebook's JSON alike. A superset of the imports `imports_public_tensorflow` counts, as a
    prefilter must be.

    Most rules require it, so it is looked for in every file that holds `tensorflow`, where most
    occurrences cannot be in a match: `tensorflow_probability` (a word goes on), `.tensorflow`,
    `from tensorflow.python.ops import x` (an internal package, and no `import` before it on its
    line). Those are passed over without the regular expression, which every match of it would
    need: each match holds `tensorflow` as a word, not after a dot, and followed by an internal
    package only after an `import` on its line."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(
            r"\bimport\b[^#\n]*(?<![\w.])tensorflow\b"  # `import tensorflow.python.ops` binds `tensorflow`
            rf"|\bfrom[ \t]+tensorflow\b{_NOT_INTERNAL}"
            rf"|{LINE_START}[ \t]*tensorflow\b{_NOT_INTERNAL}",
            "tensorflow",
        )
        self._arguments = ()

    def passes_over(self, text: str, at: int, line_start: int) -> bool:
        after = at + len("tensorflow")
        return (
            not _word_at(text, at, after)
            or text[at - 1 : at] == "."
            or (_INTERNAL_AFTER.match(text, after) is not None and "import" not in text[line_start:at])
        )


IMPORTS_PUBLIC_TENSORFLOW = PublicImports()


def quoted(text: str) -> str:  # as ruff formats it: double quotes unless the text holds one
    code = repr(text)
    return f'"{code[1:-1]}"' if '"' not in text and code.startswith("'") else code
