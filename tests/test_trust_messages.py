"""Honest messages (issue 31): a valid file the engine cannot handle is said to be skipped and why,
not reported as a bug; notebooks are spoken of as notebooks; names with bidirectional or
zero-width characters are shown escaped."""

from __future__ import annotations

import json

import pytest
from command_line import run_in_process

from tf24migrate import SourceSyntaxError, migrate_source

CALL = "strategy.experimental_run_v2(fn)\n"


def _notebook(source: str, metadata: str = "{}") -> str:
    cell = {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
    text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    return text.replace('"metadata": {}', f'"metadata": {metadata}', 1)


@pytest.mark.parametrize(
    "expression",
    [
        " ".join(f"'p{i}'" for i in range(700)),  # implicit concatenation
        " ".join(f"'漢{i}😀é'" for i in range(700)),
    ],
)
def test_a_long_chain_of_literals_is_skipped_with_what_it_has(tmp_path, expression):
    source = f"import tensorflow as tf\nstrategy.experimental_run_v2(fn, args=({expression},))\n"
    (tmp_path / "long.py").write_text(source, encoding="utf-8")
    result = run_in_process("--write", "--no-cache", "long.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "internal error" not in result.stderr and "Please report" not in result.stderr
    # A finding of the file as a whole, at 1:1 as ruff places those, and no line made up in the text.
    assert "long.py:1:1: TF24005 error skipped: an expression chains too many parts" in result.stdout
    assert "at line" not in result.stdout
    assert (tmp_path / "long.py").read_text(encoding="utf-8") == source
    with pytest.raises(SourceSyntaxError, match="chains too many parts"):
        migrate_source(source)


def test_a_notebook_with_a_huge_number_in_its_metadata_is_migrated(tmp_path):
    text = _notebook("import tensorflow as tf\n" + CALL, '{"n": ' + "9" * 5000 + "}")
    (tmp_path / "big.ipynb").write_text(text)
    result = run_in_process("--write", "--no-cache", "big.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "big.ipynb").read_text() == text.replace("experimental_run_v2(", "run(")


@pytest.mark.parametrize(
    "data, says",
    [
        (_notebook("import tensorflow as tf\n" + CALL).encode("utf-16"), "a UTF-16 notebook"),
        (
            _notebook("import tensorflow as tf\n" + CALL)
            .encode()
            .replace(b'"metadata": {}', b'"metadata": {"a": "\xff"}'),
            "not UTF-8",
        ),
    ],
)
def test_notebook_messages_speak_of_notebooks(tmp_path, data, says):
    (tmp_path / "n.ipynb").write_bytes(data)
    result = run_in_process("--check", "--no-cache", "n.ipynb", cwd=tmp_path)
    assert result.returncode == 2
    assert says in result.stderr and "notebook" in result.stderr
    assert "coding" not in result.stderr and "Python cannot run" not in result.stderr


@pytest.mark.parametrize("name", ["evil\u202eyp.py", "zero\u200bwidth.py", "iso\u2066late.py"])
def test_names_with_invisible_characters_are_shown_escaped(tmp_path, name):
    (tmp_path / name).write_text("import tensorflow as tf\n" + CALL)
    result = run_in_process("--check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1
    escaped = name.encode("unicode_escape").decode()
    assert f"would change: ./{escaped}" in result.stdout
    for character in "\u202e\u200b\u2066":
        assert character not in result.stdout + result.stderr


def test_a_lone_surrogate_is_named_and_placed_not_called_deep_nesting(tmp_path):
    """A comment holding a lone surrogate (a file in `unicode_escape`, which decodes `\\ud800` to
    one, or a text given to the library) is said to be that, where it is."""
    source = b"# -*- coding: unicode_escape -*-\nimport tensorflow as tf\n# \\ud800\n" + CALL.encode()
    (tmp_path / "lone.py").write_bytes(source)
    result = run_in_process("--check", "--no-cache", "lone.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "lone.py:3:3: TF24005 error cannot parse: a lone surrogate (U+D800)" in result.stdout
    assert "nesting" not in result.stdout
    with pytest.raises(SourceSyntaxError, match=r"lone surrogate \(U\+DC00\)") as raised:
        migrate_source("import tensorflow as tf\nx = 1  # \udc00\n" + CALL)
    assert raised.value.lineno == 2
