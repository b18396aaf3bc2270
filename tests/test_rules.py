"""Rule selection."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap

import pytest

from tf24migrate.catalogue.selection import RuleSelection, UnknownRuleError, select_rules


def test_a_selection_loads_its_rules_when_first_used_and_travels_as_selectors():
    selection = RuleSelection("TF241", "TF24109")
    assert selection._rules is None
    assert list(selection) == list(select_rules("TF241", "TF24109"))
    copy = pickle.loads(pickle.dumps(selection))
    assert copy._rules is None
    assert [r.code for r in copy] == [r.code for r in selection]
    assert list(RuleSelection()) == list(select_rules())


def test_a_selection_checks_its_selectors():
    with pytest.raises(UnknownRuleError, match="TF999"):
        RuleSelection("TF999").check()
    with pytest.raises(UnknownRuleError, match="names a note"):
        RuleSelection(RULE_NOTE).check()
    RuleSelection().check()  # the default selection needs no loading to be valid
    assert RuleSelection()._rules is None


RULE_NOTE = "TF24001"


@pytest.mark.parametrize(
    ("select", "ignore"),
    [("TF241", "TF24101"), ("all", None), (None, "TF242," + RULE_NOTE), ("experimental-run-v2,TF243", None)],
)
def test_a_selection_checks_and_names_its_rules_without_loading_them(select, ignore):
    """While the trigger table is current, its rows answer: the same codes as the rules loaded."""
    selection = RuleSelection(select, ignore)
    selection.check()
    codes = selection.codes()
    assert selection._rules is None
    assert codes == tuple(rule.code for rule in RuleSelection(select, ignore).rules)


PROBE = textwrap.dedent(
    """\
    import sys
    from tf24migrate.cli.command import main

    sys.argv = ["tf24migrate", *sys.argv[1:]]
    code = 0
    try:
        main()
    except SystemExit as exit:
        code = exit.code
    print("libcst loaded" if "libcst" in sys.modules else "libcst not loaded", file=sys.stderr)
    sys.exit(code)
    """
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_with_nothing_to_do_never_loads_libcst(tmp_path, jobs):
    for n in range(10):
        (tmp_path / f"m{n}.py").write_text(f"import os\n\n\ndef f{n}(x):\n    return os.path.join(x)\n")
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": "x = 1\n"}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "n.ipynb").write_text(json.dumps(notebook))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--check", "--jobs", jobs, str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert "11 files scanned, 0 to change" in done.stderr
    assert done.stderr.strip().endswith("libcst not loaded")
    (tmp_path / "m1.py").write_text("import tensorflow as tf\n\nx = tf.zeros([3])\n")  # TF, no trigger
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--check", "--jobs", jobs, str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert done.stderr.strip().endswith("libcst not loaded")
    (tmp_path / "m0.py").write_text("import tensorflow as tf\ns.experimental_run_v2(f)\n")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--check", "--jobs", jobs, str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "1 to change" in done.stderr


SELECTORS = ["--select", "TF241,experimental-run-v2", "--ignore", f"TF24101,{RULE_NOTE}"]


@pytest.mark.parametrize(
    "options",
    [[*SELECTORS, "--no-cache"], [*SELECTORS, "--cache-dir", "{cache}"], ["--output-format", "sarif"]],
    ids=["selectors", "selectors-cached", "sarif"],
)
def test_a_run_with_selectors_or_a_sarif_log_and_nothing_to_do_never_loads_libcst(tmp_path, options):
    """`--select` and `--ignore` are checked, and name the cache's key, from the trigger table; a
    SARIF log describes the rules from their entries: such a run loads the rules and LibCST only
    for a file they must read, like any other."""
    (tmp_path / "m.py").write_text("import tensorflow as tf\n\nx = tf.zeros([3])\n")
    options = [option.format(cache=tmp_path / "cache") for option in options]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--check", *options, str(tmp_path / "m.py")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("libcst not loaded")


def test_an_unknown_selector_is_refused_without_the_rules(tmp_path):
    (tmp_path / "m.py").write_text("x = 1\n")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--check", "--ignore", "TF24999", str(tmp_path / "m.py")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "unknown rule selector 'TF24999'" in done.stderr
    assert done.stderr.strip().endswith("libcst not loaded")
