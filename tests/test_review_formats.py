"""In a pull request: GitHub annotations, SARIF and reviewdog's rdjson name files from the repository's
root (the git top level, or `--project-root`) wherever the command runs, rdjson carries a
suggestion per fixable finding, and `--diff --output-format github` gives the patch and the
annotations from one run."""

from __future__ import annotations

import json
import subprocess

import pytest
from command_line import run_in_process

# `é` before the call: rdjson's columns count UTF-8 bytes, the text's count characters.
TRAIN = (
    "import tensorflow as tf\n"
    "\n"
    "strategy = tf.distribute.MirroredStrategy()\n"
    'name = "é"; strategy.experimental_run_v2(step_fn)\n'
    "parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)\n"
)


@pytest.fixture
def repository(tmp_path):
    """A git repository whose project is in `services/model`; the command runs there."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    project = tmp_path / "services" / "model"
    project.mkdir(parents=True)
    (project / "train.py").write_text(TRAIN, encoding="utf-8")
    return project


def test_github_annotations_name_files_from_the_git_top_level(repository):
    result = run_in_process("--check", "--output-format", "github", ".", cwd=repository)
    assert result.returncode == 1, result.stderr
    files = [line.split("file=")[1].split(",")[0] for line in result.stdout.splitlines()]
    assert files == ["services/model/train.py", "services/model/train.py"]


def test_project_root_names_files_from_the_folder_given(repository):
    result = run_in_process(
        "--check", "--output-format", "github", "--project-root", "..", ".", cwd=repository
    )
    assert "file=model/train.py," in result.stdout
    missing = run_in_process(
        "--check", "--output-format", "github", "--project-root", "nowhere", ".", cwd=repository
    )
    assert missing.returncode == 2
    assert missing.stderr.startswith("tf24migrate: error: --project-root nowhere: not a folder")


def test_sarif_uris_are_relative_to_the_source_root(repository):
    log = json.loads(run_in_process("--check", "--output-format", "sarif", ".", cwd=repository).stdout)
    (sarif_run,) = log["runs"]
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repository.parent.parent.as_uri() + "/"
    locations = [
        result["locations"][0]["physicalLocation"]["artifactLocation"] for result in sarif_run["results"]
    ]
    assert locations == [{"uri": "services/model/train.py", "uriBaseId": "%SRCROOT%"}] * 2


def test_rdjson_suggestion_per_fixable_finding_applies_as_the_write_does(repository):
    result = run_in_process("--output-format", "rdjson", ".", cwd=repository)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert document["source"] == {"name": "tf24migrate"}
    fixable, left = document["diagnostics"]
    assert fixable["code"] == {"value": "TF24101"}
    assert fixable["severity"] == "ERROR"
    assert fixable["location"]["path"] == "services/model/train.py"
    # `strategy.experimental_run_v2`: characters 13 to 41, bytes 14 to 42 (`é` is two bytes)
    assert fixable["location"]["range"] == {
        "start": {"line": 4, "column": 14},
        "end": {"line": 4, "column": 42},
    }
    assert left["code"] == {"value": "TF24202"} and "suggestions" not in left
    (suggestion,) = fixable["suggestions"]
    # Applied as reviewdog does (whole lines, the end exclusive), it gives what --write writes.
    lines = TRAIN.splitlines(keepends=True)
    start, end = suggestion["range"]["start"], suggestion["range"]["end"]
    assert start["column"] == end["column"] == 1
    suggested = "".join(lines[: start["line"] - 1]) + suggestion["text"] + "".join(lines[end["line"] - 1 :])
    assert run_in_process("--write", "-q", ".", cwd=repository).returncode == 1  # TF24202 is left
    assert (repository / "train.py").read_text(encoding="utf-8") == suggested


def test_rdjson_after_write_has_no_suggestion(repository):
    document = json.loads(run_in_process("--write", "--output-format", "rdjson", ".", cwd=repository).stdout)
    assert [d["code"]["value"] for d in document["diagnostics"]] == ["TF24101", "TF24202"]
    assert not any("suggestions" in d for d in document["diagnostics"])


def test_check_diff_github_prints_the_patch_and_the_annotations(repository):
    result = run_in_process("--check", "--diff", "--output-format", "github", ".", cwd=repository)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:2] == ["--- a/train.py", "+++ b/train.py"]
    assert [line.split(" ")[0] for line in lines if line.startswith("::")] == ["::error", "::error"]
    # The same output is a patch git applies (it skips the annotations between two files' diffs).
    (repository / "patch").write_text(result.stdout, encoding="utf-8")
    subprocess.run(["git", "apply", "patch"], cwd=repository, check=True, capture_output=True)
    assert "strategy.run(step_fn)" in (repository / "train.py").read_text(encoding="utf-8")
    # Without --diff, the annotations alone, as before.
    alone = run_in_process("--output-format", "github", ".", cwd=repository)
    assert all(line.startswith("::") for line in alone.stdout.splitlines())
