"""A rule class is checked when it is defined: its handlers name LibCST nodes, it has no `visit_`
methods, and what it declares for text, Markdown and C sources is what the engine calls."""

from __future__ import annotations

import libcst as cst
import pytest

from tf24migrate import migrate_source
from tf24migrate.model.errors import RuleDefinitionError
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import RuleContext


def test_a_misspelt_handler_is_refused_with_the_nearest_node_names() -> None:
    with pytest.raises(RuleDefinitionError) as raised:

        class Misspelt(Rule):
            def leave_Cal(
                self, ctx: RuleContext, original: cst.Call, updated: cst.Call
            ) -> cst.BaseExpression:
                return updated

    message = str(raised.value)
    assert "Misspelt.leave_Cal" in message
    assert "`Cal` is not a LibCST node class" in message
    assert "did you mean `leave_Call`" in message
    assert "`leave_<Node>(self, ctx, original, updated)`" in message


def test_a_handler_of_no_node_at_all_says_what_to_write() -> None:
    with pytest.raises(RuleDefinitionError, match=r"`Frobnicate` is not a LibCST node class; a handler is"):

        class Unknown(Rule):
            def leave_Frobnicate(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.Call:
                return updated


def test_a_visit_method_is_refused() -> None:
    with pytest.raises(RuleDefinitionError) as raised:

        class Visiting(Rule):
            def visit_Call(self, node: cst.Call) -> None:
                pass

    message = str(raised.value)
    assert "Visiting.visit_Call: rules are never visited" in message
    assert "`leave_<Node>(self, ctx, original, updated)`, e.g. `leave_Call`" in message


def test_a_well_formed_rule_lists_its_handlers_and_hooks() -> None:
    class Fine(Rule):
        def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            return updated

        def leave_Name(self, ctx: RuleContext, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            return updated

    assert set(Fine().handlers()) == {"Call", "Name"}
    assert not Fine.reads_text and not Fine.reads_markdown and not Fine.c_identifiers


def test_the_prose_rule_reads_text_and_markdown_through_the_declared_hooks() -> None:
    from tf24migrate.catalogue.selection import find_rule

    prose = find_rule("TF24801")
    assert type(prose).reads_text and type(prose).reads_markdown
    source = "import tensorflow as tf\n# Calls `strategy.experimental_run_v2` once per replica.\n"
    result = migrate_source(source, select="TF24801", unsafe_fixes=True)
    assert result.code == source.replace("experimental_run_v2", "run")
    declined_by_target = migrate_source(source, select="TF24801", unsafe_fixes=True, target_version="2.3")
    assert declined_by_target.code == source
    assert declined_by_target.findings[0].message.endswith(
        "Unsafe fix (apply with --unsafe-fixes): `strategy.run`"
    )
