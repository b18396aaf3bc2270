"""Which rules are executed on the real TensorFlow releases, and why the others are not.

Every rule has a program in the repository's `tests/integration/rule_programs/`, written for TF 2.3
and run on TensorFlow 2.3.0 and 2.4.0, except those in `NO_PROGRAM`; the tests there check the
rule's versions (`new_since`, `old_removed`, `changed_in`) against what runs, and this table
against the programs. The rule reference (`tf24migrate.catalogue.docs`) says what was executed.
"""

from __future__ import annotations

EXECUTED_ON = ("2.3.0", "2.4.0")

# rule -> what its break needs that the integration tests do not have (hardware, an older Python):
# its program runs its spellings, not the break. The rule's documentation says "needs <that>".
BREAK_NEEDS = {
    "TF24503": "an NVIDIA Ampere GPU",
    "TF24507": "Python 3.6",
}

# rule -> why no program runs it. The rule's documentation says so.
NO_PROGRAM = {
    "TF24502": "TF 2.3.0 has no CPU kernel for complex `Max` / `Min` either",
    "TF24110": "the code it fixes is TF 2.4 code (the stable class is new in 2.4), which no TF 2.3 program holds",
    "TF24602": "the graph rewrite those variables configure runs on a GPU only",
    "TF24801": "it edits comments and docstrings, which do not run",
}


def executed_column(code: str) -> str:
    """The rule reference's table cell: `yes`, `spellings` (the break needs hardware) or `no`."""
    return "no" if code in NO_PROGRAM else "spellings" if code in BREAK_NEEDS else "yes"


def executed(code: str) -> str:
    """What was executed of the rule `code`, in words, for the rule reference."""
    releases = " and ".join(EXECUTED_ON)
    if code in NO_PROGRAM:
        return f"not executed: {NO_PROGRAM[code]}"
    if code in BREAK_NEEDS:
        return f"spellings executed on {releases}; the break needs {BREAK_NEEDS[code]}"
    return f"executed on {releases}"
