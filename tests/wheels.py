"""The package's wheel, built as a release builds it, for the tests that install it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(folder: Path) -> Path:
    """Build tf24migrate's wheel (without its dependencies) into `folder`; its path."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(folder),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = folder.glob("tf24migrate-*.whl")
    return wheel
