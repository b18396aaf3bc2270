"""Torture cases on what a file holds: encodings and line endings, library arguments, notebooks,
configs, nesting and syntax the parser must refuse (the outcomes are defined in `test_torture.py`)."""

from __future__ import annotations

import json
import os
import sys

from hostile_inputs import (
    BROKEN,
    CALL,
    CELL_CODE,
    DEEP,
    ENCODED,
    ENDINGS,
    HEAD,
    NEW,
    NEWER,
    OLD,
    TAILS,
    body_with_endings,
    migrated,
    notebook_text,
)
from trial import Trial, as_nobody, check_library, check_stdin, check_write


def theme_encodings(options):
    for ending, endings in ENDINGS.items():
        for tail_name, tail in TAILS.items():
            data = body_with_endings(endings, tail)
            name = f"{ending}-{tail_name}"
            yield f"enc-write-{name}", 4, lambda t, d=data: check_write(t, {"train.py": d})
            yield f"enc-stdin-{name}", 4, lambda t, d=data: check_stdin(t, d, codes=(0,))
            yield f"enc-library-{name}", 4, lambda t, d=data: check_library(t, d)
    for name, (data, does) in ENCODED.items():
        codes = (2,) if does == "refused" else (0,)
        names = ("train.py",) if does == "refused" else ()
        bad = ("bad encoding declaration",) if name in ("latin1-no-cookie", "invalid-utf8") else ()
        expected = None if does == "migrates" else {"train.py": data}
        yield (
            f"enc-write-{name}",
            12 if does == "refused" else 4,
            lambda t, d=data, c=codes, x=expected, n=names, b=bad: check_write(
                t, {"train.py": d}, codes=c, expected=x, names=n, not_says=b
            ),
        )
        yield f"enc-stdin-{name}", 7, lambda t, d=data, c=codes, b=bad: check_stdin(t, d, c, not_says=b)
    yield "enc-library-bom", 4, lambda t: check_library(t, ENCODED["bom-utf8"][0])
    yield "enc-library-latin1", 4, lambda t: check_library(t, ENCODED["latin1-cookie"][0], "latin-1")
    yield "enc-library-form-feed-between", 4, lambda t: check_library(t, ENCODED["form-feed-between"][0])
    yield "enc-library-u2028", 4, lambda t: check_library(t, ENCODED["u2028-in-string"][0])
    c_source = (
        b"/* caf\xe9, \xa9 2020 */\n#include <x.h>\nsize_t n = TF_StringEncode(src, len, dst, cap, st);\n"
    )
    yield (
        "enc-c-source-latin1",
        12,
        lambda t: check_write(
            t,
            {"ops.cc": c_source},
            codes=(0, 1),
            expected={},
            not_says=("encoding declaration", "cannot read"),
        ),
    )


def theme_library(options):
    def typed(kind, data=b"", says="str"):
        def case(t):
            result = t.library(kind, data)
            if "code" in result:
                if kind not in ("bytes", "bytearray") or result["code"] != migrated(data).decode("latin-1"):
                    t.fail("other failure", f"migrate_source({kind}) returned {result['code'][:40]!r}")
            elif result.get("error") != "TypeError" or says not in result.get("message", ""):
                t.fail("unclear message", f"migrate_source({kind}): {result}")

        return case

    yield "lib-none", 15, typed("none")
    yield "lib-bytes-utf8", 15, typed("bytes", OLD)
    yield "lib-bytes-latin1-cookie", 15, typed("bytes", ENCODED["latin1-cookie"][0])
    yield "lib-bytearray", 15, typed("bytearray", OLD)
    yield "lib-list-of-lines", 15, typed("list", OLD)
    yield "lib-int", 15, typed("int")
    yield "lib-lone-surrogate", 15, lambda t: check_library(t, HEAD + b"s = '\xed\xb3\xa9'\n" + CALL + b"\n")
    yield "lib-nul", 15, lambda t: check_library(t, HEAD + b"x = '\0'\n" + CALL)
    yield "lib-5mb", 15, lambda t: check_library(t, HEAD + b"x = 1\n" * 800_000 + CALL + b"\n")
    yield "lib-syntax-error", 15, lambda t: check_library(t, b"def f(:\n    " + CALL + b"\n")

    def bad_argument(argument, error, says):
        def case(t):
            result = t.library("str:utf-8", OLD, **argument)
            if result.get("error") != error or says not in result.get("message", ""):
                t.fail("unclear message", f"migrate_source(..., {argument}): {result}")

        return case

    yield "lib-unknown-rule", 15, bad_argument({"select": ["TF99999"]}, "UnknownRuleError", "TF99999")
    yield "lib-bad-target", 15, bad_argument({"target_version": "banana"}, "TargetVersionError", "banana")


