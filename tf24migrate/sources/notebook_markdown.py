"""A notebook's Markdown cells, for the rules that read prose (`scan_markdown`, such as TF24801).

Markdown is prose: no rule that reads code runs on it. A rule that overrides `Rule.scan_markdown`
gets each Markdown cell's text; its findings are placed in the cell, and the text it returns (its
fixes applied) replaces the cell's source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tf24migrate.catalogue.prefilter import Probe
from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.text_reports import TextReports
from tf24migrate.model.findings import Finding
from tf24migrate.rules.base import Rule


def markdown_readers(rules: Sequence[Rule]) -> list[Rule]:
    return [rule for rule in rules if rule.reads_markdown]


def migrate_markdown(
    cells: Sequence[tuple[int, str]], settings: Settings, *, path: str | None
) -> tuple[dict[int, str], list[Finding]]:
    """`({cell index: new source}, findings)` of the prose rules over the Markdown `cells`
    (`(cell number, text)`, numbered from 1 counting every cell)."""
    new_sources: dict[int, str] = {}
    findings: list[Finding] = []
    for rule in markdown_readers(settings.rules):
        for number, text in cells:
            if not Probe(text).could_fire((), rule.triggers):
                continue
            in_cell = [dataclasses.replace(f, cell=None) for f in settings.declined if f.cell == number]
            reports = TextReports(
                rule, path=path, target=settings.target, unsafe_fixes=settings.unsafe_fixes, declined=in_cell
            )
            new = rule.scan_markdown(reports, new_sources.get(number - 1, text))
            findings += [dataclasses.replace(f, cell=number) for f in reports.findings]
            if new != text:
                new_sources[number - 1] = new
    return new_sources, findings
