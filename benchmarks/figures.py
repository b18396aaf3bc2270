"""The counts docs/performance.md quotes, taken from runs of the installed command.

    python benchmarks/figures.py            # print them
    python benchmarks/figures.py --write    # and rewrite their block in docs/performance.md

The rules registered (`tf24migrate --list-rules --output-format json`), and for the Model Garden
2.3.0 (`tf-models-official`, fetched as `models.py` fetches it) the files, those that mention
TensorFlow, and what `tf24migrate --check --output-format json --no-cache` finds there: files to
change, findings, fixable and left to the user. The page's timing figures are quoted by hand
from the other scripts' runs; these counts are not, so they cannot go stale unnoticed
(tests/test_conventions.py compares the block's rule count with the registry, which
`python -m tf24migrate.dev regen` also writes there, and its Model Garden counts with a run).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from tf24migrate.dev.__main__ import RULE_COUNT

PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
BEGIN, END = "<!-- figures.py: begin -->", "<!-- figures.py: end -->"


def command(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def rule_counts() -> dict:
    rules = json.loads(command("--list-rules", "--output-format", "json").stdout)
    return {"rules": len(rules), "default": sum(rule["default"] for rule in rules)}


def corpus_counts(folder: Path) -> dict:
    """What the command finds in `folder` (a fresh process, no cache)."""
    files = sorted(folder.rglob("*.py"))
    run = command("--check", "--output-format", "json", "--no-cache", "--quiet", ".", cwd=folder)
    document = json.loads(run.stdout)
    findings = document["findings"]
    return {
        "files": len(files),
        "mention": sum("tensorflow" in path.read_text(errors="replace") for path in files),
        "changed": document["summary"]["files_changed"],
        "findings": len(findings),
        "fixable": sum(finding["applied"] for finding in findings),
        "reported": sum(not finding["applied"] for finding in findings),
    }


def block(rules: dict, garden: dict) -> str:
    return "\n".join(
        [
            BEGIN,
            RULE_COUNT.format(rules=rules["rules"], default=rules["default"]),
            f"- Model Garden 2.3.0 (`tf-models-official==2.3.0`): {garden['files']} `.py` files, "
            f"{garden['mention']} of them mention TensorFlow; `--check` finds {garden['changed']} files "
            f"to change and **{garden['findings']} findings**, {garden['fixable']} fixable and "
            f"{garden['reported']} left to the user",
            END,
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite their block in docs/performance.md")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from models import unpacked_release

    text = block(rule_counts(), corpus_counts(unpacked_release()))
    print(text)
    if args.write:
        page = PAGE.read_text(encoding="utf-8")
        pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
        PAGE.write_text(pattern.sub(lambda _: text, page), encoding="utf-8")
        print(f"wrote docs/{PAGE.name}")


if __name__ == "__main__":
    main()
