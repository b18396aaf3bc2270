"""Rare codecs, for which decoding and encoding again is not the identity (issue 31): a write keeps
every byte outside the edited text, or refuses the file with a message."""

from __future__ import annotations

import subprocess

import pytest
from command_line import run_in_process
from hostile_inputs import ODD_CODECS


def _with_odd_bytes(encoding: str) -> bytes:
    """A due source in `encoding` whose comment, string and call's line hold its odd bytes."""
    odd = ODD_CODECS[encoding]
    return (
        b"# -*- coding: " + encoding.encode() + b" -*-\n# " + odd + b"\nimport tensorflow as tf\n"
        b"x = '" + odd + b"'\nstrategy.experimental_run_v2(fn)  # " + odd + b"\n"
    )


@pytest.mark.parametrize("encoding", sorted(ODD_CODECS))
def test_bytes_outside_the_edit_are_kept(tmp_path, encoding):
    source = _with_odd_bytes(encoding)
    assert source.decode(encoding).encode(encoding) != source
    (tmp_path / "train.py").write_bytes(source)
    result = run_in_process("--write", "--no-cache", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_bytes() == source.replace(b"experimental_run_v2(", b"run(")


def test_lines_that_cannot_be_kept_apart_refuse_the_file(tmp_path):
    """`unicode_escape` turns `\\n` in a string into a line break: the file's lines are not its
    text's, so no splice can keep them; the file is refused and named."""
    source = (
        b'# -*- coding: unicode_escape -*-\nimport tensorflow as tf\nx = """\\u0041\\n"""\n'
        b"strategy.experimental_run_v2(fn)\n"
    )
    (tmp_path / "train.py").write_bytes(source)
    result = run_in_process("--write", "--no-cache", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "train.py" in result.stderr and "does not give back the same bytes" in result.stderr
    assert (tmp_path / "train.py").read_bytes() == source


def _stdin(source: bytes, tmp_path) -> subprocess.CompletedProcess:
    return run_in_process("--no-cache", "-", stdin=source, cwd=tmp_path, text=False)


@pytest.mark.parametrize("encoding", sorted(ODD_CODECS))
def test_stdin_keeps_the_bytes_outside_the_edit_as_a_write_does(tmp_path, encoding):
    source = _with_odd_bytes(encoding)
    result = _stdin(source, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == source.replace(b"experimental_run_v2(", b"run(")


def test_stdin_gives_back_a_source_whose_lines_cannot_be_kept_apart_and_says_so(tmp_path):
    source = (
        b'# -*- coding: unicode_escape -*-\nimport tensorflow as tf\nx = """\\u0041\\n"""\n'
        b"strategy.experimental_run_v2(fn)\n"
    )
    result = _stdin(source, tmp_path)
    assert result.returncode == 2
    assert result.stdout == source
    assert b"does not give back the same bytes" in result.stderr
    assert b"fixed" not in result.stderr.replace(b"0 fixed", b"")
