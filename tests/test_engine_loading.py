"""`engine.loading`: the code of the functions `dataclasses` generates, cached in the user's cache
folder, gives the same classes; a cache that is damaged, of another Python, unwritable or
someone else's is none."""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tf24migrate.engine.loading import _read, code_cache, dataclass_code

ROOT = Path(__file__).resolve().parent.parent

SOURCE = """
@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0
    tags: tuple = ()
"""


@pytest.fixture(autouse=True)
def _bytecode_written(monkeypatch):
    """As Python runs by default (some machines set PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _point() -> type:
    """A new class `Point` from `SOURCE` (each call makes its dataclass anew)."""
    namespace = {"dataclasses": dataclasses}
    exec(SOURCE, namespace)
    return namespace["Point"]


def _behaves_as_a_dataclass(point: type) -> None:
    assert point(1, 2) == point(1, 2) != point(1, 3)
    assert point(1) < point(2)
    assert hash(point(1, 2, ("a",))) == hash(point(1, 2, ("a",)))
    assert repr(point(1, tags=("a",))) == "Point(x=1, y=0, tags=('a',))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        point(1).x = 2
    with pytest.raises(TypeError):
        point()


def test_a_second_load_compiles_nothing_and_makes_the_same_class(tmp_path):
    path = str(tmp_path / "code.bin")
    plain = _point()
    with dataclass_code(path) as first:
        written = _point()
    assert first.compiled == len(first.used) > 0
    with dataclass_code(path) as second:
        cached = _point()
    assert second.compiled == 0
    assert second.used == first.used
    for point in (written, cached):
        _behaves_as_a_dataclass(point)
        for name in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__"):
            assert getattr(point, name).__code__ == getattr(plain, name).__code__, name


def test_the_file_is_written_only_when_a_source_was_compiled(tmp_path):
    path = tmp_path / "code.bin"
    with dataclass_code(str(path)):
        _point()
    before = path.stat()
    with dataclass_code(str(path)):
        _point()
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def _class(name: str, fields: int) -> type:
    return dataclasses.make_dataclass(name, [f"field_{n}" for n in range(fields)], frozen=True)


def test_runs_that_make_different_classes_do_not_write_the_file_in_turn(tmp_path):
    path = str(tmp_path / "code.bin")
    with dataclass_code(path):
        _class("A", 1)
    with dataclass_code(path) as second:
        _class("B", 2)
    assert second.compiled > 0
    for fields in (1, 2):
        with dataclass_code(path) as again:
            _class("C", fields)
        assert again.compiled == 0


def test_code_no_longer_used_is_dropped_when_it_outweighs_what_is(tmp_path):
    path = str(tmp_path / "code.bin")
    with dataclass_code(path):
        _class("A", 1)
        _class("B", 2)
    with dataclass_code(path):
        _class("C", 3)  # what A and B used is more than this one class uses: dropped
    with dataclass_code(path) as again:
        _class("A", 1)
    assert again.compiled > 0


def _valid(path: Path) -> bytes:
    with dataclass_code(str(path)):
        _point()
    return path.read_bytes()


def _sealed(payload: bytes) -> bytes:
    return importlib.util.MAGIC_NUMBER + zlib.crc32(payload).to_bytes(4, "little") + payload


DAMAGES = {
    "truncated": lambda data: data[: len(data) // 2],
    "one byte changed": lambda data: data[:-20] + bytes([data[-20] ^ 1]) + data[-19:],
    "another Python's": lambda data: b"\x00\x00\r\n" + data[4:],
    "empty": lambda data: b"",
    "not a mapping": lambda data: _sealed(marshal.dumps([1, 2])),
    "not code": lambda data: _sealed(marshal.dumps(dict.fromkeys(marshal.loads(data[8:]), b"\x00"))),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_damaged_file_is_not_used_and_is_written_anew(tmp_path, damage):
    path = tmp_path / "code.bin"
    path.write_bytes(DAMAGES[damage](_valid(path)))
    with dataclass_code(str(path)) as damaged:
        point = _point()
    assert damaged.compiled > 0
    _behaves_as_a_dataclass(point)
    with dataclass_code(str(path)) as again:
        _point()
    assert again.compiled == 0


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with dataclass_code(str(tmp_path / "code.bin")):
        _behaves_as_a_dataclass(_point())
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path):
    (tmp_path / "a file").write_text("")
    with dataclass_code(str(tmp_path / "a file" / "code.bin")) as loaded:
        _behaves_as_a_dataclass(_point())
    assert loaded.compiled > 0
    assert sorted(os.listdir(tmp_path)) == ["a file"]


def test_dataclasses_exec_is_its_own_again_after_the_block_even_on_error(tmp_path):
    path = tmp_path / "code.bin"
    with pytest.raises(ZeroDivisionError), dataclass_code(str(path)):
        _point()
        assert "exec" in vars(dataclasses)
        1 / 0  # noqa: B018 - the error the block ends with
    assert "exec" not in vars(dataclasses)
    assert not path.exists()  # a load that failed leaves the cache as it was


def _user_cache(tmp_path) -> dict[str, str]:
    """An environment whose user cache folder is `tmp_path`, writing bytecode as Python does by
    default (some machines set PYTHONDONTWRITEBYTECODE)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["XDG_CACHE_HOME"] = str(tmp_path)
    return environment


