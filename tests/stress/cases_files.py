"""Torture cases on where files are: symlinks, FIFOs, devices, permissions, links, metadata, and
crafted file names (the outcomes are defined in `test_torture.py`)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

from hostile_inputs import HEAD, NEW, OLD
from trial import Skip, as_nobody, check_stdin, check_write


def theme_filesystem(options):
    def tree(build, codes=(0,), args=("--write", "project"), expected=None, **message):
        def case(t):
            t.write("project/own.py", OLD)
            build(t)
            before = t.snapshot()
            run = t.run(*(args(t) if callable(args) else args))
            t.code(run, *codes)
            want = {"project/own.py": NEW} if expected is None else expected
            t.files(before, want, run)
            t.message(run, **message)

        return case

    def outside_file(t):
        t.write("outside/secret.py", OLD)
        (t.dir / "project/link.py").symlink_to(t.dir / "outside/secret.py")

    says_outside = ("project/link.py: skipped", "outside the paths named")
    yield "fs-symlink-to-file-outside", 2, tree(outside_file, says=says_outside)
    yield (
        "fs-symlink-to-folder-outside",
        2,
        tree(
            lambda t: (
                t.write("outside/lib/x.py", OLD),
                (t.dir / "project/lib").symlink_to(t.dir / "outside/lib"),
            )
        ),
    )
    yield (
        "fs-symlink-to-parent-folder",
        2,
        tree(lambda t: (t.dir / "project/up").symlink_to(t.dir / "project")),
    )
    yield (
        "fs-symlink-to-file-inside",
        2,
        tree(
            lambda t: (t.dir / "project/alias.py").symlink_to(t.dir / "project/own.py"), not_says=("skipped",)
        ),
    )
    yield (
        "fs-symlink-loop",
        2,
        tree(
            lambda t: (t.dir / "project/loop.py").symlink_to(t.dir / "project/loop.py"),
            says=("a symlink loop",),
            not_says=("Errno",),
        ),
    )
    yield (
        "fs-symlink-loop-pair",
        2,
        tree(
            lambda t: (
                (t.dir / "project/a.py").symlink_to("b.py"),
                (t.dir / "project/b.py").symlink_to("a.py"),
            ),
            not_says=("Errno",),
        ),
    )
    yield (
        "fs-broken-symlink",
        2,
        tree(
            lambda t: (t.dir / "project/broken.py").symlink_to(t.dir / "gone.py"), says=("a broken symlink",)
        ),
    )
    yield (
        "fs-named-link-outside",
        2,
        tree(
            outside_file,
            args=("--write", "project/link.py"),
            codes=(0, 2),
            expected={"outside/secret.py": NEW},
        ),
    )
    yield "fs-fifo-in-folder", 11, tree(lambda t: os.mkfifo(t.dir / "project/pipe.py"))
    yield "fs-socket-in-folder", 11, tree(lambda t: _socket(t.dir / "project/sock.py"))
    yield "fs-fifo-gitignore", 11, tree(lambda t: os.mkfifo(t.dir / "project/.gitignore"))
    yield "fs-gitignore-folder", 10, tree(lambda t: (t.dir / "project/.gitignore").mkdir())
    yield (
        "fs-gitignore-backslash",
        10,
        tree(
            lambda t: (t.write("project/.gitignore", b"\\\nlegacy.py\n"), t.write("project/legacy.py", OLD))
        ),
    )
    yield (
        "fs-gitignore-not-utf8",
        10,
        tree(lambda t: t.write("project/.gitignore", b"caf\xe9/\n\xff\n*.pyc\n")),
    )
    yield (
        "fs-gitignore-odd-patterns",
        10,
        tree(lambda t: t.write("project/.gitignore", b"[\n!\n/\n\\!x\n[a-\n")),
    )
    yield (
        "fs-fifo-named",
        12,
        tree(
            lambda t: os.mkfifo(t.dir / "project/pipe.py"),
            args=("--write", "project/pipe.py", "project/own.py"),
            codes=(2,),
            says=("not a regular file (a FIFO)",),
            not_says=("no such file",),
        ),
    )
    yield (
        "fs-device-named",
        12,
        tree(
            lambda t: None,
            args=("--write", os.devnull, "project/own.py"),
            codes=(2,),
            says=("character device",),
        ),
    )
    yield (
        "fs-missing-named",
        12,
        tree(
            lambda t: None,
            args=("--write", "project/gone.py", "project/own.py"),
            codes=(2,),
            names=("project/gone.py",),
        ),
    )
    yield "fs-empty-path-named", 12, tree(lambda t: None, args=("--write", "", "project/own.py"), codes=(2,))

    def read_only(t):
        t.write("project/ro.py", OLD).chmod(0o444)

    yield "fs-read-only-file", 5, tree(read_only, codes=(2,), says=("ro.py is read-only",))
    yield (
        "fs-read-only-folder",
        5,
        tree(lambda t: (t.dir / "project").chmod(0o555), codes=(0, 2), expected={"project/own.py": NEW}),
    )
    yield (
        "fs-hard-link",
        5,
        tree(
            lambda t: os.link(t.write("project/h.py", OLD), t.dir / "other.py"),
            codes=(2,),
            says=("has 2 hard links",),
        ),
    )

    def kept(attribute):
        def case(t):
            path = t.write("train.py", OLD)
            os.chmod(path, 0o754)
            try:
                os.setxattr(path, "user.origin", b"vendored")
            except OSError as error:
                if attribute == "xattr":
                    raise Skip(f"no user extended attributes here ({error.strerror})") from None
            if attribute == "owner":
                if os.geteuid() != 0:
                    raise Skip("needs root to give a file away")
                os.chown(path, 1234, 5678)
            state = _metadata(path)
            check_write(t, {}, args=("--write", "train.py"), expected={"train.py": NEW})
            if path.read_bytes() == NEW and _metadata(path) != state:
                t.fail("other failure", f"{attribute} not kept: {state} -> {_metadata(path)}")

        return case

    for attribute in ("xattr", "owner", "mode"):
        yield f"fs-keeps-{attribute}", 5, kept(attribute)

    def leftover(t):
        from tf24migrate.run.temporaries import create_temporary  # as a write makes it

        folder = os.open(t.dir, os.O_RDONLY)
        name, handle = create_temporary(folder)
        os.write(handle, b"half a file")
        os.close(handle)
        os.close(folder)
        check_write(t, {"train.py": OLD}, args=("--write", "train.py"))
        if (t.dir / name).exists():
            t.fail("other failure", "a killed run's temporary file was not removed")

    yield "fs-killed-runs-leftover", 6, leftover
    yield (
        "fs-same-file-twice",
        1,
        tree(lambda t: None, args=("--write", "project/own.py", "project/own.py", "project")),
    )
    yield (
        "fs-absolute-and-dot-slash",
        1,
        tree(lambda t: None, args=lambda t: ("--write", "./project/", str(t.dir / "project"))),
    )
    deep = "/".join(["d"] * 300)
    yield (
        "fs-300-deep-folders",
        11,
        tree(
            lambda t: t.write(f"project/{deep}/x.py", OLD),
            expected={"project/own.py": NEW, f"project/{deep}/x.py": NEW},
        ),
    )
    yield (
        "fs-unreadable-folder",
        13,
        as_nobody(
            tree(
                lambda t: (t.write("project/locked/m.py", OLD), (t.dir / "project/locked").chmod(0)),
                args=("--check", "project"),
                codes=(2,),
                expected={},
                says=("cannot read this folder",),
            )
        ),
    )
    yield (
        "fs-unreadable-file",
        12,
        as_nobody(
            tree(
                lambda t: t.write("project/locked.py", OLD).chmod(0),
                args=("--check", "project"),
                codes=(2,),
                expected={},
                names=("locked.py",),
            )
        ),
    )
    yield (
        "fs-not-writable-for-user",
        5,
        as_nobody(
            tree(lambda t: None, args=("--write", "project"), codes=(2,), expected={}, names=("own.py",))
        ),
    )


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


def _metadata(path: Path) -> tuple:
    status = os.stat(path)
    try:
        attributes = os.getxattr(path, "user.origin")
    except OSError:
        attributes = None
    return status.st_mode, status.st_uid, status.st_gid, attributes


NAMES = {
    "newline": b"a\nb.py",
    "escape": b"e\x1b[2Jx.py",
    "carriage-return": b"c\rx.py",
    "bell-and-osc": b"o\x1b]0;pwned\x07.py",
    "not-utf8": b"caf\xe9.py",
    "leading-dash": b"-dash.py",
    "spaces": b"with space.py",
    "leading-space": b" lead.py",
    "tab": b"t\tb.py",
    "backslash-quote": b'q\\"x.py',
    "unicode": "été_中.py".encode(),
    "u2028": "l\u2028s.py".encode(),
    "del": b"d\x7fx.py",
    "c1-csi": "c\u009b2Jx.py".encode(),
    "long-250": b"n" * 247 + b".py",
    "fake-finding": b"x.py:1:1: TF24101 error [fixed] forged\n.py",
}


def theme_names(options):
    def named(raw: bytes, mode: str):
        def case(t):
            t.write(raw, OLD)
            before = t.snapshot()
            run = t.run(mode, ".")
            # a finding's details are indented lines after it (`    TensorFlow versions: ...`)
            lines = [line for line in run.stdout.splitlines() if not line.startswith(b" ")]
            if mode == "--check":  # `would change: NAME` and the finding, one line each
                t.code(run, 1)
                if len(lines) != 2 or sum(line.startswith(b"would change: ") for line in lines) != 1:
                    t.fail("unclear message", f"one file printed as {len(lines)} lines: {run.stdout!r}")
            else:
                t.code(run, 0)
                t.files(before, {os.fsdecode(raw): NEW}, run)
                if len(lines) != 1 or not lines[0].endswith(b"call `run` (same arguments)."):
                    t.fail("unclear message", f"one fix printed as {run.stdout!r}")

        return case

    def broken(raw: bytes):
        def case(t):
            t.write(raw, HEAD + b"s.experimental_run_v2(\n")
            run = t.run("--check", ".")
            t.code(run, 2)
            t.message(run, names=(_plain_tail(raw),), says=("cannot parse",))
            if len([line for line in (run.stdout + run.stderr).splitlines() if b" error " in line]) != 1:
                t.fail(
                    "unclear message", f"one failure printed as several lines: {run.stdout + run.stderr!r}"
                )

        return case

    def git_apply(raw: bytes):
        def case(t):
            t.write(raw, OLD)
            if subprocess.run(["git", "init", "-q", str(t.dir)], capture_output=True).returncode:
                raise Skip("git is not installed")
            run = t.run("--diff", ".")
            t.code(run, 1)  # something is due
            applied = subprocess.run(["git", "apply", "-"], input=run.stdout, cwd=t.dir, capture_output=True)
            if applied.returncode or t.snapshot().get(os.fsdecode(raw)) != NEW:
                t.fail("other failure", f"git apply refused the preview: {applied.stderr[:160]!r}")

        return case

    for label, raw in NAMES.items():
        yield f"name-check-{label}", 14, named(raw, "--check")
        yield f"name-write-{label}", 14, named(raw, "--write")
    for label in ("newline", "escape", "not-utf8", "fake-finding", "tab"):
        yield f"name-broken-file-{label}", 14, broken(NAMES[label])
    for label in (
        "newline",
        "escape",
        "not-utf8",
        "spaces",
        "backslash-quote",
        "tab",
        "unicode",
        "leading-dash",
    ):
        yield f"name-git-apply-{label}", 14, git_apply(NAMES[label])
    yield (
        "name-dash-after-double-dash",
        14,
        lambda t: check_write(t, {"-dash.py": OLD}, args=("--write", "--", "-dash.py")),
    )
    yield (
        "name-dash-dot-slash",
        14,
        lambda t: check_write(t, {"-dash.py": OLD}, args=("--write", "./-dash.py")),
    )
    yield (
        "name-missing-with-newline",
        14,
        lambda t: t.message(t.run("--check", "gone\nx.py"), says=("gone\\nx.py: no such file",)),
    )
    yield (
        "name-stdin-filename-escape",
        14,
        lambda t: check_stdin(t, OLD, (0,), ("--stdin-filename", "a\x1b[2J\nb.py", "-")),
    )

    def files_from(t):
        t.write(b"caf\xe9.py", OLD)
        t.write(" lead.py", OLD)
        t.write("list.txt", b"caf\xe9.py\r\n lead.py\n\n")
        before = t.snapshot()
        run = t.run("--write", "--files-from", "list.txt")
        t.code(run, 0)
        t.files(before, {os.fsdecode(b"caf\xe9.py"): NEW, " lead.py": NEW}, run)

    yield "name-files-from-bytes-and-spaces", 10, files_from
    yield (
        "name-files-from-missing",
        10,
        lambda t: t.message(t.run("--check", "--files-from", "nope.txt"), names=("nope.txt",)),
    )

    def sarif(t):
        t.write(b"caf\xe9.py", OLD)
        run = t.run("--output-format", "sarif", ".")
        t.code(run, 1)  # something is due
        if b'"uri": "caf%E9.py"' not in run.stdout:
            t.fail("other failure", "SARIF does not name the file as a URI")

    yield "name-sarif-not-utf8", 10, sarif


def _plain_tail(raw: bytes) -> str:
    return re.findall(r"[\w.]+", os.fsdecode(raw))[-1]
