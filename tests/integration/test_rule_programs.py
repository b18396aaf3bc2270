"""Every rule's claims, executed on the real TensorFlow 2.3.0 and 2.4.0.

Each program in `rule_programs/` is written for TF 2.3 and named after the rule it proves
(`TF24101-strategy-run.py`). The rule's own versions decide what must happen:

- as written, on 2.3.0: it runs (the code the tool migrates is working TF 2.3 code);
- the rule fires on it (`--select CODE --unsafe-fixes`);
- as written, on 2.4.0: it fails exactly when the rule says the old spelling is gone there
  (`old_removed`) or its behaviour changed (`changed_in`: the program asserts the TF 2.3 behaviour),
  unless the rule is a note (severity info: a change that breaks nothing);
- a fix was applied: the migrated program runs on 2.4.0, and on 2.3.0 it runs exactly when the
  new spelling is there (`new_since` 2.3 or older);
- nothing was fixed (a report) and it fails on 2.4.0: the failing line is one the rule reported.

A program's header comments can say more: `# harness: fresh` runs it in a new interpreter (it
sets what TensorFlow reads when it is imported); `# rules: CODE` selects another rule with its own
(a program that needs both fixes); `# breaks in TF's call of: NAME` says that TF 2.4 calls the
method `NAME` that the program overrides, with a keyword it no longer takes: the failure is at the
call, and the rule reports the definition. Rules with no program, and those whose break needs
hardware (only their spellings are executed), are listed in `tf24migrate.catalogue.evidence`, which the
rule reference renders, and their documentation says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from releases import Batch, Outcome

from tf24migrate import Severity, migrate_source
from tf24migrate.catalogue.evidence import BREAK_NEEDS, NO_PROGRAM
from tf24migrate.catalogue.selection import all_rules
from tf24migrate.model.target import parse_version

PROGRAMS = Path(__file__).parent / "rule_programs"
BEFORE, AFTER = "2.3.0", "2.4.0"


def code_of(program: Path) -> str:
    return program.name.split("-", 1)[0]


def header(program: Path, key: str) -> str | None:
    """The value of the comment `# key: value` among the program's first lines."""
    for line in program.read_text().splitlines()[:8]:
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    return None


def rule_programs() -> list[Path]:
    return sorted(PROGRAMS.glob("TF24*.py"))


@dataclass(frozen=True)
class Evidence:
    program: Path
    findings: tuple  # the rule's findings on the program as written
    migrated: Path | None  # None: no fix was applied
    outcomes: dict[tuple[str, Path], Outcome]

    def on(self, release: str, migrated: bool = False) -> Outcome:
        return self.outcomes[(release, self.migrated if migrated else self.program)]


@pytest.fixture(scope="module")
def evidence(tmp_path_factory) -> dict[str, Evidence]:
    folder = tmp_path_factory.mktemp("migrated")
    batch = Batch()
    migrations = {}
    for program in rule_programs():
        source = program.read_text()
        select = [code_of(program), *(header(program, "rules") or "").split()]
        result = migrate_source(source, path=str(program), select=select, unsafe_fixes=True)
        migrated = None
        if result.code != source:
            migrated = folder / program.name
            migrated.write_text(result.code)
        findings = tuple(f for f in result.findings if f.code == code_of(program))
        migrations[program] = (findings, migrated)
        fresh = header(program, "harness") == "fresh"
        for release in (BEFORE, AFTER):
            batch.add(release, program, fresh)
            if migrated:
                batch.add(release, migrated, fresh)
    outcomes = batch.run()
    return {
        program.name: Evidence(program, findings, migrated, outcomes)
        for program, (findings, migrated) in migrations.items()
    }


def _reaches(version: str | None, release: str) -> bool:
    """Whether a rule's version `X.Y` (None: never) is `release` or older."""
    release_version = parse_version(release.rsplit(".", 1)[0], "a release tested")
    return version is not None and parse_version(version, "a rule") <= release_version


def test_every_rule_has_a_program_or_a_reason():
    proven = {code_of(program) for program in rule_programs()}
    for rule in all_rules():
        doc = " ".join(rule.doc.split())
        if rule.code in NO_PROGRAM:
            assert rule.code not in proven, f"{rule.code} has a program now: drop it from NO_PROGRAM"
            assert NO_PROGRAM[rule.code] in doc, f"{rule.code}'s documentation must say why"
        else:
            assert rule.code in proven, f"{rule.code} has no program in {PROGRAMS.name}/ and no reason"
        if rule.code in BREAK_NEEDS:
            assert f"needs {BREAK_NEEDS[rule.code]}" in doc, f"{rule.code}'s documentation must say why"


@pytest.mark.tensorflow
@pytest.mark.parametrize("name", [program.name for program in rule_programs()])
def test_rule_program(name, evidence):
    proof = evidence[name]
    rule = next(rule for rule in all_rules() if rule.code == code_of(proof.program))
    before = proof.on(BEFORE)
    assert before.ran, f"{name} must run on TF {BEFORE} as written: {before.describe()}"
    assert proof.findings, f"{rule.code} did not fire on {name}"

    as_written = proof.on(AFTER)
    # a note (info) reports a change that breaks nothing
    breaks = (
        rule.code not in BREAK_NEEDS
        and rule.severity is not Severity.INFO
        and (_reaches(rule.old_removed, AFTER) or _reaches(rule.changed_in, AFTER))
    )
    assert as_written.ran is not breaks, (
        f"{rule.code} says the code {'breaks' if breaks else 'still works'} on TF {AFTER}: {as_written.describe()}"
    )
    if proof.migrated is None:
        if not breaks:
            return
        reported = {finding.line for finding in proof.findings}
        overridden = header(proof.program, "breaks in TF's call of")
        if overridden:
            lines = proof.program.read_text().splitlines()
            assert f"{overridden}() got an unexpected keyword argument" in as_written.error, (
                as_written.describe()
            )
            assert any(f"def {overridden}(" in lines[line - 1] for line in reported), sorted(reported)
            return
        assert as_written.lines and as_written.lines[-1] in reported, (
            f"{name} fails on TF {AFTER} at line {as_written.lines}, {rule.code} reported {sorted(reported)}: "
            f"{as_written.describe()}"
        )
        return

    migrated = proof.on(AFTER, migrated=True)
    assert migrated.ran, (
        f"migrated {name} fails on TF {AFTER}:\n{proof.migrated.read_text()}\n{migrated.describe()}"
    )
    there = _reaches(rule.new_since, BEFORE)
    migrated_before = proof.on(BEFORE, migrated=True)
    assert migrated_before.ran is there, (
        f"{rule.code} says its new spelling is {'' if there else 'not '}in TF {BEFORE} (new since "
        f"{rule.new_since}): {migrated_before.describe()}"
    )
