"""Runs Python programs on the TensorFlow installed in the interpreter that runs this file.

    python harness.py REQUEST.json

REQUEST holds `{"programs": [{"path": ..., "fresh": false, "env": {}}, ...], "jobs": 2,
"timeout": 120}`. TensorFlow is imported once, then each program runs in a child forked from this
process (about 0.3 s instead of the 2 s an import costs), at most `jobs` at a time; a program with
`"fresh": true` (one that sets environment variables TensorFlow reads when it is imported) runs in a
new interpreter instead. The last line printed is a JSON list, in the order of the request, of
`{"path", "returncode", "stdout", "stderr", "error", "lines"}`: `error` is the last line of the
exception that ended the program (`"TypeError: ..."`, empty when it ran), `lines` the line numbers
of the program's own frames in its traceback, outermost first.

Runs on the interpreters of the releases under test (Python 3.6 to 3.11): standard library only.
"""

import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import traceback


def run_one(path, result_path):
    """Run the program at `path` in this process and write its `error` and `lines` to
    `result_path`; returns the exit status."""
    status, error, lines = 0, "", []
    sys.argv = [path]
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException as exc:  # every failure of the program is its outcome
        traceback.print_exc()
        status = 1
        error = traceback.format_exception_only(type(exc), exc)[-1].strip()
        lines = [frame.lineno for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == path]
    sys.stdout.flush()
    sys.stderr.flush()
    with open(result_path, "w") as handle:
        json.dump({"error": error, "lines": lines}, handle)
    return status


def _start(program, workdir, index, timeout):
    """Start one program; returns (pid or Popen, the files its outcome is written to)."""
    path = os.path.abspath(program["path"])
    files = {name: os.path.join(workdir, f"{index}.{name}") for name in ("out", "err", "json")}
    env = program.get("env") or {}
    if program.get("fresh"):
        with open(files["out"], "w") as out, open(files["err"], "w") as err:
            command = [sys.executable, os.path.abspath(__file__), "--one", path, files["json"]]
            process = subprocess.Popen(command, stdout=out, stderr=err, env=dict(os.environ, **env))
        return process, files
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid, files
    try:
        os.environ.update(env)
        for fd, name in ((1, "out"), (2, "err")):
            target = os.open(files[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(target, fd)
            os.close(target)
        signal.alarm(timeout)
        os.chdir(os.path.dirname(path))
        os._exit(run_one(path, files["json"]))
    except BaseException:
        os._exit(70)


def _wait(handle, timeout):
    if isinstance(handle, subprocess.Popen):
        try:
            return handle.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            handle.kill()
            return -signal.SIGKILL
    _, status = os.waitpid(handle, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _read(path):
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _outcome(program, status, files):
    try:
        with open(files["json"]) as handle:
            details = json.load(handle)
    except (OSError, ValueError):
        details = {"error": f"killed by signal {-status}" if status < 0 else "no outcome", "lines": []}
    return dict(
        path=program["path"],
        returncode=status,
        stdout=_read(files["out"]),
        stderr=_read(files["err"]),
        **details,
    )


def run_all(request):
    timeout = int(request.get("timeout", 120))
    jobs = max(1, int(request.get("jobs", 1)))
    programs = request["programs"]
    outcomes = [None] * len(programs)
    with tempfile.TemporaryDirectory() as workdir:
        running = []
        for index, program in enumerate(programs):
            running.append((index, _start(program, workdir, index, timeout)))
            while len(running) >= jobs or (running and index == len(programs) - 1):
                done, (handle, files) = running.pop(0)
                outcomes[done] = _outcome(programs[done], _wait(handle, timeout), files)
    return outcomes


def main(argv):
    if argv[1:2] == ["--one"]:
        import tensorflow  # as the forked children have it

        return run_one(argv[2], argv[3])
    with open(argv[1]) as handle:
        request = json.load(handle)
    import tensorflow  # noqa: F401  (once, for every forked program)

    print(json.dumps(run_all(request)))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    sys.exit(main(sys.argv))
