"""`--since REF`: the files a branch changes, as pre-commit's `--from-ref` takes them: those that
differ between the merge base of REF and HEAD and the working tree (committed, staged or not),
and the untracked files git does not ignore; deleted files are not. `git diff main` alone would
also take what changed on `main` since the branch point: the merge base is what `main...` means.

With `--only-changed-lines`, the lines each file changes (an untracked file: every line), so that
only the findings on them are reported.
"""

from __future__ import annotations

import os
import re
import subprocess

from tf24migrate.cli.usage import fail

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.M)


def _git(*args: str, cwd: str = ".", failed: str | None = None) -> bytes:
    """git's output; when it fails, a usage error: `failed`, else git's own last line."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as error:
        raise fail(f"--since needs git, which cannot run: {error.strerror or error}") from None
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise fail(failed or f"--since: git {args[0]} failed: {why[-1] if why else done.returncode}")
    return done.stdout


def changed_files(ref: str) -> tuple[str, list[str], list[str]]:
    """The merge base of `ref` and HEAD, the files changed since it (tracked), and the untracked
    files not ignored: paths relative to the current folder, in git's order."""
    if ref.startswith("-"):
        raise fail(f"--since {ref}: not a git reference (a branch, a tag or a commit)")
    top = _git(
        "rev-parse", "--show-toplevel", failed="--since works in a git repository: this folder is in none"
    )
    top_folder = os.fsdecode(top.rstrip(b"\n"))
    base = _git(
        "merge-base",
        ref,
        "HEAD",
        failed=f"--since {ref}: git knows no commit by that name that shares history with HEAD (fetch it first?)",
    )
    since = base.decode().strip()
    tracked = _git(
        "diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", since, "--", cwd=top_folder
    )
    untracked = _git("ls-files", "-z", "--others", "--exclude-standard", cwd=top_folder)

    def names(output: bytes) -> list[str]:
        return [
            os.path.relpath(os.path.join(top_folder, os.fsdecode(name)))
            for name in output.split(b"\0")
            if name
        ]

    return since, names(tracked), names(untracked)


def changed_lines(base: str, files: list[str]) -> dict[str, frozenset[int]]:
    """The lines (1-based, as they are now) each of `files` (tracked) changes since `base`, by
    absolute path; a file whose changes only remove lines has none."""
    lines: dict[str, frozenset[int]] = {}
    for path in files:
        diff = _git("diff", "-U0", "--no-renames", "--no-ext-diff", "--no-color", base, "--", path)
        numbers: set[int] = set()
        for match in _HUNK.finditer(diff):
            start, count = int(match.group(1)), int(match.group(2) or 1)
            numbers.update(range(start, start + count))
        lines[os.path.abspath(path)] = frozenset(numbers)
    return lines
