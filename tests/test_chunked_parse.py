"""A long source is parsed by Python in chunks of top-level statements (`rules.text.python_chunks`),
and migrated in time and memory in proportion to its size: the chunks hold the same statements
as `ast.parse` of the whole, and a source that does not parse gets `ast.parse`'s own error."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

import pytest

from tf24migrate.engine.ast_bindings import bindings
from tf24migrate.engine.pruning import StatementPlan
from tf24migrate.rules import text
from tf24migrate.rules.text import python_chunks, python_chunks_with_offsets

TRICKY = {
    "if/elif/else": "x = 1\nif x:\n    y = 2\nelif y:\n    pass\nelse:\n    z = 3\nw = 4\n",
    "try/except/else/finally": "try:\n    a = 1\nexcept E:\n    b\nexcept* F:\n    c\nelse:\n    d\nfinally:\n    e\nf = 1\n",
    "for/while else": "for i in x:\n    pass\nelse:\n    j = 1\nwhile x:\n    pass\nelse:\n    k\n",
    "decorators": "@a\n@b(\n    1,\n)\ndef f():\n    pass\n@c\n\nclass C:\n    x = 1\n",
    "triple-quoted strings": 's = """\nx = 1\ndef f():\n"""\nt = \'\'\'\n\'\'\'; u = """\nv = 2\n"""\n',
    "backslash continuations": "x = 1 + \\\n2\ny = \\\nz\nif a and \\\nb:\n    pass\n",
    "brackets across lines": "x = [\n1,\n]\ny = f(\na=(\nb),\n)\nz = {\n'k':\nv}\n",
    "match": "match command:\n    case [x, y]:\n        pass\n    case _:\n        pass\nmatch = 1\ncase = 2\n",
    "form feeds": "x = 1\n\f\ny = 2\n\fz = 3\ndef f():\n\f    return 1\n",
    "CRLF": "x = 1\r\nif x:\r\n    y = '''\r\nz = 2\r\n'''\r\nelse:\r\n    pass\r\nw = 3\r\n",
    "CR only": "x = 1\rif x:\r    y = '''\rz = 2\r'''\relse:\r    pass\rw = 3\r",
    "module docstring": '"""Doc."""\n"""Not a docstring."""\nx = 1\n',
    "comments and blank lines": "# c\n\nx = 1\n# d\n\n\n    # e\ny = 2\n",
    "unicode names": "naïve = 1\nπ = 2\nx = 'é'\n",
    "error in the middle": "x = 1\ny = (\nz = 2\nw = 3\n",
    "error at the end": "x = 1\ny = 2\ndef f(:\n",
    "unterminated string": "x = 1\ny = '''\nz = 2\n",
    "bad dedent": "if x:\n        a = 1\n    b = 2\nc = 3\n",
    "else without if": "x = 1\nelse:\n    pass\n",
    "case at column 0": "match x:\n    case 1:\n        pass\ncase 2:\n    pass\n",
    "null byte": "x = 1\ny = '\0'\nz = 3\n",
    "unmatched bracket": "x = 1\n)\ny = 2\n",
}


def outcome(parse) -> object:
    """What a parse gives: the statements dumped with their positions, or the error raised."""
    try:
        return [ast.dump(statement, include_attributes=True) for statement in parse()]
    except SyntaxError as error:
        return (
            type(error).__name__,
            error.msg,
            (error.lineno, error.offset, error.end_lineno, error.end_offset),
        )
    except ValueError as error:
        return ("ValueError", str(error))


@pytest.mark.parametrize("source", TRICKY.values(), ids=TRICKY.keys())
def test_chunks_hold_the_statements_and_the_error_of_the_whole_parse(monkeypatch, source):
    monkeypatch.setattr(text, "_CHUNK", 1)  # every line that can start a statement starts a chunk
    monkeypatch.setattr(text, "_last_chunks", None)
    whole = outcome(lambda: ast.parse(source).body)
    chunked = lambda: [s for tree in python_chunks(source) for s in tree.body]  # noqa: E731
    assert outcome(chunked) == whole
    assert outcome(chunked) == whole  # again, from the chunks kept


@pytest.mark.parametrize("source", TRICKY.values(), ids=TRICKY.keys())
def test_chunks_with_offsets_place_statements_at_the_lines_of_the_whole_parse(monkeypatch, source):
    monkeypatch.setattr(text, "_CHUNK", 1)
    monkeypatch.setattr(text, "_SMALL_CHUNK", 1)
    monkeypatch.setattr(text, "_last_chunks", None)

    def places(statements, before=0):
        return [
            (type(s).__name__, before + s.lineno, s.col_offset, before + s.end_lineno) for s in statements
        ]

    def chunked():
        return [p for before, tree in python_chunks_with_offsets(source) for p in places(tree.body, before)]

    try:
        whole = places(ast.parse(source).body)
    except (SyntaxError, ValueError) as error:
        with pytest.raises(type(error)):  # the same error, at the chunk's lines
            chunked()
        return
    assert chunked() == whole
    assert chunked() == whole  # again, from the chunks kept


def test_a_source_is_cut_where_top_level_statements_start(monkeypatch):
    monkeypatch.setattr(text, "_CHUNK", 1)
    monkeypatch.setattr(text, "_last_chunks", None)
    source = TRICKY["if/elif/else"] + TRICKY["decorators"] + TRICKY["triple-quoted strings"]
    chunks = [[ast.unparse(s).partition("\n")[0] for s in tree.body] for tree in python_chunks(source)]
    assert chunks == [
        ["x = 1"],
        ["if x:"],
        ["w = 4"],
        ["@a"],  # the decorators and the definition are one statement
        ["@c"],
        # cut inside the strings, then grown to twice its size: to the end
        ["s = '\\nx = 1\\ndef f():\\n'", "t = '\\n'", "u = '\\nv = 2\\n'"],
    ]


def test_a_short_source_is_one_module():
    source = "x = 1\ny = 2\n"
    assert [ast.dump(tree) for tree in python_chunks(source)] == [ast.dump(ast.parse(source))]


BINDING = """\
import a.b, c as d
from e import f as g, h
x = y = 1
self.x, z[0] = 2, 3
(p, *q), r.s = t
n: int = 4
m += 1
if x:
    i = 1
