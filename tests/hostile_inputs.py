"""Hostile inputs that the tests of the server and the stress suite (`tests/stress/`) share: a
module whose only due fix is `experimental_run_v2(` -> `run(` (so what a migration must print is
known in advance: `migrated`), in odd encodings and line endings, deeply nested, broken, or in
syntax newer than the parser's."""

from __future__ import annotations

import json


def migrated(data: bytes) -> bytes:
    return data.replace(b"experimental_run_v2(", b"run(")


CALL = b"strategy.experimental_run_v2(step_fn)"

HEAD = b"import tensorflow as tf\n"

OLD = HEAD + CALL + b"\n"

NEW = migrated(OLD)


ENDINGS = {"lf": [b"\n"], "crlf": [b"\r\n"], "cr": [b"\r"], "mixed": [b"\n", b"\r\n", b"\r"]}


TAILS = {
    "final-eol": lambda e: b"",
    "no-final-eol": None,
    "blank-lines-at-end": lambda e: e * 3,
    "ws-line-after-blanks": lambda e: e + e + b"   ",
    "form-feed-lines": lambda e: b"\f" + e + b"\t" + e,
    "trailing-spaces": lambda e: b"y = 2   " + e + b"  " + e,
}


def body_with_endings(endings: list[bytes], tail) -> bytes:
    lines = [
        b"import tensorflow as tf",
        b"x = 1  # keep me",
        CALL,
        b"z = strategy.experimental_run_v2(",
        b"    f)",
    ]
    text = b"".join(line + endings[n % len(endings)] for n, line in enumerate(lines))
    if tail is None:
        return text[: -len(endings[(len(lines) - 1) % len(endings)])]
    return text + tail(endings[0])


ENCODED = {  # name: (bytes, what the command does: migrates, unchanged or refused)
    "bom-utf8": (b"\xef\xbb\xbf" + OLD, "migrates"),
    "bom-crlf": (b"\xef\xbb\xbf" + OLD.replace(b"\n", b"\r\n"), "migrates"),
    "latin1-cookie": (
        b"# -*- coding: latin-1 -*-\n" + HEAD + b"name = 'caf\xe9'\n" + CALL + b"\n",
        "migrates",
    ),
    "latin1-cookie-line2-crlf": (
        b"#!/usr/bin/env python\r\n# coding=latin-1\r\nn = '\xe9'\r\n" + CALL,
        "migrates",
    ),
    "cp1252-cookie": (b"# coding: cp1252\n" + HEAD + b"q = '\x93x\x94'\n" + CALL + b"\n", "migrates"),
    "u2028-in-string": (HEAD + "s = 'a\u2028b\u2029c'\n".encode() + CALL + b"\n", "migrates"),
    "form-feed-between": (HEAD + b"\f\n\fx = 1\n\f" + CALL + b"\n", "migrates"),
    "tabs-indent": (HEAD + b"def f():\n\tif x:\n\t\treturn " + CALL + b"\n", "migrates"),
    "multiline-call-cr": (
        HEAD.replace(b"\n", b"\r") + b"x = strategy.experimental_run_v2(\r    step_fn,\r)\r",
        "migrates",
    ),
    "only-comments": (b"# strategy.experimental_run_v2 in prose\n", "unchanged"),
    "empty": (b"", "unchanged"),
    "only-bom": (b"\xef\xbb\xbf", "unchanged"),
    "latin1-no-cookie": (HEAD + b"name = 'caf\xe9'\n" + CALL + b"\n", "refused"),
    "invalid-utf8": (HEAD + b"# \xff\xfe\xc3\n" + CALL + b"\n", "refused"),
    "utf8-cookie-latin1-bytes": (b"# coding: utf-8\n" + HEAD + b"n = '\xe9'\n" + CALL + b"\n", "refused"),
    "unknown-cookie": (b"# coding: klingon\n" + OLD, "refused"),
    "nul-byte": (HEAD + b"x = 1\0\n" + CALL + b"\n", "refused"),
    "utf16-bom": (b"\xff\xfe" + OLD.decode().encode("utf-16-le"), "refused"),
    "backslash-at-eof": (OLD + b"x = 1 \\", "refused"),
}


