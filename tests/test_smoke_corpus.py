"""The public smoke corpus: the TF Model Garden 2.3.0 (`tf-models-official` from the package index),
real TensorFlow 2.3 code, migrated with `--write` as a user would; and the public corpora, checked
with and without the statement plan.

Invariants: every finding left to the user before the write is still reported after it (nothing
a fix touched hides work that remains), every comment survives except on lines a fix deleted,
every file still parses, and a second write changes nothing. Needs the package index (as CI and
the integration tests do); marked `corpus` so that an offline run can leave it out.
"""

from __future__ import annotations

import ast
import io
import json
import os
import subprocess
import sys
import tokenize
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from tf24migrate.model.tricks import VARIABLE

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

WHEEL = "tf-models-official==2.3.0"
# Public wheels of TF 2.3-era code and of Keras 2.15, all of whose files the plan must not change
# the output of (`test_the_plan_changes_no_output`); pure Python, a few MB each.
PUBLIC_CORPORA = (
    "tf-models-official==2.2.0",
    WHEEL,
    "tf-models-official==2.4.0",
    "tf-agents==0.6.0",
    "tensorflow-probability==0.11.1",
    "keras==2.15.0",
)


def unpacked_wheel(requirement: str, into: Path) -> Path:
    """The files of `requirement`'s wheel, downloaded from the package index and unpacked into
    `into`; the test is skipped when the index is out of reach."""
    downloads = into / "wheel"
    fetched = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(downloads), requirement],
        capture_output=True,
        text=True,
    )
    if fetched.returncode != 0:
        pytest.skip(f"the package index is out of reach: {fetched.stderr.strip()[-300:]}")
    (wheel,) = downloads.glob("*.whl")
    tree = into / "tree"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tree)
    return tree


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return unpacked_wheel(WHEEL, tmp_path_factory.mktemp("model_garden")) / "official"


def check(tree: Path, *extra: str, env: dict[str, str] | None = None) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--output-format", "json", *extra, str(tree)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def left_per_file(report: dict) -> dict[str, Counter]:
    left: dict[str, Counter] = {}
    for finding in report["findings"]:
        if not finding["applied"]:
            left.setdefault(finding["path"], Counter())[finding["code"]] += 1
    return left


def reported_per_file(report: dict) -> dict[str, Counter]:
    reported: dict[str, Counter] = {}
    for finding in report["findings"]:
        reported.setdefault(finding["path"], Counter())[finding["code"]] += 1
    return reported


def comments(text: str) -> Counter:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return Counter(token.string for token in tokens if token.type == tokenize.COMMENT)


def test_write_keeps_every_finding_left_to_the_user_and_every_comment(corpus):
    sources = {path: path.read_text(encoding="utf-8") for path in corpus.rglob("*.py")}
    before = check(corpus, "--check")
    changed = {Path(f["path"]) for f in before["files"] if f["status"] == "changed"}
    assert len(changed) >= 30, "the Model Garden 2.3.0 has dozens of files to migrate"
    left_before = left_per_file(before)
    assert sum(left.total() for left in left_before.values()) >= 10

    check(corpus, "--write")
    after = check(corpus, "--check")
    assert not [f for f in after["files"] if f["status"] == "changed"], "a second write would change more"
    reported_after = reported_per_file(after)
    for path, left in left_before.items():
        missing = left - reported_after.get(path, Counter())
        assert not missing, f"{path}: reported before --write, gone after it: {dict(missing)}"

    for path, old in sources.items():
        new = path.read_text(encoding="utf-8")
        ast.parse(new)
        lost = comments(old) - comments(new)
        assert not lost, f"{path}: comments lost: {list(lost)}"


@pytest.mark.parametrize("requirement", PUBLIC_CORPORA)
def test_the_plan_changes_no_output(requirement, tmp_path):
    """Every file of a public corpus: the output of a cold check is the same with the statement
    plan and without it (`TF24MIGRATE_OFF=pruning`: every file the prefilter lets through parsed and walked
    whole). A rule whose triggers miss a line it must see fails here, rather than losing findings."""
    tree = unpacked_wheel(requirement, tmp_path)
    with_plan = check(tree, "--check", "--no-cache")
    without = check(tree, "--check", "--no-cache", env={**os.environ, VARIABLE: "pruning"})
    assert with_plan["summary"]["files_scanned"] >= 200, "the whole wheel is checked"
    assert without == with_plan
