"""The library API: `migrate_source` and `migrate_paths`."""

from __future__ import annotations

import textwrap

import pytest

import tf24migrate
from tf24migrate import Fix, Severity, Status, migrate_paths, migrate_source
from tf24migrate.catalogue.selection import UnknownRuleError

MESSY = textwrap.dedent(
    """\
    # -*- coding: utf-8 -*-
    import tensorflow as tf   # the alias stays


    def step( x ):  # odd spacing stays
        return strategy . experimental_run_v2 ( fn ,args = ( x , ) )   # trailing
    y = [1,2,
         3]  ;  z = "experimental_run_v2"
    """
)


def test_result_fields_and_formatting_preserved():
    result = migrate_source(MESSY, path="m.py")
    assert result.changed
    assert result.code == MESSY.replace("strategy . experimental_run_v2 (", "strategy . run (")
    (finding,) = result.findings
    assert (finding.code, finding.name, finding.line, finding.column) == (
        "TF24101",
        "experimental-run-v2",
        6,
        12,
    )
    assert (finding.end_line, finding.end_column) == (6, 42)
    assert finding.severity is Severity.ERROR
    assert finding.fix is Fix.SAFE and finding.applied
    assert finding.path == "m.py"
    assert "call `run`" in finding.message


def test_unchanged_source_is_returned_as_is():
    source = "import tensorflow as tf\nprint(tf.constant(1))\n"
    result = migrate_source(source)
    assert not result.changed and result.code is source and result.findings == ()


def test_crlf_line_endings_are_kept():
    source = "import tensorflow as tf\r\ns.experimental_run_v2(f)\r\n"
    assert migrate_source(source).code == "import tensorflow as tf\r\ns.run(f)\r\n"


def test_syntax_error_is_raised():
    with pytest.raises(SyntaxError) as error:
        migrate_source("def f(:\n    s.experimental_run_v2(x)\n", path="bad.py")
    assert error.value.lineno == 1
    assert error.value.filename == "bad.py"


def test_select_and_ignore_take_iterables_of_codes_names_and_prefixes():
    source = "s.experimental_run_v2(f)\nm.compile(experimental_steps_per_execution=2)\n"
    codes = lambda **kw: [f.code for f in migrate_source(source, **kw).findings]  # noqa: E731
    assert codes() == ["TF24101", "TF24201"]
    assert codes(select=["TF241"]) == ["TF24101"]
    assert codes(select=["steps-per-execution"]) == ["TF24201"]
    assert codes(ignore=["TF24101", "TF24201"]) == []
    assert codes(select="all", ignore="experimental-run-v2") == ["TF24201"]
    with pytest.raises(UnknownRuleError, match="TF999"):
        migrate_source(source, select=["TF999"])


def test_several_rules_compose_in_one_statement():
    source = textwrap.dedent(
        """\
        import tensorflow as tf
        s = tf.distribute.experimental.MultiWorkerMirroredStrategy(tf.distribute.experimental.CollectiveCommunication.NCCL)
        """
    )
    result = migrate_source(source)
    assert result.code.splitlines()[1:] == [  # too long for the file's longest line: split as black would
        "s = tf.distribute.MultiWorkerMirroredStrategy(",
        "    communication_options=tf.distribute.experimental.CommunicationOptions(",
        "        implementation=tf.distribute.experimental.CommunicationImplementation.NCCL",
        "    ),",
        ")",
    ]
    assert [f.code for f in result.findings] == ["TF24107", "TF24105"]
    assert migrate_source(result.code).code == result.code


def test_migrate_paths_yields_results_and_writes_only_when_asked(tmp_path):
    (tmp_path / "a.py").write_text("s.experimental_run_v2(f)\n")
    (tmp_path / "b.py").write_text("x = 1\n")
    (tmp_path / "c.py").write_text("s.experimental_run_v2(\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.py").write_text("s.experimental_run_v2(f)\n")
    results = list(migrate_paths([str(tmp_path)]))
    assert [(r.path[len(str(tmp_path)) + 1 :], r.status) for r in results] == [
        ("a.py", Status.CHANGED),
        ("b.py", Status.UNCHANGED),
        ("c.py", Status.FAILED),
    ]
    assert "cannot parse" in results[2].error
    assert (tmp_path / "a.py").read_text() == "s.experimental_run_v2(f)\n"
    list(migrate_paths([str(tmp_path / "a.py")], write=True))
    assert (tmp_path / "a.py").read_text() == "s.run(f)\n"