def _odd(cells_json: str, nbformat=4) -> bytes:
    return (
        f'{{"cells": {cells_json}, "metadata": {{}}, "nbformat": {nbformat}, "nbformat_minor": 5}}'.encode()
    )


def theme_notebooks(options):
    def migrates(data, codes=(0,)):
        return lambda t: check_write(t, {"nb.ipynb": data}, codes=codes)

    def refused(data, says=("nb.ipynb",)):
        expected = {"nb.ipynb": data}
        return lambda t: check_write(t, {"nb.ipynb": data}, codes=(2,), expected=expected, names=says)

    markdown = {"cell_type": "markdown", "metadata": {}, "source": ["Calls `experimental_run_v2` (old)\n"]}
    code = {"cell_type": "code", "metadata": {}, "outputs": [], "source": CELL_CODE}
    yield "nb-nbformat-layout", 4, migrates(notebook_text(CELL_CODE, "x = 1\n"))
    yield "nb-colab-layout", 4, migrates(notebook_text("".join(CELL_CODE), indent=2, ensure_ascii=True)[:-1])
    yield "nb-one-line-json", 4, migrates(notebook_text(CELL_CODE, indent=None))
    yield "nb-crlf-json", 4, migrates(notebook_text(CELL_CODE).replace(b"\n", b"\r\n"))
    yield "nb-bom", 4, migrates(b"\xef\xbb\xbf" + notebook_text(CELL_CODE), codes=(0, 2))
    yield "nb-markdown-and-outputs", 4, migrates(notebook_text(cells=[markdown, code, markdown]))
    yield "nb-magics", 4, migrates(notebook_text(["%matplotlib inline\n", "!ls\n", *CELL_CODE, "x = !pwd\n"]))
    yield (
        "nb-crlf-inside-source",
        4,
        migrates(notebook_text(["import tensorflow as tf\r\n", "s.experimental_run_v2(f)\r\n"])),
    )
    for odd, label in (("\u2028", "u2028"), ("\f", "form-feed"), ("\x1c", "fs"), ("\x85", "nel")):
        for ascii_ in (False, True):
            lines = ["import tensorflow as tf\n", f"label = 'a{odd}b'\n", "s.experimental_run_v2(f)\n"]
            data = notebook_text(lines, ensure_ascii=ascii_)
            yield f"nb-{label}-in-kept-line{'-escaped' if ascii_ else ''}", 8, migrates(data)
    for held in (
        "__tf24m_cell_1__\n",
        "x = 1\n__tf24m_cell_7__ = 2\n",
        "__tf24m_ipython_0__\n",
        "%time x\n__tf24m_ipython_0__\n",
    ):
        yield (
            f"nb-marker-{held.split()[0][:16]}",
            12,
            migrates(notebook_text(CELL_CODE, held, "s.experimental_run_v2(g)\n")),
        )
    twice = _odd('[], "cells": [' + json.dumps(code) + "]")
    yield "nb-duplicate-cells-key", 3, refused(twice, ("nb.ipynb", "appears twice"))
    source_twice = json.dumps(code)[:-1] + ', "source": ["x = 1\\n"]}'
    yield "nb-duplicate-source-key", 3, refused(_odd(f"[{source_twice}]"), ("nb.ipynb", "appears twice"))
    type_twice = json.dumps(code)[:-1] + ', "cell_type": "markdown"}'
    yield "nb-duplicate-cell-type-key", 3, refused(_odd(f"[{type_twice}]"), ("nb.ipynb", "appears twice"))
    odd = {
        "array": b"[1, 2]",
        "cells-object": _odd('{"a": 1}'),
        "cell-without-source": _odd(f'[{json.dumps(code)}, {{"cell_type": "code"}}]'),
        "source-number": _odd('[{"cell_type": "code", "source": 3}]'),
        "source-object": _odd('[{"cell_type": "markdown", "source": {"a": 1}}]'),
        "source-list-number": _odd('[{"cell_type": "code", "source": ["x", 1]}]'),
        "cell-string": _odd(f'[{json.dumps(code)}, "print(1)"]'),
        "nbformat3": json.dumps({"worksheets": [{"cells": [code]}], "nbformat": 3}).encode(),
        "metadata-list": json.dumps({"cells": [code], "metadata": [], "nbformat": 4}).encode(),
        "null": b"null",
        "truncated": notebook_text(CELL_CODE)[:-40],
        "not-json": b"import tensorflow as tf\ns.experimental_run_v2(f)\n",
        "deep-json": b'{"cells": [], "metadata": ' + b'{"a": ' * 100_000 + b"1" + b"}" * 100_001,
        "empty": b"",
    }
    for name, data in odd.items():
        yield f"nb-odd-{name}", 12, refused(data)
    broken = notebook_text(["def f(:\n"], CELL_CODE)
    yield "nb-broken-cell", 12, lambda t: check_write(t, {"nb.ipynb": broken}, codes=(1,))
    yield (
        "nb-r-kernel",
        12,
        lambda t: check_write(t, {"nb.ipynb": notebook_text(CELL_CODE, kernel="R")}, expected={}),
    )
    big = notebook_text(["import tensorflow as tf\n"] + ["x = 1\n"] * 50_000 + ["s.experimental_run_v2(f)\n"])
    yield "nb-huge-cell", 11, migrates(big)
    yield "nb-5000-cells", 11, migrates(notebook_text(*[CELL_CODE] * 5000))
    yield (
        "nb-stdin",
        7,
        lambda t: check_stdin(t, notebook_text(CELL_CODE), (0,), ("--stdin-filename", "x.ipynb", "-")),
    )
    yield (
        "nb-stdin-odd",
        7,
        lambda t: check_stdin(t, odd["source-number"], (2,), ("--stdin-filename", "x.ipynb", "-")),
    )


