"""The target version: specifiers, project metadata, the flag and the key, gated fixes and severity."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest
from command_line import run_in_process

from tf24migrate import Severity, migrate_paths, migrate_source
from tf24migrate.catalogue.selection import all_rules
from tf24migrate.dev.scaffold import VERSIONS_TO_WRITE
from tf24migrate.model.target import (
    DEFAULT_TARGET,
    NEWEST_KNOWN,
    Target,
    TargetVersionError,
    lowest_and_newest,
    parse_version,
    target_of,
)
from tf24migrate.run.project_metadata import _conda_specifier, _poetry_specifier, project_target

ROOT = pathlib.Path(__file__).resolve().parent.parent
OLD = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    strategy.experimental_run_v2(step_fn)
    strategy.experimental_distribute_datasets_from_function(dataset_fn)
    """
)
MIXED = textwrap.dedent(
    """\
    import tensorflow as tf

    tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
    """
)


# --- specifiers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "lowest", "newest"),
    [
        (">=2.3,<2.5", (2, 3), (2, 4)),
        ("~=2.3", (2, 3), None),  # >=2.3, ==2.*: no upper bound among known releases
        ("==2.4.*", (2, 4), (2, 4)),
        (">2.3", (2, 3), None),  # 2.3.1 is a release, and 2.3.1 > 2.3
        (">2.3.4", (2, 4), None),  # 2.3.4 was the last 2.3 release
        ("<2.5", (1, 15), (2, 4)),  # admits TF 1.15
        (">=2.3,!=2.3.*", (2, 4), None),
        ("==2.2.3", (2, 2), (2, 2)),
        (">=2.16", (2, 16), None),
        # a pre-release of X.Y is X.Y's API: pinned exactly, or as a floor
        ("==2.3.0rc0", (2, 3), (2, 3)),
        ("==2.0.0a0", (2, 0), (2, 0)),
        ("===2.3.0rc2", (2, 3), (2, 3)),
        (">=2.2.0rc1", (2, 2), None),
        ("~=2.3.0rc0", (2, 3), (2, 3)),
    ],
)
def test_the_lowest_known_release_a_specifier_allows(specifier, lowest, newest):
    assert lowest_and_newest([specifier]) == (lowest, newest)


def test_specifiers_that_give_no_version():
    assert lowest_and_newest([""]) is None  # a bare `tensorflow` says nothing about the version
    assert lowest_and_newest(["<1"]) is None  # allows no release
    assert lowest_and_newest(["not a specifier"]) is None


@pytest.mark.parametrize(
    ("specifier", "lowest", "newest"),
    [
        (">=2.25", (2, 25), None),
        ("==2.25.*", (2, 25), (2, 25)),
        (">=2.25,<2.27", (2, 25), (2, 26)),
        (">2.25.3", (2, 25), None),  # a later 2.25 release may come
        (">=3", (3, 0), None),
    ],
)
def test_a_specifier_that_allows_only_releases_to_come_gives_their_floor(specifier, lowest, newest):
    assert lowest_and_newest([specifier]) == (lowest, newest)


def test_several_specifiers_take_the_lowest_floor_and_the_highest_cap():
    assert lowest_and_newest([">=2.4,<2.6", "==2.3.*"]) == ((2, 3), (2, 5))
    assert lowest_and_newest([">=2.4,<2.6", ">=2.5"]) == ((2, 4), None)


@pytest.mark.parametrize(
    ("entry", "specifier"),
    [
        ("tensorflow=2.3", "==2.3.*"),
        ("tensorflow 2.3.*", "==2.3.*"),
        ("conda-forge::tensorflow=2.3.0=mkl_py38", "==2.3.0.*"),
        ("tensorflow-gpu>=2.2,<2.5", ">=2.2,<2.5"),
        ("tensorflow", ""),
        ("numpy=1.19", None),
    ],
)
def test_conda_match_specs(entry, specifier):
    assert _conda_specifier(entry) == specifier


# --- project metadata ---------------------------------------------------------------------------


def write(folder, files: dict[str, str]):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


