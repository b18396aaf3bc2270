"""`assert_never`: the last case of a `match` over a union, so that mypy reports a case left out.

`typing.assert_never` is Python 3.11+; the package supports 3.10.
"""

from __future__ import annotations

from typing import NoReturn


def assert_never(value: NoReturn) -> NoReturn:
    """Fail at run time too: a value of a type the union does not list reached the match."""
    raise AssertionError(f"unhandled case: {value!r}")
