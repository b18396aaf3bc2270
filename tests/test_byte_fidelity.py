"""No byte lost: what LibCST's round trip drops (a final lone CR, blank lines before a last
whitespace-only line, a leading U+FEFF, a form feed in a statement's indentation) survives a migration, through the library,
`--write` and stdin alike."""

from __future__ import annotations

import pytest
from command_line import run_in_process

from tf24migrate import migrate_source

SOURCES = {
    "cr-only": b"import tensorflow as tf\rs.experimental_run_v2(f)\r",
    "cr-only, blank lines at the end": b"import tensorflow as tf\rs.experimental_run_v2(f)\r\r\r",
    "blank lines before a whitespace-only last line": b"import tensorflow as tf\ns.experimental_run_v2(f)\n\n\n   ",
    "crlf, blank lines before a whitespace-only last line": b"import tensorflow as tf\r\ns.experimental_run_v2(f)\r\n\r\n  ",
    "form feed and tabs at the end": b"import tensorflow as tf\ns.experimental_run_v2(f)\n\f\n\t\n",
    "no final newline": b"import tensorflow as tf\ns.experimental_run_v2(f)",
    # LibCST drops a form feed in the indentation of a line that starts a statement
    "form feed before the fixed statement": b"import tensorflow as tf\n\fx = 1\n\fs.experimental_run_v2(f)\n",
    "form feed before a fixed statement in a block": b"if x:\n    y = 1\n\f    s.experimental_run_v2(f)\n",
    "form feed before an unchanged statement of a fixed block": (
        b"def g():\n    s.experimental_run_v2(f)\n\f    return 1\n \f    z = 2\n"
    ),
}
BOM = "\ufeffimport tensorflow as tf\ns.experimental_run_v2(f)\n"


def migrated(source: bytes) -> bytes:
    return source.replace(b"experimental_run_v2", b"run")


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_the_library_keeps_every_byte_outside_the_fix(source):
    text = source.decode()
    assert migrate_source(text).code.encode() == migrated(source)


def test_the_library_keeps_a_leading_byte_order_mark():
    assert migrate_source(BOM).code == BOM.replace("experimental_run_v2", "run")


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_write_keeps_every_byte_outside_the_fix(tmp_path, source):
    target = tmp_path / "train.py"
    target.write_bytes(source)
    result = run_in_process("--write", "train.py", cwd=tmp_path, text=False)
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == migrated(source)


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_stdin_keeps_every_byte_outside_the_fix(source):
    result = run_in_process("-", stdin=source, text=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == migrated(source)
