"""Each start-up trick of `tf24migrate.model.tricks` is on by default, and `TF24MIGRATE_OFF`
switches it off: the process then does what Python does without it (the output compared on every
supported Python: tests/test_tricks_on_every_python.py)."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tf24migrate.engine.loading import _read, _write, dataclass_code
from tf24migrate.model.tricks import TRICKS, switched_off

ROOT = Path(__file__).resolve().parent.parent
DUE = "import tensorflow as tf\nstrategy.experimental_run_v2(step)\n"


def _environment(tmp_path: Path, off: str | None) -> dict[str, str]:
    """The user's cache folder in `tmp_path`, bytecode written as Python does by default, and
    `TF24MIGRATE_OFF` as given."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONDONTWRITEBYTECODE", "TF24MIGRATE_OFF")
    }
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    if off is not None:
        environment["TF24MIGRATE_OFF"] = off
    return environment


def _python(code: str, tmp_path: Path, off: str | None, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *arguments],
        env=_environment(tmp_path, off),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "value, off",
    [
        ("", ()),
        ("exit", ("exit",)),
        ("gc, tables", ("gc", "tables")),
        ("all", TRICKS),
        ("code-cache-no", ()),
    ],
)
def test_the_variable_names_the_tricks_switched_off(monkeypatch, value, off):
    monkeypatch.setenv("TF24MIGRATE_OFF", value)
    assert tuple(trick for trick in TRICKS if switched_off(trick)) == off


COMMAND = (
    "import sys; sys.argv[0] = 'tf24migrate'; from tf24migrate.cli.command import entry_point; entry_point()"
)


def test_switched_off_the_code_cache_is_neither_read_nor_written(tmp_path):
    """A cache whose every code ends the process with status 99: read by a run with the trick,
    not by one without it, which migrates as Python does and leaves the file as it was."""
    (tmp_path / "due.py").write_text(DUE)
    written = _python(COMMAND, tmp_path, None, "--check", "--no-cache", "due.py")
    assert written.returncode == 1 and "TF24101" in written.stdout, written.stderr
    (path,) = (tmp_path / "cache" / "tf24migrate").iterdir()
    ending = marshal.dumps(compile("raise SystemExit(99)", "<string>", "exec", dont_inherit=True))
    _write(str(path), dict.fromkeys(_read(str(path)), ending))
    planted = path.read_bytes()
    assert _python(COMMAND, tmp_path, None, "--check", "--no-cache", "due.py").returncode == 99
    off = _python(COMMAND, tmp_path, "code-cache", "--check", "--no-cache", "due.py")
    assert (off.returncode, off.stdout) == (written.returncode, written.stdout), off.stderr
    assert path.read_bytes() == planted


def test_the_exec_dataclasses_sees_has_execs_own_signature(tmp_path):
    """Within `dataclass_code`, any call `exec` takes is taken, and does what `exec` does: a
    code object, bytes, globals and locals by position (or, on Python 3.13, by keyword), a closure
    (Python 3.11); a call `exec` refuses is refused alike, with the same error."""
    maker = compile(
        "def f():\n    x = 8\n    def g():\n        global out\n        out = x\n    return g", "<s>", "exec"
    )
    body = next(c for c in maker.co_consts if hasattr(c, "co_code"))
    inner = next(c for c in body.co_consts if hasattr(c, "co_code"))  # g's code: `x` is a free variable

    def calls(run) -> list[object]:
        seen: list[object] = []
        for source in ("y = 2", b"y = 3", compile("y = 4", "<s>", "exec")):
            namespace: dict = {}
            run(source, namespace)
            seen.append(namespace["y"])
        namespace = {}
        run("y = z", {"z": 5}, namespace)
        seen.append(namespace["y"])
        if sys.version_info >= (3, 13):
            namespace = {}
            run("y = 6", globals=namespace)
            seen.append(namespace["y"])
        if sys.version_info >= (3, 11):
            import types

            namespace = {}
            run(inner, namespace, closure=(types.CellType(7),))
            seen.append(namespace["out"])
        for wrong_args, wrong_kwargs in (
            ((), {}),
            (("y = 1", 1), {}),
            (("y = 1", {}, {}, {}), {}),
            ((), {"source": "y = 1"}),
            (("y = (",), {}),
        ):
            with pytest.raises((TypeError, SyntaxError)) as raised:
                run(*wrong_args, **wrong_kwargs)
            seen.append((type(raised.value), str(raised.value)))
        return seen

    real = calls(exec)
    with dataclass_code(str(tmp_path / "code.bin")) as cached:
        assert calls(vars(dataclasses)["exec"]) == real
    assert cached.compiled > 0  # the text sources were compiled through the cache