def test_the_code_a_run_caches_is_what_python_compiles(tmp_path):
    """Two runs of the command over a due file, with their user cache folder in `tmp_path`: the
    first writes the code of the dataclasses of the engine (LibCST's node classes among them),
    readable by the user only, and of nothing else; the second compiles none of it (the file is not
    written again); every code stored is the one Python compiles."""
    environment = _user_cache(tmp_path / "cache")
    (tmp_path / "due.py").write_text("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n")
    run = [sys.executable, "-m", "tf24migrate", "--check", "--no-cache", str(tmp_path / "due.py")]
    assert subprocess.run(run, env=environment, cwd=ROOT, capture_output=True).returncode == 1
    (path,) = (tmp_path / "cache" / "tf24migrate").iterdir()
    assert path.name == f"dataclass-code-engine.{sys.implementation.cache_tag}.bin"
    first = path.stat()
    assert first.st_mode & 0o777 == 0o600
    assert subprocess.run(run, env=environment, cwd=ROOT, capture_output=True).returncode == 1
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    engine = _read(str(path))
    assert any("__dataclass_builtins_object__.__setattr__(self,'value',value)" in source for source in engine)
    assert len(engine) > 500
    for source, data in engine.items():
        assert marshal.loads(data) == compile(source, "<string>", "exec", dont_inherit=True)


def test_the_library_loads_the_engine_with_the_cache(tmp_path):
    load = (
        "import dataclasses, tf24migrate; tf24migrate.migrate_source; assert 'exec' not in vars(dataclasses)"
    )
    subprocess.run([sys.executable, "-c", load], env=_user_cache(tmp_path), check=True, cwd=ROOT)
    (path,) = tmp_path.rglob("dataclass-code-*.bin")
    assert path.name.startswith("dataclass-code-engine.")
    assert len(_read(str(path))) > 500


@pytest.mark.skipif(os.name != "posix", reason="owners and modes of POSIX files")
@pytest.mark.parametrize("planted", ["group-writable", "another user's", "a symlink"])
def test_a_file_someone_else_could_have_written_is_not_run(tmp_path, planted):
    path = tmp_path / "code.bin"
    _valid(path)
    if planted == "group-writable":
        path.chmod(0o620)
    elif planted == "another user's":
        if os.geteuid() != 0:
            pytest.skip("only root gives a file away")
        os.chown(path, os.geteuid() + 1, -1)
    else:
        path.rename(tmp_path / "elsewhere.bin")
        path.symlink_to(tmp_path / "elsewhere.bin")
    with dataclass_code(str(path)) as loaded:
        _behaves_as_a_dataclass(_point())
    assert loaded.compiled > 0


def test_the_cache_is_in_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tag = sys.implementation.cache_tag
    assert code_cache("engine") == str(tmp_path / "tf24migrate" / f"dataclass-code-engine.{tag}.bin")


