"""The real TensorFlow releases the integration tests run programs on, each in a virtual environment
of its own made from a Python 3.8 (`tf24migrate.verify.runtimes` makes them, as `tf24migrate
verify` does).

    python scripts/runtimes.py           # make the missing environments, print where each is
    python scripts/runtimes.py --list    # print where each is, make nothing

Where there is no Python 3.8, nothing is made, the tests that need one skip with the reason, and
this exits 0: CI runs the rest. Runs before the package is installed (`.ci/run`): it imports it
from the repository.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tf24migrate.verify.runtimes import (
    MARKER,
    PYTHON,
    RELEASES,
    RuntimeUnavailable,
    cache_root,
    environment,
    find_interpreter,
    how_to_get_python,
    make,
    runtime_python,
)

HOW_TO_GET_PYTHON = how_to_get_python("python scripts/runtimes.py")
__all__ = ["MARKER", "PYTHON", "RELEASES", "cache_root", "environment", "find_interpreter", "runtime_python"]


def main(argv: list[str]) -> int:
    listing = "--list" in argv
    interpreter = find_interpreter()
    for release in RELEASES:
        python = runtime_python(release)
        if python is None and not listing:
            if interpreter is None:
                print(f"runtimes: TensorFlow {release} skipped: {HOW_TO_GET_PYTHON}")
                continue
            try:
                python = make(release, interpreter, lambda step: print(f"runtimes: {step}", flush=True))
            except RuntimeUnavailable as error:
                raise SystemExit(f"runtimes: error: {error}") from None
        print(f"runtimes: TensorFlow {release}: {python or 'not made'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
