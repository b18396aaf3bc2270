"""`--output-format github` (workflow annotations) and `--output-format sarif` (SARIF 2.1.0)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest
from command_line import run_in_process

from tf24migrate.catalogue.selection import all_rules, select_rules
from tf24migrate.cli.reporters.github import github_annotation
from tf24migrate.model.findings import Finding, Severity

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

TRAIN = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    strategy.experimental_run_v2(step_fn)
    parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)
    """
)
QUANTIZE = "import tensorflow as tf\ny = tf.quantization.quantize_and_dequantize(x, -1.0, 1.0)\n"
# A warning: the old spelling works on TF 2.4 and stops working in TF 2.9, which the default allows.
SET_POLICY = 'import tensorflow as tf\ntf.keras.mixed_precision.experimental.set_policy("mixed_float16")\n'


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "quantize.py").write_text(QUANTIZE)
    (tmp_path / "policy.py").write_text(SET_POLICY)
    (tmp_path / "native.cc").write_text("int n = TF_StringEncodedSize(4);  // count\n")
    return tmp_path


def test_github_annotations_one_per_finding(project):
    result = run_in_process("--output-format", "github", "--check", ".", cwd=project)
    assert result.returncode == 1  # unfixed errors
    assert result.stdout.splitlines() == [
        "::error file=./native.cc,line=1,col=9,endLine=1,endColumn=29,title=TF24701::c-api-string-functions: "
        "`TF_StringEncodedSize` was removed from the TensorFlow C API in 2.4: use the `TF_TString_*` functions.",
        "::warning file=./policy.py,line=2,col=1,endLine=2,endColumn=49,title=TF24302::set-policy: [fixable] "
        "`tf.keras.mixed_precision.experimental.set_policy` is `tf.keras.mixed_precision.set_global_policy` "
        "from TF 2.4 (stops working in TensorFlow 2.9).",
        "::notice file=./quantize.py,line=2,col=5,endLine=2,endColumn=58,title=TF24505::quantize-and-dequantize: "
        "[unsafe fix: --unsafe-fixes] `tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4.",
        "::error file=./train.py,line=4,col=1,endLine=4,endColumn=29,title=TF24101::experimental-run-v2: "
        "[fixable] `experimental_run_v2` was removed in TF 2.4: call `run` (same arguments).",
        "::error file=./train.py,line=5,col=12,endLine=5,endColumn=42,title=TF24202::removed-keras-utils: "
        "`tf.keras.utils.multi_gpu_model` was removed in TF 2.4: use a `MirroredStrategy` scope.",
    ]
    assert "4 files scanned" in result.stderr
    assert (project / "train.py").read_text() == TRAIN


def test_github_annotation_escapes_properties_and_message():
    finding = Finding(
        code="TF24501",
        name="hidden-internal-modules",
        line=3,
        column=1,
        end_line=4,
        end_column=2,
        message="100% sure:\nline two\r",
        severity=Severity.INFO,
        fix=None,
        applied=False,
        path="dir,with:odd%/a.py",
    )
    assert github_annotation(finding, written=False) == (
        "::notice file=dir%2Cwith%3Aodd%25/a.py,line=3,col=1,endLine=4,endColumn=2,title=TF24501::"
        "hidden-internal-modules: 100%25 sure:%0Aline two%0D"
    )


def test_github_reports_failed_files(project):
    (project / "broken.py").write_text("def f(:\n    s.experimental_run_v2(x)\n")
    result = run_in_process("--output-format", "github", "broken.py", cwd=project)
    assert result.returncode == 2
    assert result.stdout.startswith(
        "::error file=broken.py,line=1,col=7,endLine=1,endColumn=7,title=TF24005::syntax-error: cannot parse"
    )


def _validate(document: dict) -> None:
    validator = jsonschema.validators.validator_for(SCHEMA)
    validator.check_schema(SCHEMA)
    validator(SCHEMA).validate(document)


def _apply(source: str, fix: dict) -> str:
    (change,) = fix["artifactChanges"]
    for replacement in sorted(change["replacements"], key=lambda r: -r["deletedRegion"]["charOffset"]):
        region = replacement["deletedRegion"]
        start, end = region["charOffset"], region["charOffset"] + region["charLength"]
        source = source[:start] + replacement["insertedContent"]["text"] + source[end:]
    return source


