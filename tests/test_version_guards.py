"""Code behind a version check the file computes itself is not reported (issue 45, goal 1), as
found in unseen repositories, each run unchanged on the real TF 2.4.0: a name or attribute bound
from `tf.__version__` (directly, through a function of the file, or through another such name)
and tested in an `if`; and the fallback of `getattr(x, "new", None) or x.old`. Negative cases: a
comparison with a version-like string of something that is not TensorFlow's version, a container
holding the version among other things, the operand of the fallback that does run on TF 2.4,
and the branch of a direct test of the version that TF 2.4.0 takes. One run of the real command
over all the files."""

from __future__ import annotations

import json
import textwrap
import warnings

from command_line import run

HEAD = 'import tensorflow as tf\ns = tf.distribute.MirroredStrategy(["/cpu:0"])\n'
OLD = "s.experimental_run_v2(lambda: tf.constant(1.0))"
NEW = "s.run(lambda: tf.constant(1.0))"

# file name: (source after HEAD, the lines TF24101 must report)
CASES = {
    # `self.cur_tf_ver` holds `tf.__version__`, returned by a helper of the file
    "attribute_from_a_helper.py": (
        f"""\
        def check_tf_version():
            return tf.__version__

        class T:
            def __init__(self):
                self.cur_tf_ver = check_tf_version()

            def step(self):
                if self.cur_tf_ver == "2.0.0":
                    return {OLD}
                return {NEW}
        """,
        [],
    ),
    # through `tf.version.VERSION`, the file's only reading of the version, to a name that does
    # not say version
    "attribute_from_version_module.py": (
        f"""\
        class T:
            def __init__(self):
                self.legacy = tf.version.VERSION.startswith("2.0")

            def step(self):
                if self.legacy:
                    return {OLD}
                return {NEW}
        """,
        [],
    ),
    # a module-level name bound once to a test of the version, or to the version: the branch
    # TF 2.4 takes is checked
    "module_flag.py": (
        f"""\
        IS_TF20 = tf.__version__ == "2.0.0"
        TF_VERSION = tf.__version__
        if IS_TF20:
            r = {OLD}
        else:
            r = {NEW}
        if not IS_TF20:
            r = {OLD}
        if TF_VERSION.startswith("2.0"):
            r = {OLD}
        else:
            r = {OLD}
        """,
        [10, 14],
    ),
    "parsed_tuple.py": (
        f"""\
        TF_VER = tuple(int(x) for x in tf.__version__.split(".")[:2])
        MAJOR_MINOR = TF_VER[:2]
        if TF_VER < (2, 2):
            r = {OLD}
        if MAJOR_MINOR < (2, 2):
            r = {OLD}
        """,
        [],
    ),
    "getattr_fallback.py": (
        """\
        run = getattr(s, "run", None) or s.experimental_run_v2
        r = run(lambda: tf.constant(1.0))
        old = getattr(s, "experimental_run_v2", None) or s.experimental_run_v2
        again = getattr(s.experimental_run_v2, "__wrapped__", None) or s.run
        """,
        # a fallback is not checked, the operand that runs on TF 2.4 is
        [6],
    ),
    # not bound in the file, but the name says version and the string is a version
    "a_name_saying_version.py": (
        f"""\
        import argparse
        args = argparse.ArgumentParser().parse_args()
        if args.tf_ver == "2.0.0":
            r = {OLD}
        if args.model_ver == "resnet":
            r = {OLD}
        """,
        [8],
    ),
    # the branch TF 2.4 takes is checked, the other not
    "live_branch.py": (
        f"""\
        from packaging import version
        if tf.__version__.startswith("2.0") or tf.__version__.startswith("2.1"):
            r = {NEW}
        else:
            r = {OLD}
        if version.parse(tf.__version__) >= version.parse("2.2"):
            r = {OLD}
        else:
            r = {OLD}
        if tf.__version__ < "2.2":
            r = {OLD}
        if not tf.__version__ == "2.4.0":
            r = {OLD}
        """,
        [7, 9],
    ),
    "unrelated_string.py": (
        f"""\
        import os
        MODE = os.environ.get("MODEL_VERSION", "2.0.0")
        if MODE == "2.0.0":
            r = {OLD}
        CONFIG = {{"version": tf.__version__, "eager": True}}
        if CONFIG["eager"]:
            r = {OLD}
        """,
        [6, 9],
    ),
}


def test_code_behind_a_version_the_file_computes_is_not_reported(tmp_path):
    for name, (source, _) in CASES.items():
        (tmp_path / name).write_text(HEAD + textwrap.dedent(source))
    done = run("--output-format", "json", ".", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[int]] = {name: [] for name in CASES}
    for finding in json.loads(done.stdout)["findings"]:
        assert finding["code"] == "TF24101", finding
        found[finding["path"].removeprefix("./")].append(finding["line"])
    assert found == {name: lines for name, (_, lines) in CASES.items()}


def test_a_version_check_is_read_silently_in_a_file_python_warns_about():
    """The file's own version checks are read with `ast` as the statement plan reads the file:
    silently. An invalid escape (`"\\d"`) is a SyntaxWarning printed on stderr from Python 3.12,
    and, with warnings as errors, the parse failed and the check went unread."""
    from tf24migrate import migrate_source

    source = HEAD + textwrap.dedent(
        f"""\
        PATTERN = "\\d+"
        IS_TF20 = tf.__version__ == "2.0.0"
        if IS_TF20:
            r = {OLD}
        """
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = migrate_source(source)
    assert [finding.code for finding in result.findings] == []
