"""The engine pieces structural rules build on: argument layout (`calls`), and the rule context's
`move_binding`, `import_alongside`, `ancestors` and merged import statements (`transformer`)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.pipeline import run_rules
from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.calls import abbreviated, keep_arguments, keyword_arg, rebuild_args, split_call
from tf24migrate.rules.kinds import RenameSymbol


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _call(code: str) -> cst.Call:
    call = cst.parse_expression(code)
    assert isinstance(call, cst.Call)
    return call


# ------------------------------------------------------------------------------ calls


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("model.outputs[0].graph", "model.outputs[0].graph"),
        ("hidden.\\\n    graph", "hidden.graph"),
        ("f(a,\n  b)", "f(a, b)"),
        ("a + \\\r\n  b", "a + b"),
        ("tf.keras.layers.Dense(units=4, activation=None)", "tf.keras.layers.Dense(units=4, activa..."),
    ],
)
def test_abbreviated_shows_a_node_on_one_line_as_it_reads(code, shown):
    assert abbreviated(cst.parse_expression(code)) == shown


def test_split_call_puts_arguments_on_one_line_of_their_own_when_that_fits():
    call = _call("server(config(port=1, protocol='grpc'), start=False)")
    assert _code(split_call(call, indent="", limit=50)) == (
        "server(\n    config(port=1, protocol='grpc'), start=False\n)"
    )


def test_split_call_puts_one_argument_per_line_and_splits_a_nested_call_that_is_still_too_long():
    call = _call("server(config(port=the_port_number, protocol=the_protocol), start=False)")
    assert _code(split_call(call, indent="    ", limit=55)) == (
        "server(\n"
        "        config(\n"
        "            port=the_port_number, protocol=the_protocol\n"
        "        ),\n"
        "        start=False,\n"
        "    )"
    )


def test_rebuild_args_adds_arguments_on_new_lines_in_a_call_written_over_lines():
    call = _call("f(\n    a,  # first\n    b,  # second\n)")
    args = rebuild_args(call.args, [(None, cst.Name("a")), ("x", cst.Name("b")), ("y", cst.Name("c"))])
    assert _code(call.with_changes(args=args)) == "f(\n    a,  # first\n    x=b,\n    y=c,  # second\n)"


def test_rebuild_args_keeps_the_closing_layout_when_arguments_are_added():
    call = _call("f(\n    a, b\n)")
    args = rebuild_args(call.args, [(None, cst.Name("a")), ("x", cst.Name("b")), ("y", cst.Name("c"))])
    assert _code(call.with_changes(args=args)) == "f(\n    a, x=b, y=c\n)"


def test_keep_arguments_keeps_each_arguments_comment_and_the_closing_line():
    call = _call("f(\n    a,  # kept\n    b,  # dropped\n)")
    assert _code(keep_arguments(call, [call.args[0]])) == "f(\n    a,  # kept\n)"
    one_line = _call("f(a, b)")
    assert _code(keep_arguments(one_line, [one_line.args[0]])) == "f(a)"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # an argument on a line of its own goes with its line and comment; the line before keeps its own
        ("f(\n    a,  # kept\n    b,  # dropped\n)", "f(\n    a,  # kept\n)"),
        # `)` on the removed argument's line moves up to the kept one
        ("f(a,\n  b)", "f(a)"),
        ("f(\n    a,  # kept\n    b)", "f(\n    a  # kept\n)"),
        # an argument sharing its line leaves the line and its comment to the other
        ("f(a, c,  # kept\n  b)", "f(a, c  # kept\n)"),
        ("f(a,  # kept\n  c, b)", "f(a,  # kept\n  c)"),
        # a lone argument left, without comment or trailing comma: one line
        ("f(\n    a, b)", "f(a)"),
        ("f(\n    a,\n    b,\n)", "f(\n    a,\n)"),
        ("f(a, b,)", "f(a)"),
    ],
)
def test_keep_arguments_removes_the_argument_b_as_a_person_would(code, expected):
    call = _call(code)
    kept = [arg for arg in call.args if _code(arg.value) != "b"]
    assert _code(keep_arguments(call, kept)) == expected


def test_keep_arguments_removes_a_first_argument_with_its_line():
    call = _call("f(\n    a,  # dropped\n    b,  # kept\n    c,\n)")
    assert _code(keep_arguments(call, call.args[1:])) == "f(\n    b,  # kept\n    c,\n)"


def test_keep_arguments_removes_a_middle_argument_sharing_its_line():
    call = _call("f(a, b,  # kept\n  c)")
    assert _code(keep_arguments(call, [call.args[0], call.args[2]])) == "f(a,  # kept\n  c)"
    call = _call("f(a,  # kept\n  b, c)")
    assert _code(keep_arguments(call, [call.args[0], call.args[2]])) == "f(a,  # kept\n  c)"


def test_rebuild_args_with_fewer_arguments_keeps_the_comment_of_the_kept_line():
    call = _call("f(\n    opt,  # inner optimizer\n    loss_scale='dynamic',  # scale\n)")
    args = rebuild_args(call.args, [(None, cst.Name("opt"))])
    assert _code(call.with_changes(args=args)) == "f(\n    opt,  # inner optimizer\n)"


# ------------------------------------------------------------------------ rule context


class _WrapServer(Rule):
    """`Server(p)` → `Server(Config(port=p))`, the config imported alongside the server."""

    code = "TF24999"
    name = "wrap-server"
    fix = Fix.SAFE
    triggers = ("Server",)

    def leave_Call(self, ctx, original, updated):
        if ctx.qualified_name(original.func) != "tensorflow.x.Server":
            return updated
        config = ctx.import_alongside(original.func, "Config")
        if config is None:
            ctx.report(original, "wrap it by hand")
            return updated
        arg = cst.Arg(cst.Call(config, [keyword_arg("port", updated.args[0].value)]))
        return ctx.report(original, "wrap", replacement=updated.with_changes(args=[arg])) or updated


def _run(source: str, *rules: Rule, unsafe_fixes: bool = False):
    return run_rules(textwrap.dedent(source), Settings(rules, unsafe_fixes=unsafe_fixes))


def test_import_alongside_adds_the_name_to_the_statement_that_imported_the_call():
    result = _run(
        """\
        from tensorflow.x import Server
        import os

        a = Server(1)
        b = Server(2)
        """,
        _WrapServer(),
    )
    assert result.code == textwrap.dedent(
        """\
        from tensorflow.x import Server, Config
        import os

        a = Server(Config(port=1))
        b = Server(Config(port=2))
        """
    )


def test_import_alongside_adds_nothing_when_the_fix_is_suppressed():
    source = "from tensorflow.x import Server\n\na = Server(1)  # tf24migrate: ignore\n"
    assert _run(source, _WrapServer()).code == source


def test_import_alongside_refuses_a_name_the_file_uses_for_something_else():
    source = "from tensorflow.x import Server\nConfig = dict\n\na = Server(1)\n"
    result = _run(source, _WrapServer())
    assert result.code == source
    assert [f.message for f in result.findings] == ["wrap it by hand"]


def test_ancestors_are_the_enclosing_original_nodes_innermost_first():
    seen = []

    class Probe(Rule):
        code = "TF24998"
        name = "probe"
        triggers = ("probe",)

        def leave_Name(self, ctx, original, updated):
            if original.value == "probe":
                seen.append([type(node).__name__ for node in ctx.ancestors[:3]])
            return updated

    _run("f(probe)\n", Probe())
    assert seen == [["Arg", "Call", "Expr"]]


def test_a_moved_import_spells_new_names_through_the_users_alias():
    """`from a import old_mod as m` moved to `b.new_mod`: a rule spelling `b.new_mod.g` gets `m.g`."""

    class RenameFunction(Rule):
        code = "TF24997"
        name = "rename-function"
        fix = Fix.SAFE
        triggers = ("f",)

        def leave_Attribute(self, ctx, original, updated):
            if ctx.qualified_name(original) != "tensorflow.a.old_mod.f":
                return updated
            new = ctx.spell("tensorflow.b.new_mod.g", like=original)
            return ctx.report(original, "renamed", replacement=new) or updated

    move = RenameSymbol(
        code="TF24996",
        name="move-module",
        old="tensorflow.a.old_mod",
        new="tensorflow.b.new_mod",
        doc="",
        severity=Severity.WARNING,
        triggers=("old_mod",),
    )
    result = _run("from tensorflow.a import old_mod as m\n\nm.f()\n", move, RenameFunction())
    assert result.code == "from tensorflow.b import new_mod as m\n\nm.g()\n"


def test_names_moved_out_of_one_import_statement_land_in_one_statement():
    rows = [
        RenameSymbol(
            code=f"TF2499{index}",
            name=f"move-{name}",
            old=f"tensorflow.old.{name}",
            new=f"tensorflow.new.{name}",
            doc="",
            severity=Severity.WARNING,
        )
        for index, name in enumerate(("A", "B"))
    ]
    result = _run("from tensorflow.old import A, B, C\n", *rows)
    assert result.code == "from tensorflow.old import C\nfrom tensorflow.new import A, B\n"