def test_sarif_is_valid_and_complete(project):
    (project / "broken.py").write_text("def f(:\n    s.experimental_run_v2(x)\n")
    result = run_in_process("--output-format", "sarif", ".", cwd=project)
    assert result.returncode == 2  # broken.py failed
    log = json.loads(result.stdout)  # stdout holds the log and nothing else
    _validate(log)
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    default_rules = select_rules()
    assert [d["id"] for d in driver["rules"]] == [*(r.code for r in default_rules), "TF24005"]
    for descriptor, rule in zip(driver["rules"][:-1], default_rules, strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["help"]["text"] == rule.doc != ""
        assert descriptor["shortDescription"]["text"] == rule.summary
    results = sarif_run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("TF24005", "error"),  # broken.py: the syntax error, a finding of its own
        ("TF24701", "error"),
        ("TF24302", "warning"),  # works on TF 2.4, stops working in 2.9: a warning
        ("TF24505", "note"),  # the old function keeps working: a note
        ("TF24101", "error"),
        ("TF24202", "error"),
    ]
    for item in results:
        assert driver["rules"][item["ruleIndex"]]["id"] == item["ruleId"]
    syntax_error, native, policy, quantize, run_v2, removed = results
    assert syntax_error["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    location = run_v2["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "train.py"
    assert location["region"] == {"startLine": 4, "startColumn": 1, "endLine": 4, "endColumn": 29}
    assert native["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "native.cc"
    # Only applied fixes carry a SARIF fix, and applying it gives the migrated line.
    assert "fixes" not in quantize and "fixes" not in removed and "fixes" not in native
    (fix,) = policy["fixes"]
    assert _apply(SET_POLICY, fix) == SET_POLICY.replace("experimental.set_policy", "set_global_policy")
    (fix,) = run_v2["fixes"]
    assert _apply(TRAIN, fix) == TRAIN.replace("experimental_run_v2", "run")
    (invocation,) = sarif_run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert [n["message"]["text"].split(":")[0] for n in invocation["toolExecutionNotifications"]] == [
        "./broken.py"
    ]


def test_sarif_fixes_with_unsafe_fixes_and_write(project):
    program = "import tensorflow as tf\n\nif __name__ == '__main__':\n    print(tf.__version__)\n"
    (project / "program.py").write_text(program)
    result = run_in_process(
        "--output-format", "sarif", "--write", "--unsafe-fixes", "--select", "all", ".", cwd=project
    )
    log = json.loads(result.stdout)
    _validate(log)
    (sarif_run,) = log["runs"]
    assert [d["id"] for d in sarif_run["tool"]["driver"]["rules"]] == [r.code for r in all_rules()]
    fixed = {r["ruleId"]: r for r in sarif_run["results"] if "fixes" in r}
    assert set(fixed) == {"TF24101", "TF24302", "TF24503", "TF24505"}
    assert _apply(QUANTIZE, fixed["TF24505"]["fixes"][0]) == (project / "quantize.py").read_text()
    assert _apply(program, fixed["TF24503"]["fixes"][0]) == (project / "program.py").read_text() != program
    assert sarif_run["invocations"][0]["executionSuccessful"] is True


def test_sarif_uris_are_percent_encoded(tmp_path):
    (tmp_path / "my folder").mkdir()
    (tmp_path / "my folder" / "train#1.py").write_text(TRAIN)
    log = json.loads(run_in_process("--output-format", "sarif", "my folder", cwd=tmp_path).stdout)
    _validate(log)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]
    }
    assert uris == {"my%20folder/train%231.py"}


def test_sarif_without_findings_is_valid(tmp_path):
    (tmp_path / "clean.py").write_text("import tensorflow as tf\n")
    log = json.loads(run_in_process("--output-format", "sarif", "clean.py", cwd=tmp_path).stdout)
    _validate(log)
    assert log["runs"][0]["results"] == []


POLICY = (
    "import tensorflow as tf\n"
    "policy = tf.keras.mixed_precision.experimental.Policy('mixed_float16')\n"
    "print(policy.loss_scale)\n"
)
POLICY_EVIDENCE = "`policy` is a policy"


def test_evidence_is_a_field_of_json_and_sarif_findings_and_quoted_in_the_details(tmp_path):
    (tmp_path / "policy.py").write_text(POLICY)
    document = json.loads(run_in_process("--output-format", "json", "policy.py", cwd=tmp_path).stdout)
    (finding,) = [f for f in document["findings"] if f["code"] == "TF24309"]
    assert finding["evidence"] == POLICY_EVIDENCE
    assert f"{POLICY_EVIDENCE}; the experimental `Policy`" in finding["details"]
    shown = run_in_process("policy.py", cwd=tmp_path)
    assert finding["message"] in " ".join(line.strip() for line in (shown.stdout + shown.stderr).splitlines())
    sarif = json.loads(run_in_process("--output-format", "sarif", "policy.py", cwd=tmp_path).stdout)
    _validate(sarif)
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "TF24309"]
    assert result["properties"]["evidence"] == POLICY_EVIDENCE
    assert result["message"]["text"] == finding["message"]


def test_findings_without_evidence_have_none():
    from tf24migrate import migrate_source

    (finding,) = migrate_source(QUANTIZE).findings
    assert finding.evidence is None
    (policy,) = [f for f in migrate_source(POLICY).findings if f.code == "TF24309"]
    assert policy.evidence == POLICY_EVIDENCE