CELL_CODE = [
    "import tensorflow as tf\n",
    "s = tf.distribute.MirroredStrategy()\n",
    "s.experimental_run_v2(f)\n",
]


def notebook_text(*sources, indent=1, ensure_ascii=False, kernel="python", cells=None) -> bytes:
    cells = cells or [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
        for source in sources
    ]
    document = {
        "cells": cells,
        "metadata": {"kernelspec": {"language": kernel, "name": "k", "display_name": "K é"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return (json.dumps(document, indent=indent, ensure_ascii=ensure_ascii) + "\n").encode()


def chained(parts: list[str], joiner="") -> bytes:
    return joiner.join(parts).encode()


DEEP = {  # name: (statement, the issue names it)
    "parens-2000": (b"x = " + b"(" * 2000 + CALL + b")" * 2000, True),
    "plus-10000": (b"x = strategy.experimental_run_v2(" + chained(["a"] * 10_000, "+") + b")", True),
    "plus-1000": (b"x = strategy.experimental_run_v2(" + chained(["a"] * 1_000, "+") + b")", True),
    "call-chain-20000": (b"x = tf.a()" + chained([f".m{i}()" for i in range(20_000)]), True),
    "attribute-chain-20000": (b"x = tf" + chained([f".a{i}" for i in range(20_000)]), True),
    "plus-chain-20000": (b"x = tf.a()" + chained([f" + b{i}" for i in range(20_000)]), True),
    "lists-100000": (b"x = " + b"[" * 100_000 + b"]" * 100_000, False),
    "not-100000": (b"x = " + b"not " * 100_000 + b"y", False),
    "unary-100000": (b"x = " + b"-" * 100_000 + b"y", False),
    "ternary-10000": (b"x = " + b"a if b else " * 10_000 + b"c", False),
    "lambda-5000": (b"f = " + b"lambda: " * 5_000 + b"0", False),
    "string-concat-100000": (b"x = strategy.experimental_run_v2(f, " + b'"a" ' * 100_000 + b")", False),
    "dict-100000": (b"d = {" + chained([f"{i}: {i}" for i in range(100_000)], ", ") + b"}", False),
    "semicolons-10000": (chained([f"x{i} = {i}" for i in range(10_000)], "; ") + b"; " + CALL, False),
    "indent-120": (b"".join(b" " * i + b"if x:\n" for i in range(120)) + b" " * 120 + CALL, False),
    "long-line-2mb": (b"s = '" + b"x" * 2_000_000 + b"'; " + CALL, False),
}


NEWER = {  # name: source only a newer Python parses
    "pep695-type-alias": b"type Step = int\n",
    "pep695-generic-def": b"def first[T](items: list[T]) -> T:\n    return items[0]\n",
    "pep695-generic-class": b"class Box[T]:\n    pass\n",
    "pep701-nested-quotes": b'label = f"{"a" if x else "b"}"\n',
    "pep701-backslash": b"text = f\"{'\\n'.join(lines)}\"\n",
}


BROKEN = {
    "syntax-error": b"def f(:\n    " + CALL + b"\n",
    "indentation-error": HEAD + b"  x = 1\n" + CALL + b"\n",
    "unterminated-string": HEAD + CALL + b'\nx = """never closed\n',
    "unmatched-bracket": HEAD + CALL + b"\n)\n",
    "python2-print": HEAD + b'print "hello"\n' + CALL + b"\n",
}


def big_module(size: int) -> str:
    """A module of about `size` bytes (text): a call due a fix every 500 functions."""
    block = "".join(f'def f{n}(x):\n    return [x, {n}, "text {n}"]\n' for n in range(500))
    return HEAD.decode() + (CALL.decode() + "\n" + block) * max(size // len(block), 1)


# A byte sequence of each codec whose decoding encodes back otherwise (not bijective).
ODD_CODECS = {
    "big5": b"\xa1\xfe",
    "big5hkscs": b"\xa2\x7e",
    "cp950": b"\xa2\xcc",
    "cp932": b"\x87\x90",
    "johab": b"\x84A",
    "iso2022_jp": b"\x1b(Jabc\x1b(B",
    "utf-7": b"+AGEAYgBj-",
    "unicode_escape": b"\\u0041",
    "raw_unicode_escape": b"\\u0041",
}