def theme_configs(options):
    def config(
        content: bytes,
        codes=(2,),
        says=(),
        not_says=(),
        args=("--diff", "train.py"),
        names=("pyproject.toml",),
    ):
        def case(t):
            if content is not None:
                t.write("pyproject.toml", content)
            t.write("train.py", OLD)
            run = t.run(*args)  # `train.py` is due: a run that reads the config exits 1
            t.code(run, *codes)
            t.message(run, names=names if run.returncode == 2 else (), says=says, not_says=not_says)

        return case

    table = b"[tool.tf24migrate]\n"
    yield "cfg-not-utf8", 10, config(table + b"select = ['TF24101'] # caf\xe9\n", says=("not UTF-8",))
    yield "cfg-too-deep", 10, config(b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n" + table, says=("too deep",))
    yield "cfg-tool-string", 10, config(b'tool = "x"\n# tf24migrate\n', says=("must be a table",))
    yield "cfg-not-toml", 10, config(b"[tool.tf24migrate\n", says=("not valid TOML",))
    yield "cfg-bom", 10, config(b"\xef\xbb\xbf" + table, codes=(1, 2))
    yield "cfg-empty", 13, config(b"", codes=(1,))
    yield (
        "cfg-quoted-key",
        13,
        config(b'[tool."tf24migrate"]\nselect = ["TF24103"]\n', codes=(0,), not_says=("TF24101",)),
    )
    yield (
        "cfg-inline-table",
        13,
        config(b'tool = {tf24migrate = {select = ["TF24103"]}}\n', codes=(0,), not_says=("TF24101",)),
    )
    yield "cfg-select-number", 10, config(table + b"select = 3\n")
    yield "cfg-unknown-rule", 10, config(table + b'select = ["TF99999"]\n', says=("TF99999",))
    yield "cfg-bad-target", 10, config(table + b'target-version = "banana"\n', says=("banana",))
    yield "cfg-jobs-string", 10, config(table + b'jobs = "many"\n', codes=(1, 2))
    yield "cfg-unknown-key", 10, config(table + b'selct = ["TF24101"]\n', codes=(1, 2))
    yield (
        "cfg-bad-glob",
        10,
        config(table + b'exclude = ["[", "**/***"]\n', codes=(0, 2), args=("--check", ".")),
    )
    yield (
        "cfg-bad-requirement",
        13,
        config(b'[project]\nname = "p"\ndependencies = ["tensorflow>=two", 3]\n', codes=(1, 2)),
    )
    yield (
        "cfg-pinned-23",
        13,
        config(b'[project]\nname = "p"\ndependencies = ["tensorflow==2.3.*"]\n', codes=(1,)),
    )

    def special(make):
        def case(t):
            make(t.dir / "pyproject.toml")
            config(None, codes=(1, 2))(t)

        return case

    yield "cfg-folder", 10, special(lambda p: p.mkdir())
    yield "cfg-fifo", 11, special(lambda p: os.mkfifo(p))
    yield "cfg-symlink-loop", 10, special(lambda p: p.symlink_to(p))
    yield "cfg-broken-symlink", 10, special(lambda p: p.symlink_to(p.parent / "gone.toml"))
    yield "cfg-unreadable", 10, as_nobody(special(lambda p: (p.write_bytes(table), p.chmod(0))))

    def above_repository(t):
        t.write("pyproject.toml", b'[tool.tf24migrate]\nselect = ["TF24103"]\n')
        (t.dir / "repo" / ".git").mkdir(parents=True)
        t.write("repo/train.py", OLD)
        run = t.run("--diff", "train.py", cwd=t.dir / "repo")
        t.code(run, 1)
        t.message(run, says=("TF24101",))  # the outer select is not applied

    yield "cfg-above-repository", 13, above_repository

    def two_projects(t):
        for project in ("a", "b"):
            t.write(f"{project}/pyproject.toml", b"[tool.tf24migrate]\nignore = []\n")
            t.write(f"{project}/m.py", OLD)
        run = t.run("--check", "a", "b")
        t.code(run, 1)
        t.message(run, says=("2 configs: a/pyproject.toml", "b/pyproject.toml"))

    yield "cfg-two-projects", 13, two_projects


def theme_parsing(options):
    def deep(data: bytes, jobs: str, issue: bool):
        def case(t):
            says = ("a_deep.py:", "TF24005 error cannot parse") if issue else ()
            check_write(
                t,
                {"a_deep.py": data, "b_train.py": OLD},
                args=("--write", "-j", jobs, "."),
                codes=(2,) if issue else (0, 1, 2),
                says=says,
            )

        return case

    for name, (statement, issue) in DEEP.items():
        data = HEAD + statement + b"\n" + CALL + b"\n"
        item = 9 if "parens" in name or "plus-10" in name else 11
        yield f"deep-{name}", item, deep(data, "1", issue)
        if name in ("parens-2000", "plus-10000", "lists-100000", "not-100000"):
            yield f"deep-j2-{name}", 9, deep(data, "2", issue)
            yield f"deep-stdin-{name}", 7, lambda t, d=data: check_stdin(t, d)
            yield f"deep-library-{name}", 9, lambda t, d=data: check_library(t, d)
    newer = sys.version_info < (3, 12)
    for name, statement in NEWER.items():
        data = HEAD + statement + CALL + b"\n"
        says = ("newer Python",) if newer else ()
        codes = (2,) if newer else (0,)
        yield (
            f"newer-{name}",
            12,
            lambda t, d=data, s=says, c=codes: check_write(
                t, {"train.py": d}, codes=c, names=("train.py",) if newer else (), says=s
            ),
        )
        yield f"newer-stdin-{name}", 7, lambda t, d=data, s=says, c=codes: check_stdin(t, d, c, says=s)
    for name, data in BROKEN.items():
        yield (
            f"broken-{name}",
            12,
            lambda t, d=data: check_write(
                t,
                {"train.py": d, "ok.py": OLD},
                codes=(2,),
                expected={"ok.py": NEW},
                says=("train.py:", "TF24005 error cannot parse"),
            ),
        )
        yield f"broken-stdin-{name}", 7, lambda t, d=data: check_stdin(t, d, (2,))
    yield "stdin-empty", 7, lambda t: check_stdin(t, b"", (0,))
    yield "stdin-check-prints-nothing", 7, lambda t: _stdin_check(t)


def _stdin_check(t: Trial) -> None:
    run = t.run("--check", "-", stdin=OLD)
    t.code(run, 1)
    if run.stdout:
        t.fail("other failure", f"--check - printed on stdout: {run.stdout[:60]!r}")
