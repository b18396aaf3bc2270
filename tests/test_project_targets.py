"""Each file's own project (issue 45, goal 3): without `--target-version` or `target-version`, a
file's target comes from the nearest project metadata above the file, as ruff and black find their
configuration, whatever folder is named; the summary and the JSON document name each project met
with its target. Run through the real command and the library on small trees."""

from __future__ import annotations

import json
import textwrap

from command_line import run_in_process

from tf24migrate import migrate_paths

# Four fixes whose new spellings first exist in TF 2.4: applied for a 2.4 target, only reported
# below it (applied, they would break TF 2.3).
SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf

    policy = tf.keras.mixed_precision.experimental.Policy("mixed_float16")
    tf.keras.mixed_precision.experimental.set_policy(policy)
    strategy = tf.distribute.MirroredStrategy()
    dataset = strategy.experimental_distribute_datasets_from_function(make_dataset)
    """
)


def tree(root, files: dict[str, str]):
    """`files` (path: text) under `root`, a repository's root (it holds `.git`)."""
    (root / ".git").mkdir()
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def summary(stderr: str) -> str:
    (line,) = [line for line in stderr.splitlines() if " scanned, " in line]
    return line


def test_a_subproject_keeps_its_target_when_the_root_without_metadata_is_written(tmp_path):
    tree(tmp_path, {"top.py": SOURCE, "sub/requirements.txt": "tensorflow>=2.3.0\n", "sub/train.py": SOURCE})
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sub" / "train.py").read_text() == SOURCE  # the rewrites would break TF 2.3
    assert "distribute_datasets_from_function(make_dataset)" in (tmp_path / "top.py").read_text()
    assert "./sub/train.py:6:11: TF24102 info " in result.stdout
    assert "the target is TensorFlow 2.3 (from sub/requirements.txt: tensorflow>=2.3.0)" in result.stdout
    line = summary(result.stderr)
    assert "; 2 projects: " in line
    assert "(no project) with target TensorFlow 2.4 (default: no project metadata found)" in line
    assert "sub with target TensorFlow 2.3 (from sub/requirements.txt: tensorflow>=2.3.0)" in line


def test_a_subproject_does_not_take_the_root_s_tf1_target(tmp_path):
    tree(
        tmp_path,
        {
            "requirements.txt": "tensorflow==1.15.5\n",
            "legacy.py": SOURCE,
            "new/requirements.txt": "tensorflow>=2.4\n",
            "new/train.py": SOURCE,
            "open/requirements.txt": "tensorflow>=2.3.0\n",
            "open/train.py": SOURCE,
        },
    )
    result = run_in_process("--diff", ".", cwd=tmp_path)
    assert "+++ b/new/train.py" in result.stdout
    assert "legacy.py" not in result.stdout  # TF 1.15 has none of the new spellings
    assert "open/train.py" not in result.stdout
    assert (
        "./open/train.py:4:1: TF24302 warning `tf.keras.mixed_precision.experimental.set_policy` is "
        "`tf.keras.mixed_precision.set_global_policy` from TF 2.4 (stops working in TensorFlow 2.9, "
        "which the requirement allows; not fixed: needs TensorFlow 2.4, the target is 2.3)."
    ) in result.stderr.splitlines()
    line = summary(result.stderr)
    assert "; 3 projects: " in line
    assert ". with target TensorFlow 1.15 (from requirements.txt: tensorflow==1.15.5)" in line
    assert "new with target TensorFlow 2.4 (from new/requirements.txt: tensorflow>=2.4)" in line
    assert "open with target TensorFlow 2.3 (from open/requirements.txt: tensorflow>=2.3.0)" in line
    document = json.loads(run_in_process("--output-format", "json", ".", cwd=tmp_path).stdout)
    assert "target" not in document
    assert sorted((entry["project"], entry["target"]["version"]) for entry in document["config"]) == [
        (".", "1.15"),
        ("new", "2.4"),
        ("open", "2.3"),
    ]
    assert {entry["path"]: entry["project"] for entry in document["files"]} == {
        "./legacy.py": ".",
        "./new/train.py": "new",
        "./open/train.py": "open",
    }
    assert {f["path"] for f in document["findings"] if f["applied"]} == {"./new/train.py"}


