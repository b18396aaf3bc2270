"""The library's boundary (issue 31): an argument of the wrong type is a `TypeError` naming the
argument and the type expected, raised at once, never a recursion, a file descriptor or a flag
read the wrong way."""

from __future__ import annotations

import pathlib

import pytest

from tf24migrate import migrate_paths, migrate_source

SOURCE = "import tensorflow as tf\nstrategy.experimental_run_v2(fn)\n"


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"select": b"TF24101"}, "`select` takes rule codes"),
        ({"select": [1, 2]}, "`select` takes rule codes"),
        ({"ignore": 7}, "`ignore` takes rule codes"),
        ({"unsafe_fixes": "no"}, "`unsafe_fixes` takes True or False"),
        ({"target_version": 2.3}, "`target_version` takes a str or None"),
        ({"path": b"x.py"}, "`path` takes a str or None"),
    ],
)
def test_migrate_source_refuses_wrong_types(kwargs, says):
    with pytest.raises(TypeError, match=says.replace("`", "\\`")):
        migrate_source(SOURCE, **kwargs)


@pytest.mark.parametrize(
    "paths, kwargs, says",
    [
        ("a.py", {}, "a list of paths, not one path"),
        (pathlib.Path("a.py"), {}, "a list of paths, not one path"),
        ([1], {}, "paths as str or os.PathLike"),
        ([b"a.py"], {}, "paths as str or os.PathLike"),
        (b"a.py", {}, "a list of paths"),
        (["a.py"], {"select": b"TF24101"}, "`select` takes rule codes"),
        (["a.py"], {"unsafe_fixes": "no"}, "`unsafe_fixes` takes True or False"),
        (["a.py"], {"write": 1}, "`write` takes True or False"),
        (["a.py"], {"jobs": "2"}, "`jobs` takes a number"),
        (["a.py"], {"path_filter": ["*.py"]}, "`path_filter` takes a PathFilter"),
    ],
)
def test_migrate_paths_refuses_wrong_types_at_once(tmp_path, monkeypatch, paths, kwargs, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(SOURCE)
    with pytest.raises(TypeError, match=says.replace("`", "\\`")):
        migrate_paths(paths, **kwargs)  # not even iterated
    assert (tmp_path / "a.py").read_text() == SOURCE


def test_unsafe_fixes_false_applies_no_unsafe_fix_and_pathlike_paths_work(tmp_path):
    (tmp_path / "a.py").write_text(SOURCE)
    (result,) = migrate_paths([tmp_path / "a.py"], unsafe_fixes=False)
    assert result.path == str(tmp_path / "a.py") and result.changed
