"""A fuzzer over the installed `tf24migrate` command: hypothesis generates trees (files in rare
encodings and line endings, notebooks, ignore files and pyproject.toml with odd patterns, symlinks
into a folder outside the named path, a planted cache) and flag combinations, runs the command in
a fresh process with a timeout, and judges what it did. The user's cache folder of each run
(`XDG_CACHE_HOME`) is fresh too, and sometimes planted: a FIFO in place of the engine's code
cache, its `tf24migrate` folder a symlink to the folder beside the tree or writable by others, a
relative `XDG_CACHE_HOME` (ignored: no folder may appear where the command runs).

Run: `python -m pytest tests/stress/test_fuzz_command.py -s`, for `TF24MIGRATE_STRESS_MINUTES`
(`knobs.py`).

Judged, per run (the outcomes of `test_torture.py`):
- hang: no exit within the timeout (60 s);
- traceback: a Python traceback, "internal error" / "Please report", death by a signal, or an exit
  code outside 0, 1, 2 (130 is an interruption, which nothing here sends);
- write outside: a file of the folder beside the named one changed or created, or a folder made
  for a relative `XDG_CACHE_HOME`;
- bytes lost: a file that ends neither as it was nor as its expected migration (the only due fix
  in a generated file is `experimental_run_v2(` -> `run(`), or a change outside `--write`; the
  same of what a run on stdin prints (`-`, without `--check`, `--diff` or a structured format);
- unclear message: a raw control character on stderr.
Each finding is logged once per kind and first line (to `fuzz-command.log` in the test's folder, or
`TF24MIGRATE_STRESS_LOG`), with the case's folder kept beside the log to rerun by hand. Runs until
`TF24MIGRATE_STRESS_MINUTES` of wall time have passed; the test fails if anything was found.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hostile_inputs import migrated
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from knobs import LOG, MINUTES, SEED
from trial import CACHE, CONTROL, installed_tool

TIMEOUT = 60

BODIES = (
    "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()\n"
    "strategy.experimental_run_v2(step, args=(x,))\n",
    "import tensorflow as tf\n\ndef f(s):\n    return s.experimental_run_v2(g)\n",
    "x = 1\n",
    "import tensorflow as tf\nif tf.__version__ < '2.4':\n    s.experimental_run_v2(f)\n",
    "",
)
FILLER = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40
)
ENCODINGS = (
    "utf-8",
    "utf-8-sig",
    "latin-1",
    "cp1252",
    "big5",
    "big5hkscs",
    "cp950",
    "cp932",
    "shift_jis",
    "euc-jp",
    "johab",
    "gb18030",
    "iso2022_jp",
    "utf-7",
    "koi8-r",
    "utf-16",
)
PATTERNS = st.one_of(
    st.sampled_from(
        [
            "*.py",
            "!keep.py",
            "sub/",
            "**/deep/**",
            "\\",
            "[z-a]",
            "[",
            "a" * 30 + "*" * 30 + "b",
            "**/" * 40 + "x",
            "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
            "#comment",
            " ",
            "/",
            "!",
        ]
    ),
    st.text(alphabet="*?[]!/\\ab.-", max_size=24),
)
NAMES = st.sampled_from(
    [
        "a.py",
        "b.py",
        "x y.py",
        "é.py",
        "\u202eevil.py",
        "z\u200bw.py",
        "n.ipynb",
        "c.c",
        "keep.py",
        "-dash.py",
    ]
)


def _python_file(draw) -> bytes:
    body = draw(st.sampled_from(BODIES))
    comment = draw(FILLER).replace("\r", " ").replace("\n", " ").replace("\x0c", " ")
    encoding = draw(st.sampled_from(ENCODINGS))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = f"# {comment}\n{body}"
    if encoding not in ("utf-8", "utf-8-sig", "utf-16"):
        text = f"# -*- coding: {encoding} -*-\n{text}"
    text = text.replace("\n", newline)
    try:
        return text.encode(encoding)
    except (UnicodeError, LookupError):
        return text.encode("utf-8", "surrogatepass")


def _notebook(draw) -> bytes:
    cells = [
        {
            "cell_type": draw(st.sampled_from(["code", "markdown", "raw"])),
            "metadata": draw(st.sampled_from([{}, {"n": 10**50}, {"x": "\u202e"}])),
            "source": draw(st.sampled_from(BODIES)) + draw(FILLER),
        }
        for _ in range(draw(st.integers(0, 4)))
    ]
    for cell in cells:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(document, indent=draw(st.sampled_from([None, 1, 2])), ensure_ascii=draw(st.booleans()))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]))
    try:
        return text.encode(encoding)
    except UnicodeError:
        return text.encode("utf-8")


@st.composite
def trees(draw):
    files = {}
    for _ in range(draw(st.integers(1, 6))):
        folder = draw(st.sampled_from(["", "sub/", "sub/deep/", ".hidden/", "build/"]))
        name = draw(NAMES)
        if name.endswith(".ipynb"):
            data = _notebook(draw)
        elif name.endswith(".c"):
            data = b"TF_NewSession(graph, opts, status);\n" + draw(FILLER).encode("utf-8", "replace")
        else:
            data = _python_file(draw)
        files["src/" + folder + name] = data
    if draw(st.booleans()):
        files["src/.gitignore"] = "\n".join(draw(st.lists(PATTERNS, max_size=4))).encode("utf-8", "replace")
    if draw(st.booleans()):
        table = draw(
            st.sampled_from(
                [
                    '[tool.tf24migrate]\nselect = ["TF24101"]\n',
                    '[tool.tf24migrate]\ntarget-version = "2.3"\n',
                    '[tool.tf24migrate]\nexclude = ["[z-a]"]\n',
                    '[project]\ndependencies = ["tensorflow>=2.' + "9" * 60 + '"]\n',
                    "[tool.tf24migrate\n",
                    '[tool.tf24migrate]\ncache-dir = "a\\u0000b"\n',
                    "a = " + "[" * 600 + "]" * 600 + "\n",
                    '[project]\nrequires-python = ">=3.10"\ndependencies = ["tensorflow~=2.3"]\n',
                ]
            )
        )
        files["src/pyproject.toml"] = table.encode()
    if draw(st.booleans()):
        files["src/setup.py"] = (
            b'R = ["numpy"]\nR = R + ["tensorflow>=2.3"]\nR = R + ["x"]\nsetup(install_requires=R)\n'
        )
    links = draw(st.lists(st.sampled_from(["src/out.py", "src/sub", "src/outdir"]), max_size=2, unique=True))
    cache = draw(st.sampled_from([None, "empty", "garbage", "symlink", "file"]))
    user_cache = draw(st.sampled_from(USER_CACHES))
    return files, links, cache, user_cache


# What the user's cache folder holds (`XDG_CACHE_HOME`, the engine's code cache): see `build`.
USER_CACHES = (None, None, "fifo", "symlinked folder", "writable folder", "relative")
RELATIVE_CACHE = "xdg-relative"


def user_cache_environment(folder: Path, user_cache: str | None) -> dict[str, str]:
    environment = dict(os.environ)
    environment["XDG_CACHE_HOME"] = RELATIVE_CACHE if user_cache == "relative" else str(folder / "xdg")
    return environment


@st.composite
def flag_sets(draw):
    flags = [draw(st.sampled_from(["--write", "--check", "--diff", "--write", ""]))]
    flags += draw(st.sampled_from([[], ["-j", "1"], ["-j", "2"], ["-j", "3"]]))
    flags += draw(
        st.sampled_from(
            [[], ["--output-format", "json"], ["--output-format", "sarif"], ["--output-format", "github"]]
        )
    )
    for option, values in (
        ("--select", ["TF24101", "TF241", "ALL", "TF24101,TF24999", "\u202e"]),
        ("--target-version", ["2.3", "2.0", "2." + "9" * 50, "x", "2.4"]),
        ("--exclude", ["[z-a]", "\\", "sub", "*.py", "a" * 20 + "*" * 20]),
        ("--extend-exclude", ["**/" * 30 + "x", "[", "deep"]),
        ("--cache-dir", ["cachedir", "src", "src/sub", "src/a.py"]),
    ):
        if draw(st.integers(0, 4)) == 0:
            flags += [option, draw(st.sampled_from(values))]
    for flag in ("--unsafe-fixes", "--no-cache", "--force-exclude", "--no-ignore", "--statistics", "-q"):
        if draw(st.integers(0, 5)) == 0:
            flags.append(flag)
    paths = draw(
        st.sampled_from([["src"], ["src/a.py", "src"], ["src/sub"], ["-"], ["--files-from", "list.txt"]])
    )
    return [flag for flag in flags if flag] + paths


def build(folder: Path, tree) -> None:
    files, links, cache, user_cache = tree
    outside = folder / "outside"
    outside.mkdir()
    (outside / "out.py").write_bytes(BODIES[0].encode())
    (outside / "inner").mkdir()
    (outside / "inner" / "b.py").write_bytes(BODIES[1].encode())
    (folder / "src").mkdir()
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for link in links:
        target = outside / ("out.py" if link.endswith(".py") else "inner")
        path = folder / link
        if not path.exists() and not path.is_symlink():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.symlink_to(target)
    cache_path = folder / "src" / CACHE
    if cache == "empty":
        cache_path.mkdir()
    elif cache == "garbage":
        (cache_path / "results").mkdir(parents=True)
        (cache_path / "results" / ("0" * 40)).write_bytes(b"garbage\n")
        (cache_path / ("index-" + "0" * 20)).write_bytes(b"{")
    elif cache == "symlink":
        cache_path.symlink_to(outside)
    elif cache == "file":
        cache_path.write_bytes(b"not a folder")
    (folder / "list.txt").write_bytes(b"src/a.py\nsrc/nope.py\n\nsrc/sub\nsrc/b\x00.py\n")
    mine = folder / "xdg" / "tf24migrate"
    if user_cache == "fifo":
        mine.mkdir(parents=True, mode=0o700)
        tag = sys.implementation.cache_tag
        for name in ("engine", "command"):
            os.mkfifo(mine / f"dataclass-code-{name}.{tag}.bin", 0o600)
    elif user_cache == "symlinked folder":
        mine.parent.mkdir()
        mine.symlink_to(outside)
    elif user_cache == "writable folder":
        mine.mkdir(parents=True)
        mine.chmod(0o777)
    (folder / ".git").mkdir()  # a repository root: ignore files and the default cache apply


def snapshot(root: Path) -> dict[str, bytes]:
    found = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (CACHE, ".git")]
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, root)] = handle.read()
    return found


def is_expected(old: bytes, new: bytes) -> bool:
    """Whether `new` is `old` with some of its `experimental_run_v2(` calls made `run(` (the due
    fix; a notebook's Markdown keeps its own), compared as bytes for ASCII-compatible encodings
    and as text for UTF-16 and UTF-7."""
    if migrated(new) == migrated(old):
        return True
    for encoding in ("utf-16", "utf-7"):
        try:
            if old.decode(encoding).replace("experimental_run_v2(", "run(") == new.decode(encoding).replace(
                "experimental_run_v2(", "run("
            ):
                return True
        except UnicodeError:
            pass
    return False


class Judge:
    def __init__(self, log: Path, tool: str) -> None:
        self.log = log
        self.tool = tool
        self.seen: set[str] = set()
        self.runs = 0
        self.findings: dict[str, int] = {}
        self.user_cache: str | None = None

    def report(self, kind: str, detail: str, args: list[str], folder: Path) -> None:
        signature = f"{kind}: {detail.splitlines()[0][:120] if detail else ''}"
        self.findings[kind] = self.findings.get(kind, 0) + 1
        if signature in self.seen:
            return
        self.seen.add(signature)
        kept = self.log.parent / f"case-{len(self.seen)}"
        shutil.rmtree(kept, ignore_errors=True)
        with contextlib.suppress(shutil.Error):  # a FIFO is not copied (the rest is)
            shutil.copytree(folder, kept, symlinks=True, ignore_dangling_symlinks=True)
        line = f"{time.strftime('%H:%M:%S')} {signature}\n    args {args!r}\n    kept in {kept}\n"
        with open(self.log, "a") as handle:
            handle.write(line)
        print(line, end="", flush=True)

    def run(self, tree, args: list[str]) -> None:
        self.user_cache = tree[3]
        folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
        try:
            build(folder, tree)
            self._run(folder, args)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _run(self, folder: Path, args: list[str]) -> None:
        before = snapshot(folder)
        stdin = before.get("src/a.py", b"x = 1\n") if args[-1] == "-" else b""
        self.runs += 1
        process = subprocess.Popen(
            [self.tool, *args],
            cwd=folder,
            env=user_cache_environment(folder, self.user_cache),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(stdin, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.communicate()
            self.report("hang", f"still running after {TIMEOUT} s", args, folder)
            return
        code = process.returncode
        text = stderr.decode("utf-8", "replace")
        if code < 0 or code not in (0, 1, 2):
            self.report("traceback", f"exit {code}: {text.strip().splitlines()[-1:]}", args, folder)
        if b"Traceback (most recent call last)" in stderr:
            self.report("traceback", text.strip().splitlines()[-1], args, folder)
        for line in text.splitlines():
            if "internal error" in line or "Please report" in line:
                self.report("internal error", re.sub(r"^.*?: ", "", line), args, folder)
        if CONTROL.search(stderr):
            self.report(
                "unclear message", f"raw control character {CONTROL.search(stderr).group()!r}", args, folder
            )
        after = snapshot(folder)
        # A path named that is itself a symlink (`src/sub` -> outside) is the user's choice.
        named_through_link = any(os.path.islink(folder / arg) for arg in args if arg.startswith("src/"))
        writes = "--write" in args
        for name, old in before.items():
            new = after.get(name)
            if name.startswith("outside"):
                if new != old and not named_through_link:
                    self.report("write outside", name, args, folder)
            elif new is None:
                self.report("bytes lost", f"{name} vanished", args, folder)
            elif new != old and not writes:
                self.report("bytes lost", f"{name} changed without --write", args, folder)
            elif not is_expected(old, new):
                self.report("bytes lost", f"{name} is neither its input nor its migration", args, folder)
        for name in set(after) - set(before):
            if name.startswith("outside") and not named_through_link:
                self.report("write outside", f"{name} created", args, folder)
        if (folder / RELATIVE_CACHE).exists():
            self.report("write outside", "a cache folder made for a relative XDG_CACHE_HOME", args, folder)
        structured = "--output-format" in args and args[args.index("--output-format") + 1] in (
            "json",
            "sarif",
        )
        printed = args[-1] == "-" and not {"--check", "--diff", "--output-format"} & set(args)
        # Exit 2 with nothing printed: an option refused before stdin was read, said on stderr.
        if printed and (code in (0, 1) or stdout) and not is_expected(stdin, stdout):
            self.report(
                "bytes lost", "what stdin gave back is neither its input nor its migration", args, folder
            )
        if structured and code in (0, 1) and args[-1] != "-":
            try:
                json.loads(stdout)
            except ValueError:
                self.report("unclear message", "stdout is not one JSON document", args, folder)


def test_fuzz_command(tmp_path: Path) -> None:
    tool = installed_tool()
    if tool is None:
        pytest.skip("no `tf24migrate` command installed")
    log = Path(LOG or tmp_path) / "fuzz-command.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    judge = Judge(log, tool)
    deadline = time.monotonic() + MINUTES * 60
    started = time.monotonic()

    @settings(
        max_examples=10**9,
        deadline=None,
        phases=[Phase.generate],
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(tree=trees(), args=flag_sets())
    def fuzz(tree, args):
        if time.monotonic() > deadline:
            raise _Done
        judge.run(tree, args)
        if judge.runs % 50 == 0:
            with open(log, "a") as handle:
                cpu = os.times()
                handle.write(
                    f"{time.strftime('%H:%M:%S')} runs {judge.runs} findings {judge.findings} "
                    f"cpu {cpu.children_user + cpu.children_system:.0f} s\n"
                )

    if SEED is not None:
        fuzz = seed(SEED)(fuzz)
    with contextlib.suppress(_Done):
        fuzz()
    cpu = os.times()
    summary = (
        f"runs {judge.runs}, findings {judge.findings or 'none'}, distinct {len(judge.seen)}, "
        f"{time.monotonic() - started:.0f} s wall, {cpu.children_user + cpu.children_system:.0f} s CPU in the command"
    )
    with open(log, "a") as handle:
        handle.write(summary + "\n")
    print(summary)
    assert not judge.findings, log.read_text()


class _Done(Exception):
    pass
