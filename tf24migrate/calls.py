"""Helpers for structural rules that change a call's arguments: bind them to a signature, and
rebuild an argument list that keeps the user's commas, line breaks and comments."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

_NO_SPACE = cst.SimpleWhitespace("")


class UnboundArguments(ValueError):
    """The call's arguments cannot be matched to the signature statically."""


def bind_arguments(args: Sequence[cst.Arg], params: Sequence[str]) -> dict[str, cst.Arg]:
    """`{parameter: Arg}` as Python would bind `args` to `params` (all positional-or-keyword).

    Raises `UnboundArguments` for `*args` / `**kwargs`, too many positional arguments, an unknown
    keyword, or a parameter given twice.
    """
    bound: dict[str, cst.Arg] = {}
    position = 0
    for arg in args:
        if arg.star:
            raise UnboundArguments(
                f"the call passes `{arg.star}` arguments, which cannot be matched statically"
            )
        if arg.keyword is None:
            if position >= len(params):
                raise UnboundArguments(f"the call passes more than {len(params)} positional arguments")
            name = params[position]
            position += 1
        else:
            name = arg.keyword.value
            if name not in params:
                raise UnboundArguments(f"the call passes an unknown keyword `{name}=`")
        if name in bound:
            raise UnboundArguments(f"the call passes `{name}` twice")
        bound[name] = arg
    return bound


def keyword_arg(name: str, value: cst.BaseExpression, like: cst.Arg | None = None) -> cst.Arg:
    """`name=value`, keeping the whitespace and comma of `like` when given."""
    if like is not None and like.keyword is not None:
        return like.with_changes(keyword=cst.Name(name), value=value)
    equal = cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE)
    if like is not None:
        return like.with_changes(keyword=cst.Name(name), value=value, equal=equal)
    return cst.Arg(keyword=cst.Name(name), value=value, equal=equal)


def rebuild_args(
    slots: Sequence[cst.Arg], new: Sequence[tuple[str | None, cst.BaseExpression]]
) -> list[cst.Arg]:
    """Arguments `new` (keyword or None, value), laid into the user's argument `slots` in order.

    Each new argument takes the comma and whitespace of the slot at its index, so line breaks and
    comments between arguments survive; the last keeps the comma of the user's last argument.
    Arguments beyond the number of slots get plain `, ` separators.
    """
    result: list[cst.Arg] = []
    for index, (keyword, value) in enumerate(new):
        slot = slots[index] if index < len(slots) else None
        if keyword is None:
            arg = (
                slot.with_changes(value=value, keyword=None, equal=cst.MaybeSentinel.DEFAULT)
                if slot
                else cst.Arg(value)
            )
        else:
            arg = keyword_arg(keyword, value, like=slot)
        result.append(arg)
    if result:
        for index in range(len(result) - 1):
            if result[index].comma is cst.MaybeSentinel.DEFAULT:
                result[index] = result[index].with_changes(
                    comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
        last_comma = slots[-1].comma if slots else cst.MaybeSentinel.DEFAULT
        if len(result) != len(slots):
            result[-1] = result[-1].with_changes(comma=last_comma)
    return result
