"""tf24migrate on a real TF 2.3 codebase: the TensorFlow Model Garden as released for 2.3.

    python benchmarks/models.py [--jobs N]

Downloads `tf-models-official==2.3.0` with pip (no dependencies) into `benchmarks/.data/`
(ignored by git), unpacks its `.py` files there, and compares, in one run, tf24migrate
(`--check`, a fresh process) with `ast.parse`, `libcst.parse_module` and `tf_upgrade_v2`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import zipfile
from pathlib import Path

from speed import (
    DATA,
    against_ast_parse,
    cache_bytecode,
    libcst_parse_all,
    print_against_tf_upgrade_v2,
    timed,
)

RELEASE = "tf-models-official==2.3.0"


def unpacked_release() -> Path:
    target = DATA / "tf-models-official-2.3.0"
    if target.is_dir():
        return target
    DATA.mkdir(parents=True, exist_ok=True)
    wheels = list(DATA.glob("tf_models_official-2.3.0-*.whl"))
    if not wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(DATA), RELEASE],
            check=True,
        )
        wheels = list(DATA.glob("tf_models_official-2.3.0-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(target, [name for name in wheel.namelist() if name.endswith(".py")])
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=None, help="tf24migrate's --jobs (default: all cores)")
    args = parser.parse_args()
    cache_bytecode()
    folder = unpacked_release()
    files = sorted(folder.rglob("*.py"))
    mentions = sum("tensorflow" in p.read_text(errors="replace") for p in files)
    print(f"{RELEASE}: {len(files)} .py files, {mentions} of them mention tensorflow")
    t_ast, t_ours = against_ast_parse(files, args.jobs)
    t_cst = timed(lambda: libcst_parse_all(files), repeat=2)
    print(
        f"libcst.parse_module {t_cst:.2f}s -> tf24migrate takes {t_ours / t_ast:.2f}x ast.parse, "
        f"{t_ours / t_cst:.2f}x libcst.parse_module"
    )
    print_against_tf_upgrade_v2(folder, t_ours)


if __name__ == "__main__":
    main()