def test_public_names():
    assert set(tf24migrate.__all__) >= {"migrate_source", "migrate_paths", "MigrationResult", "Finding"}
    # each loaded on first use, each listed (a REPL completes them) and each there
    assert set(tf24migrate.__all__) <= set(dir(tf24migrate))
    assert all(getattr(tf24migrate, name) is not None for name in tf24migrate.__all__)


def test_an_unsafe_rewrite_shown_in_a_message_stays_on_one_line():
    source = textwrap.dedent(
        """\
        import tensorflow as tf
        policy = tf.keras.mixed_precision.experimental.Policy(
            "mixed_float16",
            loss_scale=128,
        )
        """
    )
    (finding,) = [f for f in migrate_source(source).findings if f.code == "TF24301"]
    assert not finding.applied
    assert "\n" not in finding.message and "\n" not in finding.details
    rewrite = finding.details.split("Unsafe fix (apply with --unsafe-fixes): ")[1]
    assert rewrite.startswith("`tf.keras.mixed_precision.Policy(") and '"mixed_float16"' in rewrite


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (None, "not NoneType"),
        (b"import tensorflow as tf\n", "not bytes: decode it first"),
        (["import tensorflow as tf\n"], "not list: join the lines first"),
    ],
    ids=["None", "bytes", "a list of lines"],
)
def test_migrate_source_says_what_it_takes(source, says):
    with pytest.raises(TypeError, match="migrate_source takes the source text as a str") as raised:
        migrate_source(source)
    assert says in str(raised.value)


def test_every_library_error_is_a_tf24migrate_error(tmp_path):
    from tf24migrate import (
        MissingPathError,
        RuleError,
        SourceSyntaxError,
        TargetVersionError,
        TF24MigrateError,
        UnknownRuleError,
    )

    for error in (UnknownRuleError, RuleError, SourceSyntaxError, TargetVersionError, MissingPathError):
        assert issubclass(error, TF24MigrateError)
        assert error.__name__ in tf24migrate.__all__
    assert issubclass(UnknownRuleError, ValueError) and issubclass(SourceSyntaxError, SyntaxError)
    raised = []
    for call in (
        lambda: migrate_source("x = 1\n", select="TF999"),
        lambda: migrate_source("def f(:\n    s.experimental_run_v2(x)\n"),
        lambda: migrate_source("x = 1\n", target_version="two"),
        lambda: list(migrate_paths([str(tmp_path / "nowhere")])),
    ):
        with pytest.raises(TF24MigrateError) as caught:
            call()
        raised.append(type(caught.value).__name__)
    assert raised == ["UnknownRuleError", "SourceSyntaxError", "TargetVersionError", "MissingPathError"]


def test_worker_processes_work_under_spawn(tmp_path, monkeypatch):
    """macOS and Windows start workers with `spawn` (nothing inherited from the parent): the
    workers must set themselves up from what they are sent, and find the same as one process."""
    import multiprocessing

    from tf24migrate.run import workers

    for index in range(8):
        (tmp_path / f"train_{index}.py").write_text(
            f"import tensorflow as tf\nstrategy.experimental_run_v2(step_{index})\n"
        )
    serial = list(migrate_paths([str(tmp_path)], jobs=1))
    started = []
    monkeypatch.setattr(
        workers, "_context", lambda: started.append("spawn") or multiprocessing.get_context("spawn")
    )
    spawned = list(migrate_paths([str(tmp_path)], jobs=2))
    assert started == ["spawn"] and len(spawned) == 8
    assert [(r.path, r.status, r.code, r.findings) for r in spawned] == [
        (r.path, r.status, r.code, r.findings) for r in serial
    ]
    assert all("strategy.run(step_" in r.code for r in spawned)