elif y:
    while j:
        k = 2
    else:
        kk = 3
else:
    ll = 4
for u, v in w:
    uu = 5
with open(o) as (fa, fb), ctx():
    ww = 6
try:
    tt = 7
except E as err:
    ee = 8
finally:
    ff = 9
def fn(arg):
    local = 1
class Cls:
    attr = 1
match command:
    case [mx, my]:
        mm = 1
del x
"""


WALRUS = BINDING + "if (wal := 1):\n    pass\nprint(inner := 2)\n"


@pytest.mark.parametrize(
    ("source", "walrus"),
    [(BINDING, False), (BINDING, True), (WALRUS, True)],
    ids=["plain", "walrus off", "walrus"],
)
def test_the_plan_keeps_what_each_statement_binds(source, walrus):
    tree = ast.parse(source)
    expected = []

    def visit(statements):
        for statement in statements:
            expected.append(tuple(bindings(statement, walrus=walrus)))
            for attribute in ("body", "handlers", "orelse", "finalbody", "cases"):
                for child in getattr(statement, attribute, ()):
                    visit([child] if isinstance(child, ast.stmt) else child.body)

    visit(tree.body)
    assert [entry.binds for entry in StatementPlan(tree, set(), walrus=walrus).entries] == expected


MEASURE = textwrap.dedent(
    """
    import resource, sys
    import tf24migrate.transforms
    from tf24migrate import migrate_source
    block = "".join(
        f"value_{n} = compute({n}, 'some text to make the line long enough')\\n"
        f"def helper_{n}(a, b=2):\\n    return a * b + {n}\\n" for n in range(333)
    )
    source = "import tensorflow as tf\\n" + (block + "strategy.experimental_run_v2(step)\\n") * 60
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = migrate_source(source)
    assert result.code == source.replace("experimental_run_v2(", "run("), "not migrated"
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
    print(len(source), grown)
    """
)


@pytest.mark.slow
def test_the_memory_of_a_long_file_grows_with_its_size_only():
    result = subprocess.run([sys.executable, "-c", MEASURE], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    size, grown = map(int, result.stdout.split())
    assert size > 2_000_000
    assert grown < 25 * size, f"{grown / size:.0f} times the source"  # Python's ast of it: about 100x


@pytest.mark.parametrize(
    "source", [*TRICKY.values(), "", "x", "x\n", "\n\n", "a\x0cb\n", "a\u2028b\n", "a\rb\r\n"]
)
def test_line_starts_are_where_pythons_tokenizer_starts_lines(source):
    """`\\n`, `\\r\\n` and `\\r` end a line; a form feed or a Unicode line separator does not."""
    expected = [0]
    for at, character in enumerate(source):
        if character == "\n" or (character == "\r" and source[at + 1 : at + 2] != "\n"):
            expected.append(at + 1)
    assert list(text.line_starts(source)) == expected


def test_forget_last_texts_lets_go_of_every_kept_answer():
    """What `of_the_last_text` functions keep (the symbolic evidence's `ast` reading among them):
    the language server's worker lets go of it after a big job."""
    from tf24migrate.transforms.keras._symbolic import symbolic_parameters

    source = "import tensorflow as tf\n\ndef f(x):\n    return x\n\nf(tf.keras.Input((3,)))\n"
    assert symbolic_parameters(source) is symbolic_parameters(source)  # kept
    kept = symbolic_parameters(source)
    text.forget_last_texts()
    assert symbolic_parameters(source) is not kept
    assert symbolic_parameters(source) == kept == {("f", "x"): kept[("f", "x")]}
