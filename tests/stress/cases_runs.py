"""Torture cases on how the command runs: signals, concurrent runs and edits, limits, load, the big
file, command-line edges (the outcomes are defined in `test_torture.py`)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sysconfig
import time
from pathlib import Path

from hostile_inputs import BROKEN, CALL, CELL_CODE, HEAD, NEW, OLD, migrated, notebook_text
from processes import alive, children
from trial import TIMEOUT, Run, Skip, check_write, measured

BEFORE = HEAD + b"x = 1\n" * 300 + CALL + b"\n"
AFTER = migrated(BEFORE)


def _reported(stdout: bytes) -> set[str]:
    return {
        line.split(b":")[0].decode().removeprefix("./") for line in stdout.splitlines() if b"[fixed]" in line
    }


def theme_signals(options):
    def interrupted(signum, group: bool):
        def case(t):
            if not os.path.exists("/proc/self/task"):
                raise Skip("reads /proc")
            for n in range(400):
                t.write(f"m{n:03d}.py", BEFORE)
            start = time.monotonic()
            process = t.popen(["--write", "-j", "2", "."], stdin=subprocess.DEVNULL, bufsize=0)
            first = process.stdout.readline()
            time.sleep(0.2)  # some files written, some in flight
            workers = children(process.pid)
            (os.killpg if group else os.kill)(process.pid, signum)
            if signum == signal.SIGKILL:
                process.wait(timeout=30)
                run = Run(["SIGKILL"], 0, first, b"", 0)
            else:
                run = t.finish(process, ["--write", "-j", "2", "."], start, None, 60)
                run.stdout = first + run.stdout
                t.code(run, 130)
            deadline = time.monotonic() + 10
            while any(map(alive, workers)) and time.monotonic() < deadline:
                time.sleep(0.05)
            if any(map(alive, workers)):
                t.fail("other failure", "workers alive 10 s after the command ended")
            contents = {p.name: p.read_bytes() for p in t.dir.glob("m*.py")}
            torn = [n for n, c in contents.items() if c not in (BEFORE, AFTER)]
            if torn:
                t.fail("bytes lost", f"{len(torn)} files neither old nor new, e.g. {torn[0]}")
            changed = {n for n, c in contents.items() if c == AFTER}
            if signum != signal.SIGKILL and changed != _reported(run.stdout):
                t.fail(
                    "other failure", f"{len(changed ^ _reported(run.stdout))} writes not reported or not done"
                )
            t.notes.append(f"{len(changed)} of 400 written before the signal")
            if signum == signal.SIGKILL:
                time.sleep(0.5)
                if {p.name: p.read_bytes() for p in t.dir.glob("m*.py")} != contents:
                    t.fail("other failure", "files still changing after the command was killed")
                check_write(t, {}, expected={n: AFTER for n in contents})

        return case

    for signum, group in (
        (signal.SIGTERM, False),
        (signal.SIGHUP, False),
        (signal.SIGINT, True),
        (signal.SIGKILL, False),
    ):
        yield f"signal-{signum.name}-j2-write", 6, interrupted(signum, group)

    def two_runs(selects: tuple[str, str]):
        def case(t):
            both = HEAD + b"s.experimental_run_v2(f)\ns.experimental_distribute_datasets_from_function(g)\n"
            for n in range(150):
                t.write(f"t{n:03d}.py", both)
            start = time.monotonic()
            args = [["--write", "--select", code, "--output-format", "json", "."] for code in selects]
            processes = [t.popen(a) for a in args]
            runs = [t.finish(p, a, start) for p, a in zip(processes, args, strict=True)]
            rewrites = {"TF24101": b"s.run(f)", "TF24102": b"s.distribute_datasets_from_function(g)"}
            for code, run in zip(selects, runs, strict=True):
                t.code(run, 0, 2)
                written = [f["path"] for f in json.loads(run.stdout)["files"] if f["written"]]
                lost = [n for n in written if rewrites[code] not in (t.dir / n).read_bytes()]
                if lost:
                    t.fail(
                        "bytes lost",
                        f"the {code} run lost {len(lost)} of its reported rewrites, e.g. {lost[0]}",
                    )
            first = (b"s.experimental_run_v2(f)\n", b"s.run(f)\n")
            second = (
                b"s.experimental_distribute_datasets_from_function(g)\n",
                b"s.distribute_datasets_from_function(g)\n",
            )
            shapes = {HEAD + one + two for one in first for two in second}
            torn = [p.name for p in t.dir.glob("t*.py") if p.read_bytes() not in shapes]
            if torn:
                t.fail("bytes lost", f"{len(torn)} files are no mix of old and new lines, e.g. {torn[0]}")

        return case

    yield "concurrent-two-writes-other-rules", 1, two_runs(("TF24101", "TF24102"))
    yield "concurrent-two-writes-same-rule", 1, two_runs(("TF24101", "TF24101"))

    def editor(t):
        for n in range(600):
            t.write(f"e{n:03d}.py", BEFORE)
        edited = HEAD + b"# the user's edit\n" + CALL + b"\n"
        saved: set[str] = set()
        start = time.monotonic()
        process = t.popen(["--write", "-j", "2", "."], stdin=subprocess.DEVNULL, bufsize=0)
        first = process.stdout.readline()  # the run is writing: save files under it, last first
        for n in reversed(range(600)):
            path = t.dir / f"e{n:03d}.py"
            path.with_suffix(".swp").write_bytes(edited)
            os.replace(path.with_suffix(".swp"), path)  # as editors save
            saved.add(path.name)
            if process.poll() is not None:
                break
            time.sleep(0.001)
        run = t.finish(process, ["--write", "-j", "2", "."], start, None)
        t.code(run, 0, 2)
        for path in t.dir.glob("e*.py"):
            allowed = (edited, migrated(edited)) if path.name in saved else (BEFORE, AFTER)
            if path.read_bytes() not in allowed:
                t.fail("bytes lost", f"{path.name}: the user's edit was overwritten")
        reported = len(_reported(first + run.stdout))
        t.notes.append(f"{len(saved)} files saved during the run, {reported} writes reported")

    yield "concurrent-editor-saves", 1, editor


def _limits(files: int = 0, size: int = 0):
    def apply():
        if files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        if size:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


def theme_load(options):
    def many_jobs(mode: str):
        def case(t):
            for n in range(100):
                t.write(f"m{n:03d}.py", OLD)
            before = t.snapshot()
            run = t.run(mode, "-j", "40", ".", preexec=_limits(files=64))
            t.code(run, 1 if mode == "--check" else 0)
            t.message(run, says=("100 files scanned",), not_says=("Too many open files",))
            t.files(before, {n: NEW for n in before} if mode == "--write" else {}, run)

        return case

    yield "load-j40-ulimit64-check", 10, many_jobs("--check")
    yield "load-j40-ulimit64-write", 10, many_jobs("--write")

    def write_fails(t):
        t.write("train.py", OLD + b"# padding\n" * 2000)
        check_write(
            t,
            {},
            args=("--write", "--no-cache", "train.py"),
            codes=(2,),
            expected={},
            names=("train.py",),
            says=("cannot write",),
            preexec=_limits(size=8192),
        )
        t.notes.append("EFBIG from RLIMIT_FSIZE stands in for disk full")

    yield "load-write-fails-efbig", 13, write_fails

    def small_files(t):
        count = 2_000 if options.quick else 20_000
        for n in range(count):
            t.write(f"pkg{n % 20:02d}/m{n:05d}.py", OLD if n % 10 == 0 else b"x = %d\n" % n)
        before = t.snapshot()
        start = time.monotonic()
        run = t.run("--write", ".", timeout=900)
        t.code(run, 0)
        t.files(before, {n: migrated(d) for n, d in before.items()}, run)
        options.measures.append(f"measure: {count} small files --write in {time.monotonic() - start:.1f} s")

    yield "load-20000-small-files", 11, small_files

    def stdlib(t):
        root = Path(sysconfig.get_paths()["stdlib"])
        skip = ("site-packages", "test", "tests", "idlelib", "lib2to3", "__pycache__")
        sources = sorted(p for p in root.rglob("*.py") if not set(p.relative_to(root).parts) & set(skip))
        count = 100 if options.quick else 400
        chosen = sources[:: max(1, len(sources) // count)][:count]
        injected = b"import tensorflow as tf\nstrategy.experimental_run_v2(f)\n"
        for path in chosen:
            data = path.read_bytes()
            t.write(
                "lib/" + str(path.relative_to(root)),
                data + (b"" if data.endswith(b"\n") else b"\n") + injected,
            )
        before = t.snapshot()
        run = t.run("--write", "--output-format", "json", "lib", timeout=900)
        t.code(run, 0, 2)
        failed = {
            f["path"] for f in json.loads(run.stdout or b'{"files": []}')["files"] if f["status"] == "failed"
        }
        want = {
            n: d[: -len(injected)] + b"import tensorflow as tf\nstrategy.run(f)\n" for n, d in before.items()
        }
        t.files(before, want)
        after = t.snapshot()
        silent = [n for n in before if after[n] == before[n] and n not in failed]
        if silent:
            t.fail(
                "other failure", f"{len(silent)} due files left unchanged and not failed, e.g. {silent[0]}"
            )
        t.notes.append(f"{len(chosen)} files, {len(failed)} refused")

    yield "load-stdlib-injected", 4, stdlib

    def big_file(t):
        megabytes = options.big_mb
        block = b"".join(
            b"value_%04d = compute(%d, 'some text to fill the line')\n" % (i, i) for i in range(999)
        )
        block += CALL + b"\n"
        data = HEAD + block * max(1, megabytes * 1_000_000 // len(block))
        t.write("big.py", data)
        run, peak = measured(t, ["--write", "--no-cache", "big.py"], t.dir, 120 + 10 * megabytes)
        t.code(run, 0)
        t.files({"big.py": data}, {"big.py": migrated(data)}, run)
        t.write("small.py", OLD)
        _, baseline = measured(t, ["--check", "--no-cache", "small.py"], t.dir, TIMEOUT)
        ratio = (peak - baseline) * 1024 / len(data)
        options.measures.append(
            f"measure: big file {len(data) / 1e6:.0f} MB: {run.seconds:.1f} s, peak memory {peak / 1024:.0f} MB, "
            f"{baseline / 1024:.0f} MB for a small file: {ratio:.1f} times the file above that"
        )
        if ratio > 10:
            t.fail("other failure", f"peak memory {ratio:.1f} times the file (above a small file's)")

    yield f"load-big-file-{options.big_mb}mb", 11, big_file


def theme_command(options):
    def idempotent(t):
        check_write(t, {"train.py": OLD, "nb.ipynb": notebook_text(CELL_CODE)})
        before = t.snapshot()
        again = t.run("--write", ".")
        t.code(again, 0)
        t.files(before, {})
        if b"[fixed]" in again.stdout:
            t.fail("other failure", "a second --write fixed something again")

    yield "cmd-idempotent", 4, idempotent

    def deterministic(t):
        for n in range(30):
            t.write(f"m{n:02d}.py", BEFORE)
        first, second = t.run("--diff", "-j", "2", "--no-cache", "."), t.run("--diff", "-j", "1", ".")
        if first.stdout != second.stdout:
            t.fail("other failure", "two previews differ")

    yield "cmd-deterministic-diff", 6, deterministic

    def nothing_executed(t):
        payload = b"open('PWNED', 'w').write('ran')\nimport os; os.system('touch PWNED2')\n"
        check_write(t, {"evil.py": payload + OLD, "conftest.py": payload, "setup.py": payload + OLD})
        if (t.dir / "PWNED").exists() or (t.dir / "PWNED2").exists():
            t.fail("crash", "code from a scanned file ran")

    yield "cmd-nothing-executed", 12, nothing_executed

    def usage(args, says=(), codes=(2,)):
        def case(t):
            t.write("train.py", OLD)
            run = t.run(*args)
            t.code(run, *codes)
            t.message(run, says=says)
            if run.returncode == 2 and (t.dir / "train.py").read_bytes() != OLD:
                t.fail("bytes lost", "a usage error wrote the file")

        return case

    yield "cmd-unknown-rule", 12, usage(("--write", "--select", "TF99999", "train.py"), ("TF99999",))
    yield (
        "cmd-bad-target-version",
        12,
        usage(("--write", "--target-version", "banana", "train.py"), ("banana",)),
    )
    yield "cmd-negative-jobs", 12, usage(("--write", "-j", "-1", "train.py"), ("--jobs",))
    yield "cmd-unknown-option", 12, usage(("--wirte", "train.py"), ("--wirte",))
    yield "cmd-write-and-check", 12, usage(("--write", "--check", "train.py"), codes=(0, 1, 2))
    yield "cmd-bad-exclude-glob", 10, usage(("--write", "--exclude", "[", "train.py"), codes=(0, 2))
    yield "cmd-interactive-eof", 12, usage(("--interactive", "train.py"), codes=(0, 1, 2, 130))
    yield "cmd-files-from-fifo-stdin", 10, usage(("--check", "--files-from", "-", "train.py"), codes=(1,))

    def json_failure(t):
        t.write("bad.py", BROKEN["syntax-error"])
        run = t.run("--output-format", "json", "--write", "bad.py")
        t.code(run, 2)
        try:
            entry = json.loads(run.stdout)["files"][0]
        except (ValueError, KeyError, IndexError):
            t.fail("other failure", f"not a JSON document: {run.stdout[:80]!r}")
            return
        if entry["status"] != "failed" or not entry["error"]:
            t.fail("unclear message", f"a failed file in JSON: {entry}")

    yield "cmd-json-failed-file", 13, json_failure