def test_nested_projects_and_a_named_subfolder(tmp_path):
    tree(
        tmp_path,
        {
            "requirements.txt": "tensorflow>=2.3.0\n",
            "a/setup.cfg": "[options]\ninstall_requires =\n    tensorflow>=2.4\n",
            "a/pkg/m.py": SOURCE,  # no metadata in `pkg`: `a`'s
            "a/pkg/old/environment.yml": "dependencies:\n  - tensorflow=2.3\n",
            "a/pkg/old/m.py": SOURCE,
        },
    )
    for named in (".", "a", "a/pkg"):
        result = run_in_process("--diff", named, cwd=tmp_path)
        output = result.stdout.replace("./", "")
        changed = {line.split()[1] for line in output.splitlines() if line.startswith("+++ b/")}
        assert changed == {"b/a/pkg/m.py"}, (named, result.stdout)
        assert "a/pkg/old/m.py:3:10: TF24301 info " in result.stderr.replace("./", ""), named
        assert "2 projects: a with target TensorFlow 2.4 (from a/setup.cfg: tensorflow>=2.4), a/pkg/old " in (
            summary(result.stderr)
        ), named


def test_an_explicit_target_wins_over_every_project(tmp_path):
    tree(
        tmp_path,
        {
            "requirements.txt": "tensorflow>=2.3.0\n",
            "top.py": SOURCE,
            "sub/requirements.txt": "tensorflow==1.15.5\n",
            "sub/train.py": SOURCE,
        },
    )
    result = run_in_process("--check", "--target-version", "2.4", ".", cwd=tmp_path)
    assert [line for line in result.stdout.splitlines() if line.startswith("would change: ")] == [
        "would change: ./sub/train.py",
        "would change: ./top.py",
    ]
    assert "; target TensorFlow 2.4 (from --target-version) in " in summary(result.stderr)
    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\ntarget-version = "2.4"\n')
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert [line for line in result.stdout.splitlines() if line.startswith("would change: ")] == [
        "would change: ./sub/train.py",
        "would change: ./top.py",
    ]
    assert "; target TensorFlow 2.4 (from pyproject.toml [tool.tf24migrate]); config pyproject.toml in " in (
        summary(result.stderr)
    )


def test_the_library_reads_each_file_s_project(tmp_path):
    tree(
        tmp_path,
        {
            "requirements.txt": "tensorflow>=2.4\n",
            "a.py": SOURCE,
            "sub/requirements.txt": "tensorflow>=2.3.0\n",
            "sub/b.py": SOURCE,
            "z.py": SOURCE,
        },
    )
    for jobs in (1, 2):
        results = {r.path: r for r in migrate_paths([str(tmp_path)], jobs=jobs)}
        assert [r.changed for r in results.values()] == [True, False, True]  # sorted: a, sub/b, z
        (b,) = [r for path, r in results.items() if path.endswith("b.py")]
        assert {f.severity.value for f in b.findings} == {"warning", "info"}
        assert all("the target is 2.3" in f.message for f in b.findings)
    assert all(r.changed for r in migrate_paths([str(tmp_path)], target_version="2.4"))
    (sub,) = migrate_paths([str(tmp_path / "sub")])  # a subproject named: its own
    assert not sub.changed


def test_a_setup_py_reading_its_requirements_from_a_dict_keeps_the_pinned_target(tmp_path):
    # TensorFlowTTS's setup.py as released for TF 2.3: `install_requires` is a list of a dict,
    # read by its key; the pin must hold, or `--write` applies rewrites that break TF 2.3.0.
    setup = textwrap.dedent(
        """\
        from setuptools import setup
        requirements = {"install": ["tensorflow-gpu==2.3.0", "librosa>=0.7.0"], "test": ["pytest"]}
        install_requires = requirements["install"]
        setup(name="tts", install_requires=install_requires, tests_require=requirements["test"])
        """
    )
    tree(tmp_path, {"setup.py": setup, "train.py": SOURCE})
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_text() == SOURCE
    assert "target TensorFlow 2.3 (from setup.py: tensorflow-gpu==2.3.0)" in summary(result.stderr)