@pytest.mark.skipif(os.name != "posix", reason="a POSIX home folder")
def test_without_xdg_cache_home_the_cache_is_under_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    tag = sys.implementation.cache_tag
    assert code_cache("engine") == str(
        tmp_path / ".cache" / "tf24migrate" / f"dataclass-code-engine.{tag}.bin"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_file_does_not_block_a_run(tmp_path):
    """A FIFO with no writer, where the engine's file is: the command runs (and `--check` says
    what it found) instead of waiting for a writer forever before any output."""
    environment = _user_cache(tmp_path / "cache")
    folder = tmp_path / "cache" / "tf24migrate"
    folder.mkdir(parents=True, mode=0o700)
    os.mkfifo(folder / f"dataclass-code-engine.{sys.implementation.cache_tag}.bin", 0o600)
    (tmp_path / "due.py").write_text("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n")
    run = [sys.executable, "-m", "tf24migrate", "--check", "--no-cache", str(tmp_path / "due.py")]
    result = subprocess.run(run, env=environment, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "TF24101" in result.stdout, result.stderr


def _planted_folder(tmp_path: Path, how: str) -> Path:
    """The cache's file, valid, in a `tf24migrate` folder the user may not trust: `how`."""
    folder = tmp_path / "cache" / "tf24migrate"
    if how == "a symlink":  # to a folder of the user's own, which a file written there could not tell
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        _valid(elsewhere / "code.bin")
        folder.parent.mkdir()
        folder.symlink_to(elsewhere)
        return folder / "code.bin"
    folder.mkdir(parents=True, mode=0o700)
    path = folder / "code.bin"
    _valid(path)
    if how == "writable by the group":
        folder.chmod(0o770)
    elif how == "another user's":
        if os.geteuid() != 0:
            pytest.skip("only root gives a folder away")
        os.chown(folder, os.geteuid() + 1, -1)
    return path


@pytest.mark.skipif(os.name != "posix", reason="owners, modes and symlinks of POSIX folders")
@pytest.mark.parametrize("how", ["a symlink", "writable by the group", "another user's"])
def test_a_folder_someone_else_could_have_filled_is_neither_read_nor_written(tmp_path, how):
    path = _planted_folder(tmp_path, how)
    before = {child.name: child.read_bytes() for child in path.parent.iterdir()}
    with dataclass_code(str(path)) as loaded:
        _behaves_as_a_dataclass(_point())
    assert loaded.compiled > 0  # nothing read there
    assert {child.name: child.read_bytes() for child in path.parent.iterdir()} == before  # nor written


@pytest.mark.skipif(os.name != "posix", reason="a POSIX home folder")
def test_a_relative_xdg_cache_home_is_ignored(tmp_path):
    """The XDG specification: a relative path in XDG_CACHE_HOME is invalid and ignored; the run
    uses `~/.cache` and makes no folder where it runs."""
    environment = _user_cache(tmp_path)
    environment |= {"XDG_CACHE_HOME": "cache", "HOME": str(tmp_path / "home")}
    project = tmp_path / "project"
    project.mkdir()
    (project / "due.py").write_text("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n")
    run = [sys.executable, "-m", "tf24migrate", "--check", "--no-cache", "due.py"]
    assert subprocess.run(run, env=environment, cwd=project, capture_output=True).returncode == 1
    assert sorted(os.listdir(project)) == ["due.py"]
    assert list((tmp_path / "home" / ".cache" / "tf24migrate").glob("dataclass-code-*.bin"))


def test_the_servers_attrs_classes_take_their_code_from_the_cache(tmp_path):
    """`tf24migrate server` imports lsprotocol (550 attrs classes) with `attrs_code`: the first
    start writes the code of their methods, compiled as attrs compiles them (the same file name,
    `attr._make`'s `__future__` flags); the next one compiles (nearly) none and writes nothing."""
    import __future__

    from lsp_raw import RawServer

    environment = _user_cache(tmp_path / "cache")
    path = tmp_path / "cache" / "tf24migrate" / f"dataclass-code-server.{sys.implementation.cache_tag}.bin"
    statuses = []
    for _ in range(2):
        server = RawServer(tmp_path, env=environment)
        assert server.initialize(tmp_path) is not None
        server.notify("exit")
        assert server.close()[0] == 1
        statuses.append(path.stat())
    assert (statuses[0].st_ino, statuses[0].st_mtime_ns) == (statuses[1].st_ino, statuses[1].st_mtime_ns)
    stored = _read(str(path))
    assert len(stored) > 500
    for key, data in stored.items():
        filename, _, source = key.partition("\0")
        flags = __future__.annotations.compiler_flag
        assert marshal.loads(data) == compile(source, filename, "exec", flags=flags, dont_inherit=True)


def test_attrs_classes_made_through_the_cache_are_the_same(tmp_path):
    import attrs

    from tf24migrate.engine.loading import attrs_code

    def make() -> list[type]:  # more than the few compiled sources that are not worth a write
        return [
            attrs.make_class(f"Pair{n}", {"x": attrs.field(), "y": attrs.field(default=0)}, order=True)
            for n in range(10)
        ]

    path = str(tmp_path / "code.bin")
    with attrs_code(path) as first:
        make()
    assert first.compiled == 10
    with attrs_code(path) as again:
        pair = make()[3]
    assert again.compiled == 0
    assert pair(1, 2) == pair(1, 2) < pair(1, 3) and repr(pair(1)) == "Pair3(x=1, y=0)"
    with pytest.raises(TypeError):
        pair()