def test_pyproject_dependencies_and_optional_dependencies(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": """\
            [project]
            name = "demo"
            dependencies = ["numpy", "tensorflow>=2.4,<2.6"]
            [project.optional-dependencies]
            gpu = ["tensorflow-gpu~=2.3"]
            """,
            "src/demo/train.py": "",
        },
    )
    target = project_target(str(tmp_path / "src" / "demo" / "train.py"))
    assert (target.version, target.newest) == ((2, 3), None)
    assert target.source.startswith("from ") and target.source.endswith("pyproject.toml: tensorflow-gpu~=2.3")


def test_setup_cfg_install_requires_and_extras(tmp_path):
    write(
        tmp_path,
        {
            "setup.cfg": """\
            [metadata]
            name = demo
            [options]
            install_requires =
                numpy>=1.19
                tensorflow-cpu>=2.3,<2.5
            [options.extras_require]
            test = pytest
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert (target.version, target.newest) == ((2, 3), (2, 4))
    assert target.source.endswith("setup.cfg: tensorflow-cpu>=2.3,<2.5")


def test_setup_py_is_read_not_run(tmp_path):
    marker = tmp_path / "ran"
    write(
        tmp_path,
        {
            "setup.py": f"""\
            from setuptools import setup
            open({str(marker)!r}, "w").close()
            REQUIRED = ["numpy", "tensorflow==2.2.*"]
            EXTRAS = {{"gpu": ["tensorflow-gpu>=2.3"]}}
            setup(name="demo", install_requires=REQUIRED + ["pyyaml"], extras_require=EXTRAS)
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert target.version == (2, 2)
    assert target.source.endswith("setup.py: tensorflow==2.2.*")
    assert not marker.exists()


def test_requirements_follow_includes_and_keep_every_marker(tmp_path):
    write(
        tmp_path,
        {
            "requirements.txt": """\
            -r requirements/base.txt
            numpy  # comment
            """,
            "requirements/base.txt": """\
            --index-url https://example.invalid/simple
            tensorflow>=2.4; python_version >= "3.9"
            tensorflow>=2.3 ; python_version < "3.9"  # the oldest Python gets the oldest TensorFlow
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert target.version == (2, 3)
    assert target.source.endswith('requirements.txt: tensorflow>=2.3 ; python_version < "3.9"')


def test_environment_yml_conda_and_pip_entries(tmp_path):
    write(
        tmp_path,
        {
            "environment.yml": """\
            name: demo
            dependencies:
              - python=3.8
              - tensorflow=2.4  # conda: the 2.4 series
              - pip:
                - tensorflow-gpu>=2.3,<2.5
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert (target.version, target.newest) == ((2, 3), (2, 4))
    assert target.source.endswith("environment.yml: tensorflow-gpu>=2.3,<2.5")


def test_without_metadata_or_version_the_default_is_2_4(tmp_path):
    (tmp_path / "a.py").write_text("")
    assert project_target(str(tmp_path / "a.py")).version == (2, 4)
    write(tmp_path, {"requirements.txt": "tensorflow\nnumpy\n"})
    target = project_target(str(tmp_path / "a.py"))
    assert target.version == (2, 4)
    assert target.source.startswith("default: no TensorFlow version required in")


def test_metadata_above_the_repository_root_is_not_the_project_s(tmp_path):
    write(tmp_path, {"requirements.txt": "tensorflow>=2.11\n"})  # e.g. a folder of checkouts
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "train.py").write_text("")
    target = project_target(str(tmp_path / "repo" / "train.py"))
    assert target.version == (2, 4)
    assert target.source == "default: no project metadata found"
    write(tmp_path / "repo", {"requirements.txt": "tensorflow>=2.3\n"})
    assert project_target(str(tmp_path / "repo" / "train.py")).version == (2, 3)


def test_metadata_is_read_without_libcst(tmp_path):
    write(tmp_path, {"requirements.txt": "tensorflow>=2.3\n"})
    code = (
        "import sys; from tf24migrate.run.project_metadata import project_target; "
        f"print(project_target({str(tmp_path)!r}).version, 'libcst' in sys.modules)"
    )
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
        == "(2, 3) False\n"
    )


# --- the command line ---------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path):
    return write(tmp_path, {"requirements.txt": "tensorflow>=2.3,<2.5\n", "train.py": OLD})


def test_the_project_requirement_sets_the_target_and_the_summary_says_so(project):
    result = run_in_process("--diff", "train.py", cwd=project)
    assert "+strategy.run(step_fn)" in result.stdout
    assert "+strategy.distribute_datasets_from_function" not in result.stdout
    assert "; target TensorFlow 2.3 (from requirements.txt: tensorflow>=2.3,<2.5) in " in result.stderr
    # withheld by the target, and the old name works on every supported release: a note
    assert "TF24102 info `experimental_distribute_datasets_from_function` is deprecated" in result.stderr
    assert (
        "Not fixed: the new spelling needs TensorFlow 2.4, and the target is TensorFlow 2.3" in result.stderr
    )


@pytest.mark.parametrize("pin", ["tensorflow==2.3.0rc0", "tensorflow-gpu==2.3.0rc2"])
def test_an_exact_pin_of_a_pre_release_targets_its_release(tmp_path, pin):
    project = write(tmp_path, {"requirements.txt": pin + "\n", "train.py": OLD})
    result = run_in_process("--diff", "train.py", cwd=project)
    assert f"; target TensorFlow 2.3 (from requirements.txt: {pin}) in " in result.stderr
    assert "+strategy.distribute_datasets_from_function" not in result.stdout


def test_the_flag_overrides_the_key_which_overrides_the_project(project):
    (project / "pyproject.toml").write_text('[tool.tf24migrate]\ntarget-version = "2.1"\n')
    from_key = run_in_process("--diff", "train.py", cwd=project)
    assert (
        "; target TensorFlow 2.1 (from pyproject.toml [tool.tf24migrate]); config pyproject.toml in "
        in from_key.stderr
    )
    assert from_key.stdout == ""  # `run` needs 2.2
    assert from_key.returncode == 1  # an error left: experimental_run_v2 stops working in 2.4
    from_flag = run_in_process("--diff", "--target-version", "2.4", "train.py", cwd=project)
    assert "; target TensorFlow 2.4 (from --target-version); config pyproject.toml in " in from_flag.stderr
    assert "+strategy.distribute_datasets_from_function(dataset_fn)" in from_flag.stdout


@pytest.mark.parametrize("value", ["2", "two.three", "2.3.1"])
def test_a_bad_target_is_an_error_naming_where_it_came_from(project, value):
    result = run_in_process("--target-version", value, "train.py", cwd=project)
    assert result.returncode == 2
    assert (
        f"--target-version: the target version must be a TensorFlow version as X.Y (such as 2.3), not {value!r}"
        in result.stderr
    )
    (project / "pyproject.toml").write_text(f'[tool.tf24migrate]\ntarget-version = "{value}"\n')
    result = run_in_process("train.py", cwd=project)
    assert result.returncode == 2
    assert "pyproject.toml: [tool.tf24migrate]: `target-version`: the target version must be" in result.stderr


def test_a_target_after_every_known_release_is_taken_and_says_where_the_facts_end(tmp_path):
    write(tmp_path, {"train.py": MIXED})
    beyond = f"newer than {'.'.join(map(str, NEWEST_KNOWN))}, the last release tf24migrate knows"
    from_flag = run_in_process("--check", "--target-version", "2.30", "train.py", cwd=tmp_path)
    assert f"; target TensorFlow 2.30 (from --target-version; {beyond}) in " in from_flag.stderr
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"`target TensorFlow 2.30 (from --target-version; {beyond})`" in readme  # as the README quotes it
    # the old spelling stops working in 2.9, before the target: due, an error
    assert "train.py:3:1: TF24302 error [fixable]" in from_flag.stdout
    assert from_flag.returncode == 1
    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\ntarget-version = "3.0"\n')
    from_key = run_in_process("--write", "train.py", cwd=tmp_path)
    assert f"; target TensorFlow 3.0 (from pyproject.toml [tool.tf24migrate]; {beyond})" in from_key.stderr
    assert "set_global_policy" in (tmp_path / "train.py").read_text()
    (tmp_path / "pyproject.toml").unlink()
    write(tmp_path, {"requirements.txt": "tensorflow>=2.25\n", "train.py": MIXED})
    from_project = run_in_process("--check", "train.py", cwd=tmp_path)
    assert (
        f"target TensorFlow 2.25 (from requirements.txt: tensorflow>=2.25; {beyond})" in from_project.stderr
    )


@pytest.mark.parametrize(
    ("requirement", "severity", "first_line_end", "exit_code"),
    [
        # The code runs on 2.3 and 2.4; 2.9, which the open range allows, removes the spelling.
        (
            "tensorflow>=2.3.0",
            "warning",
            "(stops working in TensorFlow 2.9, which the requirement allows; "
            "not fixed: needs TensorFlow 2.4, the target is 2.3).",
            0,
        ),
        # The project names 2.9 as supported: due now.
        (
            "tensorflow>=2.3,<2.10",
            "error",
            "(stops working in TensorFlow 2.9; not fixed: needs TensorFlow 2.4, the target is 2.3).",
            1,
        ),
        # Capped below 2.9: the old spelling works wherever the project runs: nothing due.
        ("tensorflow>=2.3,<2.5", "info", "(not fixed: needs TensorFlow 2.4, the target is 2.3).", 0),
    ],
)
def test_the_command_measures_severity_against_the_project_s_range(
    tmp_path, requirement, severity, first_line_end, exit_code
):
    write(tmp_path, {"requirements.txt": requirement + "\n", "train.py": MIXED})
    result = run_in_process("--check", "train.py", cwd=tmp_path)
    (line,) = [line for line in result.stdout.splitlines() if "TF24302" in line]
    assert line.startswith(f"train.py:3:1: TF24302 {severity} ")
    assert line.endswith(first_line_end)
    assert result.returncode == exit_code


STILL_WORKS = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    dataset = strategy.experimental_distribute_datasets_from_function(dataset_fn)
    tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
    model.compile(loss="mse", experimental_steps_per_execution=8)
    """
)


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        # The target (2.3) withholds every fix; the open range allows 2.9 and 2.16.
        (
            "tensorflow>=2.3.0",
            [
                "m.py:3:12: TF24107 info `tf.distribute.experimental.MultiWorkerMirroredStrategy`",
                "m.py:4:11: TF24102 info `experimental_distribute_datasets_from_function`",
                "m.py:5:1: TF24302 warning `tf.keras.mixed_precision.experimental.set_policy` is "
                "`tf.keras.mixed_precision.set_global_policy` from TF 2.4 (stops working in TensorFlow 2.9, "
                "which the requirement allows; not fixed: needs TensorFlow 2.4, the target is 2.3).",
                "m.py:6:27: TF24201 warning `compile(experimental_steps_per_execution=)` is "
                "`steps_per_execution=` from TF 2.4 (stops working in TensorFlow 2.16, which the "
                "requirement allows; not fixed: needs TensorFlow 2.4, the target is 2.3).",
            ],
        ),
        # Fixed: the later break is still named; the tag says it is fixed.
        (
            "tensorflow>=2.4",
            [
                "m.py:3:12: TF24107 info [fixable] `tf.distribute.experimental.MultiWorkerMirroredStrategy`",
                "m.py:4:11: TF24102 info [fixable] `experimental_distribute_datasets_from_function`",
                "m.py:5:1: TF24302 warning [fixable] `tf.keras.mixed_precision.experimental.set_policy` is "
                "`tf.keras.mixed_precision.set_global_policy` from TF 2.4 (stops working in TensorFlow 2.9).",
                "m.py:6:27: TF24201 warning [fixable] `compile(experimental_steps_per_execution=)` is "
                "`steps_per_execution=` from TF 2.4 (stops working in TensorFlow 2.16).",
            ],
        ),
        # An upper bound at 2.9 or later makes that break due; Keras 3 (2.16) stays beyond it.
        (
            "tensorflow>=2.4,<2.10",
            [
                "m.py:3:12: TF24107 info [fixable]",
                "m.py:4:11: TF24102 info [fixable]",
                "m.py:5:1: TF24302 error [fixable] `tf.keras.mixed_precision.experimental.set_policy` is "
                "`tf.keras.mixed_precision.set_global_policy` from TF 2.4 (stops working in TensorFlow 2.9).",
                "m.py:6:27: TF24201 warning [fixable] `compile(experimental_steps_per_execution=)` is "
                "`steps_per_execution=` from TF 2.4 (stops working in TensorFlow 2.16).",
            ],
        ),
    ],
)
def test_nothing_due_is_a_note_and_a_later_break_is_named_fixed_or_not(tmp_path, requirement, expected):
    write(tmp_path, {"requirements.txt": requirement + "\n", "m.py": STILL_WORKS})
    lines = [
        line
        for line in run_in_process("--check", "m.py", cwd=tmp_path).stdout.splitlines()
        if line.startswith("m.py:")
    ]
    for line, start in zip(lines, expected, strict=True):  # a whole first line ends with its full stop
        assert line == start if start.endswith(".") else line.startswith(start), line


def test_json_carries_the_target_and_each_findings_versions(project):
    document = json.loads(run_in_process("--output-format", "json", "train.py", cwd=project).stdout)
    assert document["target"] == {
        "version": "2.3",
        "source": "from requirements.txt: tensorflow>=2.3,<2.5",
        "newest": "2.4",
    }
    versions = {f["code"]: (f["new_since"], f["old_removed"], f["applied"]) for f in document["findings"]}
    assert versions == {"TF24101": ("2.2", "2.4", True), "TF24102": ("2.4", None, False)}


def test_list_rules_and_explain_show_the_versions():
    listing = run_in_process("--list-rules").stdout.splitlines()
    assert listing[0].split() == ["code", "name", "fix", "default", "new", "since", "old", "removed"]
    assert next(line for line in listing if line.startswith("TF24101")).split()[-2:] == ["2.2", "2.4"]
    explained = run_in_process("--explain", "TF24301").stdout
    assert "TensorFlow versions: new spelling since 2.4; old spelling stops working in 2.9." in explained
    assert "keras 2.9.0" in explained  # where the fact was read


def test_notebooks_follow_the_target(project):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": OLD}]
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "train.ipynb").write_text(json.dumps(document, indent=1) + "\n")
    result = run_in_process("--write", "train.ipynb", cwd=project)
    source = json.loads((project / "train.ipynb").read_text())["cells"][0]["source"]
    assert "strategy.run(step_fn)" in "".join(source)
    assert "experimental_distribute_datasets_from_function" in "".join(source)
    assert "train.ipynb:cell 1:5:1: TF24102" in result.stdout


# --- the library and severity -------------------------------------------------------------------


def test_migrate_source_takes_the_target_version():
    result = migrate_source(OLD, target_version="2.3")
    assert "strategy.run(step_fn)" in result.code
    assert "experimental_distribute_datasets_from_function" in result.code
    assert [(f.code, f.applied) for f in result.findings] == [("TF24101", True), ("TF24102", False)]
    assert migrate_source(OLD).code == migrate_source(OLD, target_version="2.4").code
    with pytest.raises(TargetVersionError, match="not 'latest'"):
        migrate_source(OLD, target_version="latest")


def test_migrate_paths_takes_the_target_version(tmp_path):
    (tmp_path / "train.py").write_text(OLD)
    for jobs in (1, 2):
        (result,) = migrate_paths([str(tmp_path)], target_version="2.1", jobs=jobs)
        assert not result.changed
        assert all("needs TensorFlow" in f.message for f in result.findings)


def _only_finding(source: str, code: str, target: Target):
    from tf24migrate.catalogue.selection import RuleSelection
    from tf24migrate.catalogue.settings import Settings
    from tf24migrate.engine.pipeline import run_rules

    (finding,) = run_rules(source, Settings(RuleSelection(code), target=target)).findings
    return finding


def test_severity_is_measured_against_the_migration():
    def severity(target: Target) -> Severity:
        return _only_finding(MIXED, "TF24302", target).severity

    # The experimental module is gone in 2.9. An open range (`tensorflow>=2.3.0`) allows 2.9, but
    # the code runs on 2.3 and 2.4: a warning, not an error.
    assert severity(Target((2, 3))) is Severity.WARNING
    assert severity(Target((2, 4))) is Severity.WARNING
    # An error where the project names 2.9 or later as its newest (an upper bound), or targets it.
    assert severity(Target((2, 4), newest=(2, 9))) is Severity.ERROR
    assert severity(Target((2, 3), newest=(2, 12))) is Severity.ERROR
    assert severity(target_of("2.10", "--target-version")) is Severity.ERROR
    # A project capped below 2.9 only meets a deprecation.
    assert severity(Target((2, 4), newest=(2, 8))) is Severity.WARNING
    # Named without a requirement (default, flag, key), the range is what is known: up to TF 2.4,
    # where the experimental module still works: an error only where TF 2.4 itself raises.
    assert severity(DEFAULT_TARGET) is Severity.WARNING
    # Withheld by a 2.3 target while the old spelling works up to 2.4: a note, nothing to do.
    assert severity(target_of("2.3", "--target-version")) is Severity.INFO
    assert severity(Target((2, 3), newest=(2, 8))) is Severity.INFO


def test_a_break_on_2_4_is_an_error_whatever_the_range():
    # `experimental_run_v2` is gone in 2.4: an error for an open range, a range capped below 2.4
    # (the migration is to 2.4) and a target named without a requirement alike.
    source = "import tensorflow as tf\ns.experimental_run_v2(f)\n"
    for target in (Target((2, 3)), Target((2, 2), newest=(2, 3)), target_of("2.2", "--target-version")):
        assert _only_finding(source, "TF24101", target).severity is Severity.ERROR


def test_the_first_line_says_when_the_spelling_breaks_and_why_it_was_not_fixed():
    def first_line(target: Target) -> str:
        return _only_finding(MIXED, "TF24302", target).message

    head = "`tf.keras.mixed_precision.experimental.set_policy` is `tf.keras.mixed_precision.set_global_policy` from TF 2.4"
    # A later break the open range allows, and a fix the target withholds: both named.
    assert first_line(Target((2, 3))) == (
        f"{head} (stops working in TensorFlow 2.9, which the requirement allows; "
        "not fixed: needs TensorFlow 2.4, the target is 2.3)."
    )
    # Due within the range: when it breaks, and why it is left.
    assert first_line(Target((2, 3), newest=(2, 9))) == (
        f"{head} (stops working in TensorFlow 2.9; not fixed: needs TensorFlow 2.4, the target is 2.3)."
    )
    # Nothing due (works up to the newest release allowed): only why it is left.
    assert (
        first_line(Target((2, 3), newest=(2, 8)))
        == f"{head} (not fixed: needs TensorFlow 2.4, the target is 2.3)."
    )
    # Fixed, and still a warning because of that later break: the release is named all the same
    # (the finding's tag, `[fixable]` or `[fixed]`, says the rest).
    fixed = f"{head} (stops working in TensorFlow 2.9)."
    assert first_line(Target((2, 4))) == fixed
    assert first_line(DEFAULT_TARGET) == fixed
    assert first_line(Target((2, 4), newest=(2, 9))) == fixed  # an error, fixed
    # A break on TF 2.4 itself is what the message says: nothing to add once fixed.
    run_v2 = _only_finding("import tensorflow as tf\ns.experimental_run_v2(f)\n", "TF24101", Target((2, 4)))
    assert run_v2.message == "`experimental_run_v2` was removed in TF 2.4: call `run` (same arguments)."
    # A report-only finding whose spelling breaks in a later release the range allows names it.
    loss_scale = (
        "from tensorflow.keras import mixed_precision\n"
        'policy = mixed_precision.experimental.Policy("mixed_float16")\n'
        "print(policy.loss_scale)\n"
    )
    finding = _only_finding(loss_scale, "TF24309", Target((2, 4)))
    assert finding.severity is Severity.WARNING
    assert finding.message.endswith("(stops working in TensorFlow 2.9, which the requirement allows).")
    assert not _only_finding(loss_scale, "TF24309", DEFAULT_TARGET).message.endswith("allows).")
    # The same read from the stable `Policy` breaks on TF 2.4 itself: an error, with nothing to add.
    stable = _only_finding(loss_scale.replace(".experimental", ""), "TF24309", Target((2, 4)))
    assert stable.severity is Severity.ERROR
    assert stable.message.endswith("from the `LossScaleOptimizer` instead.")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_every_rule_records_its_versions_and_where_they_were_read(rule):
    versions = [v for v in (rule.new_since, rule.old_removed, rule.changed_in) if v is not None]
    assert versions, f"{rule.code} records no TensorFlow version"
    for version in versions:
        parse_version(version, rule.code)
    if rule.fix is not None:
        assert rule.new_since, f"{rule.code} has a fix but no version for its new spelling"
    # A rule's own severity is what it is for a target with an upper bound at or after the release
    # that breaks the old spelling: an error; one whose old spelling keeps working and behaves the
    # same everywhere is a note (nothing is due); only a change of behaviour picks its own.
    assert (rule.severity is Severity.ERROR) == (rule.old_removed is not None)
    if rule.old_removed is None and rule.changed_in is None:
        assert rule.severity is Severity.INFO, f"{rule.code}: nothing is due, a note"
    paragraph = rule.doc[rule.doc.index("Versions: ") :].replace("\n", " ")
    for version in versions:
        assert f" {version}" in paragraph
    assert VERSIONS_TO_WRITE not in paragraph, (
        f"{rule.code}: its `Versions:` line still says what `dev new-rule` wrote; write where the facts "
        "were read: the file (and function) of the released wheel, or the release note"
    )
    assert "wheel" in paragraph or "release notes" in paragraph, (
        f"{rule.code}: its `Versions:` line must say where the facts were read: in which released "
        'wheel ("... of the tensorflow-cpu 2.4.0 wheel"), or the release notes'
    )


def test_requirements_of_other_distributions_need_no_packaging():
    """Reading a project's requirements imports `packaging` (tens of milliseconds of start-up)
    only for a requirement of TensorFlow, and its requirement parser only for one with a marker
    or a URL."""
    code = (
        "import sys\n"
        "from tf24migrate.run.project_metadata import tensorflow_specifier as of\n"
        "assert [of('numpy>=1.19'), of('tensorflow-addons'), of('-e .')] == [None, None, None]\n"
        "assert 'packaging' not in sys.modules\n"
        "assert of('tensorflow[and-cuda]>=2.3,<2.5') == '<2.5,>=2.3'\n"
        "assert 'packaging' in sys.modules and 'packaging.requirements' not in sys.modules\n"
        "assert of('TensorFlow_CPU>=2.3 ; python_version > \"3\"') == '>=2.3'\n"
        "assert 'packaging.requirements' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    "requirement",
    [
        "tensorflow",
        "  tensorflow==2.3 ",
        "TensorFlow-CPU>=2.3",
        "tensorflow >= 2.3 , < 2.5",
        "tensorflow\t>=2.3",
        "tensorflow(>=2.3,<2.5)",
        "tensorflow (==2.4.*)",
        "tensorflow[ and-cuda , x ]~=2.4.0",
        "tensorflow[]>=2.3",
        "tensorflow_gpu===2.3.0",
        "tensorflow==1!2.3.0rc1+local",
        "tensorflow-gpu<2.0,>=1.15,!=1.15.1",
        # not valid, or not of the usual shape: `Requirement` decides
        "tensorflow>=abc",
        "tensorflow==2.3.*.1",
        "tensorflow~=2",
        "tensorflow=2.3",
        "tensorflow==",
        "tensorflow>=2.3,",
        "tensorflow ()",
        "tensorflow (>=2.3",
        "tensorflow>=2.3 garbage",
        "tensorflow[a b]>=2",
        "tensorflow[a,]>=2",
        "tensorflow\n>=2.3",
        "tensorflow\u00a0>=2.3",
        "tensorflow>=2.3; python_version < '3.9'",
        "tensorflow @ https://example.com/tensorflow.whl",
    ],
)
def test_a_requirement_s_specifier_is_what_packaging_reads(requirement):
    from packaging.requirements import InvalidRequirement, Requirement

    from tf24migrate.run.project_metadata import tensorflow_specifier

    try:
        expected = str(Requirement(requirement).specifier)
    except InvalidRequirement:
        expected = None
    assert tensorflow_specifier(requirement) == expected


@pytest.mark.parametrize(
    ("dockerfile", "lowest"),
    [
        ("FROM nvcr.io/nvidia/tensorflow:20.12-tf1-py3\n", (1, 15)),
        ("FROM tensorflow/tensorflow:2.3.1-gpu\n", (2, 3)),
        ("FROM python:3.8\nRUN pip install tensorflow==1.15.5 numpy\n", (1, 15)),
    ],
)
def test_the_target_is_read_from_dockerfiles_too(tmp_path, dockerfile, lowest):
    (tmp_path / ".git").mkdir()
    (tmp_path / "Dockerfile").write_text(dockerfile)
    (tmp_path / "train.py").write_text("import tensorflow as tf\n")
    target = project_target(str(tmp_path / "train.py"))
    assert target.version == lowest
    assert target.source.rsplit(": ", 1)[0].endswith("Dockerfile")  # `from .../Dockerfile: tensorflow==...`


def test_setup_py_lists_read_by_key_from_a_dict(tmp_path):
    write(
        tmp_path,
        {
            "setup.py": """\
            from setuptools import setup
            BASE = ["numpy"]
            REQUIREMENTS = {"install": BASE + ["tensorflow>=2.2,<2.4"], 3: ["tensorflow==1.15"]}
            OTHER = {"install": ["tensorflow==2.0"]}
            setup(name="demo", install_requires=REQUIREMENTS["install"] + OTHER["missing"])
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert (target.version, target.newest) == ((2, 2), (2, 3))
    assert target.source.endswith("setup.py: tensorflow>=2.2,<2.4")


def test_poetry_dependencies_and_groups(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": """\
            [tool.poetry]
            name = "keras-flops"
            [tool.poetry.dependencies]
            python = "^3.6"
            tensorflow = "^2.2"
            [tool.poetry.group.gpu.dependencies]
            tensorflow-gpu = {version = "~2.3", optional = true}
            [tool.poetry.group.dev.dependencies]
            tensorflow = "2.1.*"
            [tool.poetry.dev-dependencies]
            tensorflow = "2.0.*"
            """,
        },
    )
    target = project_target(str(tmp_path))
    assert (target.version, target.newest) == ((2, 2), None)  # `^2.2`: below 3.0, an open range
    assert target.source.endswith("pyproject.toml: tensorflow>=2.2,<3.0")


@pytest.mark.parametrize(
    ("constraint", "specifier"),
    [
        ("^2.2", ">=2.2,<3.0"),
        ("^2.3.1", ">=2.3.1,<3.0"),
        ("~2.3", ">=2.3,<2.4"),
        ("~2.3.1", ">=2.3.1,<2.4"),
        ("~2", ">=2,<3.0"),
        ("^0.4", ">=0.4,<0.5"),
        ("2.3.*", "==2.3.*"),
        ("2.3", "==2.3"),
        (">=2.2, <2.5", ">=2.2,<2.5"),
        ("~=2.3", "~=2.3"),
        ("*", ""),
        ("latest", None),
    ],
)
def test_poetry_constraints_as_pep_440(constraint, specifier):
    assert _poetry_specifier(constraint) == specifier


def test_poetry_alternatives_are_each_a_requirement(tmp_path):
    write(tmp_path, {"pyproject.toml": '[tool.poetry.dependencies]\ntensorflow = "~2.3 || ^2.5"\n'})
    assert project_target(str(tmp_path)).version == (2, 3)