def test_a_module_named_setup_py_that_calls_no_setup_makes_no_project(tmp_path):
    # NVIDIA DeepLearningExamples' `utils/setup.py` defines `set_flags()` and never calls
    # `setup()`: `utils` is part of the root's project, pinned to TF 2.3, and `--write` must not
    # apply the TF 2.4-only spellings there. A `setup.py` that calls `setup(...)` is a project.
    plain = textwrap.dedent(
        """\
        \"\"\"Flags for the examples: call setup(params) before training.\"\"\"
        import os

        def setup(params):  # a function of that name is not setuptools'
            os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
        """
    )
    packaged = (
        "import setuptools\n\nsetuptools.setup(\n    name='pkg', install_requires=['tensorflow>=2.4']\n)\n"
    )
    tree(
        tmp_path,
        {
            "requirements.txt": "tensorflow==2.3.0\n",
            "utils/setup.py": plain,
            "utils/helpers.py": SOURCE,
            "pkg/setup.py": packaged,
            "pkg/train.py": SOURCE,
        },
    )
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "utils" / "helpers.py").read_text() == SOURCE
    assert (tmp_path / "pkg" / "train.py").read_text() != SOURCE
    line = summary(result.stderr)
    assert "; 2 projects: " in line
    assert "pkg with target TensorFlow 2.4 (from pkg/setup.py: tensorflow>=2.4)" in line
    assert ". with target TensorFlow 2.3 (from requirements.txt: tensorflow==2.3.0)" in line


def _notebook(*lines: str) -> str:
    """A notebook of one code cell per line given, and a cell of `SOURCE`."""
    cells = [*lines, SOURCE]
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": cell}
                for cell in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_notebook_that_installs_tensorflow_has_that_target(tmp_path):
    """Run, the notebook installs TF 2.3.0 and runs there: the TF 2.4 spellings would raise
    AttributeError (`set_global_policy`), whatever the project around it requires."""
    pinned = _notebook("!pip install -q tensorflow==2.3.0\n")
    tree(tmp_path, {"requirements.txt": "tensorflow>=2.4\n", "a.py": SOURCE, "train.ipynb": pinned})
    (tmp_path / "free.ipynb").write_text(_notebook("!pip install -q tensorflow-datasets==4.0\n"))
    assert [r.changed for r in migrate_paths([str(tmp_path)])] == [True, True, False]  # a, free, train
    assert [r.changed for r in migrate_paths([str(tmp_path / "train.ipynb")])] == [False]
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.ipynb").read_text() == pinned
    assert "set_global_policy" in (tmp_path / "a.py").read_text()
    assert "set_global_policy" in (tmp_path / "free.ipynb").read_text()
    line = summary(result.stderr)
    assert "; 2 projects: . with target TensorFlow 2.4 (from requirements.txt: tensorflow>=2.4), " in line
    assert (
        "train.ipynb with target TensorFlow 2.3 (from train.ipynb: !pip install -q tensorflow==2.3.0)" in line
    )
    result = run_in_process("--check", "train.ipynb", cwd=tmp_path)  # named alone: the same
    assert result.returncode == 0, result.stderr
    assert "; target TensorFlow 2.3 (from train.ipynb: !pip install -q tensorflow==2.3.0) in " in summary(
        result.stderr
    )
    result = run_in_process("--check", "--target-version", "2.4", "train.ipynb", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # an explicit target wins


def test_what_a_notebook_installs_is_read_from_its_shell_lines(tmp_path):
    from tf24migrate.run.project_metadata import notebook_target

    def target(line: str):
        (tmp_path / "n.ipynb").write_text(_notebook(line))
        found = notebook_target(str(tmp_path / "n.ipynb"))
        return found and (found.version, found.newest)

    assert target("!pip install -q tensorflow==2.3.0\n") == ((2, 3), (2, 3))
    assert target("%pip install tensorflow-gpu==2.2.1 numpy\n") == ((2, 2), (2, 2))
    assert target("!python -m pip install 'tensorflow>=2.3'\n") == ((2, 3), None)
    assert target("!pip install tensorflow~=2.3.0\n") == ((2, 3), (2, 3))
    assert target("!pip install tensorflow\n") is None  # the newest: nothing to read
    assert target("!pip install tensorflow-datasets==4.0\n") is None
    assert target("x = '!pip install tensorflow==2.3.0'\n") is None  # a string, not a shell line
