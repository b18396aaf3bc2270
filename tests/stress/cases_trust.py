"""Torture cases of issue 31: a corrupted or planted cache, rare codecs, a user's file named like a
temporary file, a cache folder at a source folder, interruptions with JSON, symlinks planted or
swapped, FIFOs where files are expected, backtracking globs, killed workers and locked folders,
metadata and options that used to crash, closed or full streams, honest messages, library types
(the outcomes are defined in `test_torture.py`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from hostile_inputs import NEW, ODD_CODECS, OLD, migrated
from processes import children
from trial import CACHE, Run, Skip, check_write


def with_odd_bytes(encoding: str) -> bytes:
    """A due file in `encoding` whose comment and call's line hold its odd bytes."""
    odd = ODD_CODECS[encoding]
    return (
        b"# -*- coding: "
        + encoding.encode()
        + b" -*-\n# "
        + odd
        + b"\n"
        + OLD.rstrip(b"\n")
        + b"  # "
        + odd
        + b"\n"
    )


def theme_trust(options):
    def flipped_entry(t):
        for n in range(20):
            t.write(f"m{n:02d}.py", OLD)
        t.run("--check", ".")
        entries = sorted((t.dir / CACHE / "results").iterdir())
        for entry in entries[:2]:
            entry.write_bytes(entry.read_bytes().replace(b"strategy.run(", b"strategy.rum("))
        check_write(
            t, {}, args=("--write", "-j", "2", "."), expected={f"m{n:02d}.py": NEW for n in range(20)}
        )

    yield "trust-cache-flipped-byte", 1, flipped_entry

    def codec(encoding):
        def case(t):
            check_write(t, {"train.py": with_odd_bytes(encoding)}, args=("--write", "--no-cache", "."))

        return case

    for encoding in ODD_CODECS:
        yield f"trust-codec-{encoding}", 2, codec(encoding)

    def users_temporary_file(t):
        check_write(t, {"train.py": OLD, ".tf24migrate-x.tmp": b"the user's\n"}, expected={"train.py": NEW})

    yield "trust-users-tmp-file-kept", 3, users_temporary_file

    def cache_at_source(t):
        for n in range(3):
            t.write(f"src/m{n}.py", OLD)
        before = t.snapshot()
        env = {**os.environ, "TF24MIGRATE_CACHE_DIR": str(t.dir / "src")}
        done = subprocess.run(
            [options.tool, "--check", "src"], cwd=t.dir, env=env, capture_output=True, timeout=120
        )
        if t.snapshot() != before or (t.dir / "src" / ".gitignore").exists():
            t.fail("bytes lost", "the cache wrote into a source folder")
        if b"not tf24migrate's cache" not in done.stderr:
            t.fail("unclear message", "no note that the cache folder was refused")
        again = t.run("--check", "--no-cache", "src")
        if again.stdout.count(b"would change") != 3:
            t.fail("other failure", "a later run does not see the files")

    yield "trust-cache-dir-at-source-folder", 4, cache_at_source

    def interrupted_json(t):
        for n in range(300):
            t.write(f"m{n:03d}.py", OLD)
        process = t.popen(["--write", "--no-cache", "-j", "1", "--output-format", "json", "."])
        deadline = time.monotonic() + 60
        while (t.dir / "m000.py").read_bytes() == OLD and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        run = t.finish(process, ["--write", "json", "SIGINT"], time.monotonic())
        try:
            document = json.loads(run.stdout)
        except ValueError:
            t.fail("bytes lost", f"no JSON record of what was written: {run.stdout[:60]!r}")
            return
        written = {f"./{p.name}" for p in t.dir.glob("m*.py") if p.read_bytes() == NEW}
        reported = {e["path"] for e in document.get("files", []) if e["status"] == "changed"}
        if not document.get("interrupted") or reported != written:
            t.fail("other failure", f"record: {len(reported)} files, disk: {len(written)} written")

    yield "trust-interrupt-json-record", 5, interrupted_json

    def planted_cache_link(mode):
        def case(t):
            (t.dir / "elsewhere").mkdir()
            t.write("src/train.py", OLD)
            (t.dir / "src" / ".git").mkdir()
            os.symlink(t.dir / "elsewhere", t.dir / "src" / CACHE)
            run = t.run(mode, "src")
            if os.listdir(t.dir / "elsewhere"):
                t.fail("bytes lost", "files written through a planted cache symlink")
            t.message(run, says=("is a symlink",))

        return case

    yield "trust-planted-cache-symlink-check", 6, planted_cache_link("--check")
    yield "trust-planted-cache-symlink-write", 6, planted_cache_link("--write")

    def swapped(jobs, variant):
        def case(t):
            for root in ("src", "outside"):
                for n in range(30):
                    t.write(f"{root}/pkg/m{n:02d}.py", OLD)
            process = t.popen(["--write", "--no-cache", "-j", jobs, "src"])
            deadline = time.monotonic() + 60
            while (t.dir / "src/pkg/m00.py").read_bytes() == OLD and time.monotonic() < deadline:
                time.sleep(0.005)
            if variant == "folder":
                os.rename(t.dir / "src/pkg", t.dir / "src/moved")
                os.symlink(t.dir / "outside/pkg", t.dir / "src/pkg")
            else:
                for n in range(29, 0, -1):
                    path = t.dir / f"src/pkg/m{n:02d}.py"
                    if path.read_bytes() == OLD:
                        path.unlink()
                        os.symlink(t.dir / f"outside/pkg/m{n:02d}.py", path)
                        break
            t.finish(process, ["--write", "-j", jobs, "swap"], time.monotonic())
            changed = [p.name for p in (t.dir / "outside/pkg").iterdir() if p.read_bytes() != OLD]
            if changed:
                t.fail("bytes lost", f"written outside through a swapped symlink: {changed[:3]}")

        return case

    for jobs in ("1", "2"):
        for variant in ("folder", "file"):
            yield f"trust-swap-{variant}-j{jobs}", 7, swapped(jobs, variant)

    def fifos(t):
        t.write("src/train.py", OLD)
        os.mkfifo(t.dir / "src" / ".git")
        run = t.run("--check", "--no-cache", "src", timeout=60)
        t.code(run, 1)
        os.unlink(t.dir / "src" / ".git")
        t.run("--check", "src")
        for entry in (t.dir / CACHE / "results").iterdir():  # the current folder's: no .git above
            entry.unlink()
            os.mkfifo(entry)
        t.code(t.run("--check", "src", timeout=60), 1)

    yield "trust-fifos-git-and-cache", 8, fifos

    def backtracking(t):
        t.write("a" * 80 + ".py", OLD)
        t.write(".gitignore", "*a" * 25 + "*b\n" + "**/" * 50 + "x\n")
        run = t.run("--check", "--no-cache", "--extend-exclude", "**/" * 50 + "y", ".", timeout=60)
        t.code(run, 1)
        bad = t.run("--check", "--no-cache", "--extend-exclude", "*a" * 20 + "*b", ".", timeout=60)
        t.code(bad, 2)
        t.message(bad, says=("too many wildcards",))

    yield "trust-backtracking-globs", 9, backtracking

    def flock_own_folder(t):
        t.write("train.py", OLD)
        if not os.path.exists("/usr/bin/flock"):
            raise Skip("no flock(1)")
        process = subprocess.Popen(
            ["flock", "-x", str(t.dir), options.tool, "--write", "--no-cache", "train.py"],
            cwd=t.dir,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        run = t.finish(process, ["flock", "--write"], time.monotonic(), timeout=90)
        t.code(run, 2)
        t.message(run, says=("locked by process",))

    yield "trust-flock-own-folder", 10, flock_own_folder

    def killed_worker(signum):
        def case(t):
            big = OLD.replace(b"\n", b"\nx = '" + b"a" * 300_000 + b"'\n", 1)
            for n in range(30):
                t.write(f"m{n:02d}.py", big)
            process = t.popen(["--write", "--no-cache", "-j", "2", "."])
            deadline = time.monotonic() + 60
            while len(children(process.pid)) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.3)
            workers = children(process.pid)
            if workers:
                os.kill(workers[0], signum)
            run = t.finish(process, ["--write", "-j", "2", signal.Signals(signum).name], time.monotonic())
            t.code(run, 0, 2)
            if b"interrupted" in run.stderr:
                t.fail("unclear message", "a worker killed from outside reads as an interruption")
            if run.stderr.count(b"killed by") > 1:
                t.fail("unclear message", "the death of one worker is told more than once")

        return case

    yield "trust-worker-sigkill", 10, killed_worker(signal.SIGKILL)
    yield "trust-worker-sigterm", 15, killed_worker(signal.SIGTERM)

    def metadata(name, text, target):
        def case(t):
            t.write(name, text)
            run = check_write(
                t, {"train.py": OLD}, args=("--check", "--no-cache", "."), codes=(1,), expected={}
            )
            if f"target TensorFlow {target}".encode() not in run.stderr:
                t.fail("other failure", f"target not {target}: {run.err[-160:]!r}")

        return case

    reassigned = 'R = ["numpy"]\nR = R + ["tensorflow>=2.3"]\nsetup(install_requires=R)\n'
    yield "trust-setup-py-reassigned", 11, metadata("setup.py", reassigned, "2.3")
    chain = "\n".join(
        ['R = ["tensorflow>=2.3"]', *(f'R = R + ["x{i}"]' for i in range(3000)), "setup(install_requires=R)"]
    )
    yield "trust-setup-py-3000-reassignments", 11, metadata("setup.py", chain, "2.3")
    yield (
        "trust-pyproject-deep",
        11,
        metadata("pyproject.toml", "a = " + "[" * 3000 + "]" * 3000 + "\n", "2.4"),
    )
    huge = '[project]\ndependencies = ["tensorflow>=2.' + "9" * 5000 + '"]\n'
    yield "trust-requirement-5000-digits", 11, metadata("pyproject.toml", huge, "2.4")

    def requirements_chain(t):
        for n in range(3000):
            t.write(f"requirements{n}.txt", f"-r requirements{n + 1}.txt\n")
        t.write("requirements3000.txt", "tensorflow>=2.3\n")
        run = check_write(t, {"train.py": OLD}, args=("--check", "--no-cache", "."), codes=(1,), expected={})
        if b"target TensorFlow 2.3" not in run.stderr:
            t.fail("other failure", "the chain's requirement was not read")

    yield "trust-requirements-chain-3000", 11, requirements_chain

    def usage(args, says):
        def case(t):
            t.write("list.txt", b"train.py\nb\x00ad.py\n")
            check_write(
                t,
                {"train.py": OLD},
                args=("--check", "--no-cache", *args, "."),
                codes=(2,),
                expected={},
                says=says,
            )

        return case

    yield (
        "trust-target-version-5000-digits",
        11,
        usage(("--target-version", "2." + "9" * 5000), ("--target-version",)),
    )
    yield "trust-exclude-backslash", 11, usage(("--exclude", "\\"), ("not a valid pattern",))
    yield "trust-exclude-bad-range", 11, usage(("--extend-exclude", "[z-a]"), ("not a valid pattern",))
    yield "trust-files-from-dev-zero", 11, usage(("--files-from", "/dev/zero"), ("NUL byte",))
    yield "trust-files-from-nul-line", 11, usage(("--files-from", "list.txt"), ("NUL byte",))

    def config_nul(t):
        t.write("pyproject.toml", '[tool.tf24migrate]\ncache-dir = "a\\u0000b"\n')
        check_write(t, {"train.py": OLD}, args=("--check", "."), codes=(2,), expected={}, says=("cache-dir",))

    yield "trust-cache-dir-nul", 11, config_nul

    def streams(redirect, code):
        def case(t):
            t.write("train.py", OLD)
            for n in range(30):
                t.write(f"m{n:02d}.py", OLD)
            line = f"{options.tool} --check --no-cache . {redirect}"
            done = subprocess.run(["bash", "-c", line], cwd=t.dir, capture_output=True, timeout=120)
            run = Run([line], done.returncode, done.stdout, done.stderr, 0.0)
            t._judge_crash(run, internal_ok=False)
            t.code(run, code)
            if code == 2 and not run.stderr.strip():
                t.fail("unclear message", "the run stopped without a word")

        return case

    yield "trust-stdout-dev-full", 11, streams("> /dev/full", 2)
    yield "trust-stdout-closed", 11, streams(">&-", 2)
    yield "trust-stdin-closed", 11, streams("<&-", 1)
    yield "trust-closed-pipe", 16, streams("| true; exit ${PIPESTATUS[0]}", 2)

    def long_concatenation(t):
        data = (
            b"import tensorflow as tf\nstrategy.experimental_run_v2(f, args=("
            + b" ".join(b"'p%d'" % i for i in range(700))
            + b",))\n"
        )
        run = check_write(
            t, {"long.py": data}, codes=(2,), expected={}, names=("long.py",), says=("skipped",)
        )
        if b"internal error" in run.stderr:
            t.fail("unclear message", "a valid file is called an internal error")

    yield "trust-long-implicit-concatenation", 12, long_concatenation

    def library_types(t):
        script = (
            "import json\nfrom tf24migrate import migrate_paths, migrate_source\nout = []\n"
            "for call in ('migrate_paths(\"a.py\")', 'migrate_paths([1])', 'migrate_source(\"x\", select=b\"TF24101\")',"
            ' \'migrate_source("x", select=[1, 2])\', \'migrate_source("x", unsafe_fixes="no")\', \'migrate_paths([b"a.py"])\'):\n'
            "    try:\n        eval(call)\n        out.append([call, 'accepted'])\n"
            "    except TypeError:\n        out.append([call, 'TypeError'])\n"
            "    except BaseException as e:\n        out.append([call, type(e).__name__])\n"
            "print(json.dumps(out))\n"
        )
        t.write("a.py", OLD)
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=t.dir, capture_output=True, text=True, timeout=120
        )
        for call, outcome in json.loads(done.stdout or "[]"):
            if outcome != "TypeError":
                t.fail("crash", f"{call}: {outcome}, not a TypeError")
        if (t.dir / "a.py").read_bytes() != OLD:
            t.fail("bytes lost", "a refused call wrote a file")

    yield "trust-library-types", 13, library_types

    def invisible_names(t):
        t.write("evil\u202eyp.py", OLD)
        t.write("zero\u200bwidth.py", OLD)
        run = t.run("--check", "--no-cache", ".")
        if "\u202e".encode() in run.stdout + run.stderr or "\u200b".encode() in run.stdout + run.stderr:
            t.fail("unclear message", "a bidirectional or zero-width character printed raw")

    yield "trust-invisible-names", 14, invisible_names

    def notebook_messages(t):
        cell = {
            "cell_type": "code",
            "metadata": {},
            "source": OLD.decode(),
            "outputs": [],
            "execution_count": None,
        }
        text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
        t.write("u16.ipynb", text.encode("utf-16"))
        t.write("bad.ipynb", text.encode().replace(b'"metadata": {}', b'"metadata": {"a": "\xff"}', 1))
        run = t.run("--check", "--no-cache", ".")
        t.code(run, 2)
        t.message(
            run,
            names=("u16.ipynb", "bad.ipynb"),
            says=("notebook",),
            not_says=("coding", "Python cannot run"),
        )

    yield "trust-notebook-messages", 17, notebook_messages

    def guard(t):
        data = b"import tensorflow as tf\nif not isinstance(item, Version):\n    strategy.experimental_run_v2(f)\n"
        check_write(
            t, {"train.py": data}, args=("--write", "--no-cache", "."), expected={"train.py": migrated(data)}
        )

    yield "trust-version-guard-of-something-else", 18, guard