AT_EXIT = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print('teardown', gc.get_threshold()[0], 'libcst' in sys.modules))\n"
    "sys.argv[0] = 'tf24migrate'\n"
    "from tf24migrate.cli.command import entry_point\n"
    "entry_point()\n"
)


def test_switched_off_the_process_ends_as_python_ends_it(tmp_path):
    """With the `exit` trick the process ends at once (no `atexit` handler runs); without it,
    Python's teardown runs them; the output and status are the same."""
    on = _python(AT_EXIT, tmp_path, None, "--version")
    off = _python(AT_EXIT, tmp_path, "exit", "--version")
    assert on.returncode == off.returncode == 0
    assert on.stdout.startswith("tf24migrate ") and "teardown" not in on.stdout
    assert off.stdout == on.stdout + "teardown 200000 False\n"


def test_switched_off_the_garbage_collector_keeps_pythons_thresholds(tmp_path):
    """The command's threshold (`COLLECT_AFTER`), not the server's, nor with `gc` switched off."""
    default = str(_python("import gc; print(gc.get_threshold()[0])", tmp_path, None).stdout.strip())
    assert _python(AT_EXIT, tmp_path, "exit", "--version").stdout.split()[-2] == "200000"
    assert _python(AT_EXIT, tmp_path, "exit,gc", "--version").stdout.split()[-2] == default
    server = _python(AT_EXIT, tmp_path, "exit", "server", "--help")
    assert server.returncode == 0 and server.stdout.split()[-2] == default, server.stderr


def test_switched_off_the_tables_give_way_to_the_rules(tmp_path):
    """`--list-rules` and a file no rule reads, from the generated tables without LibCST; switched
    off, from the rules themselves (LibCST loaded), with the same output."""
    (tmp_path / "plain.py").write_text("import os\n\nprint(os.sep)\n")
    for arguments in (["--list-rules"], ["--check", "--no-cache", "plain.py"]):
        on = _python(AT_EXIT, tmp_path, "exit", *arguments)
        off = _python(AT_EXIT, tmp_path, "exit,tables", *arguments)
        assert on.returncode == off.returncode == 0, (on.stderr, off.stderr)
        assert on.stdout.endswith("teardown 200000 False\n") and off.stdout.endswith("teardown 200000 True\n")
        assert on.stdout.splitlines()[:-1] == off.stdout.splitlines()[:-1]
        assert on.stderr.rsplit(" in ", 1)[0] == off.stderr.rsplit(" in ", 1)[0]  # the summary, less its time


def test_switched_off_the_server_caches_no_code(tmp_path):
    """`tf24migrate server` writes the code of lsprotocol's classes to the user's cache, and the
    code of no dataclass (its worker loads the engine as Python does); switched off, nothing."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from lsp_raw import RawServer

    for off, cached in ((None, ["dataclass-code-server"]), ("server-cache", [])):
        folder = tmp_path / str(off)
        folder.mkdir()
        (folder / "due.py").write_text(DUE)
        server = RawServer(folder, env=_environment(folder, off))
        assert server.initialize(folder) is not None
        uri = (folder / "due.py").as_uri()
        server.open(uri, DUE)
        assert [d["code"] for d in server.diagnostics(uri, timeout=60) or []] == ["TF24101"]
        server.notify("exit")
        assert server.close()[0] == 1
        written = folder / "cache" / "tf24migrate"
        assert sorted(path.name.split(".")[0] for path in written.glob("*")) == cached
