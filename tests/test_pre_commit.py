"""The pre-commit hooks, through `pre-commit try-repo` on a throwaway git repository.

pre-commit builds a virtual environment and installs this repository into it from the package
registry's dependencies, so this test needs the registry and takes a while: it is marked slow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import NEW, OLD

ROOT = Path(__file__).resolve().parent.parent


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_hooks_check_then_write(tmp_path):
    repository = tmp_path / "project"
    repository.mkdir()
    git("init", "-q", cwd=repository)
    (repository / "train.py").write_text(OLD)
    (repository / "clean.py").write_text("x = 1\n")
    git("add", ".", cwd=repository)
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }

    def try_repo(hook):
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files"],
            cwd=repository,
            env=environment,
            capture_output=True,
            text=True,
        )

    checked = try_repo("tf24migrate-check")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "would change: train.py" in checked.stdout
    assert (repository / "train.py").read_text() == OLD

    written = try_repo("tf24migrate")
    assert written.returncode == 1  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in written.stdout
    assert (repository / "train.py").read_text() == NEW

    assert try_repo("tf24migrate-check").returncode == 0
