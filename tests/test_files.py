"""Never lose data: encodings, line endings, modes, symlinks, bad inputs, concurrent edits, Ctrl-C."""

from __future__ import annotations

import dataclasses
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from command_line import run_in_process

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import MigrationResult, Status
from tf24migrate.rules.base import Rule
from tf24migrate.run.migrate_file import migrate_file
from tf24migrate.sources.kinds import BY_SUFFIX, PYTHON

OLD_CALL = b"strategy.experimental_run_v2(step_fn)"
NEW_CALL = b"strategy.run(step_fn)"

# name -> (bytes before, bytes expected after --write)
PRESERVED = {
    "latin1.py": (
        b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n" + OLD_CALL + b"\n",
        b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n" + NEW_CALL + b"\n",
    ),
    "bom.py": (
        b"\xef\xbb\xbfx = '\xc3\xa9'\n" + OLD_CALL + b"\n",
        b"\xef\xbb\xbfx = '\xc3\xa9'\n" + NEW_CALL + b"\n",
    ),
    "crlf.py": (b"import os\r\n" + OLD_CALL + b"\r\n", b"import os\r\n" + NEW_CALL + b"\r\n"),
    "mixed.py": (
        b"a = 1\r\nb = 2\n" + OLD_CALL + b"\r\nc = 3\n",
        b"a = 1\r\nb = 2\n" + NEW_CALL + b"\r\nc = 3\n",
    ),
    "no_final_newline.py": (b"x = 1\n" + OLD_CALL, b"x = 1\n" + NEW_CALL),
}
# name -> (bytes, what the error says)
BAD = {
    "unparsable.py": (b"def f(:\n    " + OLD_CALL + b"\n", "1:7: TF24005 error cannot parse: invalid syntax"),
    "binary.py": (b"x = 1\n\x00\x01\x02" + OLD_CALL, "binary file (NUL byte at line 2)"),
    "undecodable.py": (b"x = 1\ny = '\xff\xfe'\n" + OLD_CALL + b"\n", "cannot decode as utf-8 at line 2"),
    "bad_cookie.py": (b"# -*- coding: klingon -*-\n" + OLD_CALL + b"\n", "unknown encoding"),
}


def test_encodings_line_endings_and_final_newline_are_kept_exactly(tmp_path):
    for name, (before, _) in PRESERVED.items():
        (tmp_path / name).write_bytes(before)
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for name, (_, after) in PRESERVED.items():
        assert (tmp_path / name).read_bytes() == after, name


def test_bad_files_are_left_byte_identical_reported_and_the_run_goes_on(tmp_path):
    for name, (content, _) in BAD.items():
        (tmp_path / name).write_bytes(content)
    (tmp_path / "good.py").write_bytes(OLD_CALL + b"\n")
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 2
    for name, (content, message) in BAD.items():
        assert (tmp_path / name).read_bytes() == content, name
        output = result.stdout + result.stderr
        assert f"./{name}:" in output and message in output, (name, output)
    assert (tmp_path / "good.py").read_bytes() == NEW_CALL + b"\n"
    assert f"{len(BAD) + 1} files scanned, 1 changed, {len(BAD)} failed" in result.stderr
    assert list(tmp_path.glob(".tf24migrate-*")) == []


def test_file_mode_is_kept(tmp_path):
    script = tmp_path / "train.py"
    script.write_bytes(b"#!/usr/bin/env python\n" + OLD_CALL + b"\n")
    script.chmod(0o751)
    assert run_in_process("--write", "train.py", cwd=tmp_path).returncode == 0
    assert script.read_bytes().endswith(NEW_CALL + b"\n")
    assert stat.S_IMODE(script.stat().st_mode) == 0o751


def test_a_symlink_stays_a_symlink_and_its_target_is_migrated(tmp_path):
    target = tmp_path / "real.py"
    target.write_bytes(OLD_CALL + b"\n")
    (tmp_path / "src").mkdir()
    link = tmp_path / "src" / "link.py"
    link.symlink_to(target)
    result = run_in_process("--write", "src", "real.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == NEW_CALL + b"\n"
    assert "1 file scanned" in result.stderr  # the same file, reached twice, is migrated once


def test_a_file_changed_after_it_was_read_is_not_overwritten(tmp_path, monkeypatch):
    path = tmp_path / "edited.py"
    path.write_bytes(OLD_CALL + b"\n")
    edited_meanwhile = b"# the user's edit\n" + OLD_CALL + b"\n"

    def migrate_while_the_user_edits(text, settings, *, path):
        with open(path, "wb") as handle:
            handle.write(edited_meanwhile)
        return MigrationResult(source=text, code=text.replace("experimental_run_v2", "run"))

    monkeypatch.setitem(BY_SUFFIX, ".py", dataclasses.replace(PYTHON, migrate=migrate_while_the_user_edits))
    result = migrate_file(str(path), Settings(select_rules()), write=True)
    assert result.status is Status.FAILED
    assert "changed on disk after it was read; it was not overwritten" in result.error
    assert path.read_bytes() == edited_meanwhile


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group")
def test_ctrl_c_leaves_each_file_old_or_new_and_no_temporary_files(tmp_path):
    before = b"import tensorflow as tf\n" + (b"x = 1\n" * 300) + OLD_CALL + b"\n"
    after = before.replace(OLD_CALL, NEW_CALL)
    for n in range(400):
        (tmp_path / f"m{n:03d}.py").write_bytes(before)
    process = subprocess.Popen(
        [sys.executable, "-m", "tf24migrate", "--write", "--quiet", "-j", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # interrupt once some files are written, before all are
        if any(p.read_bytes() == after for p in tmp_path.glob("m*.py")):
            break
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: the whole process group
    _, stderr = process.communicate(timeout=60)
    contents = [p.read_bytes() for p in sorted(tmp_path.glob("m*.py"))]
    assert all(content in (before, after) for content in contents)
    assert list(tmp_path.glob(".tf24migrate-*")) == []
    if process.returncode == 130:  # interrupted (not finished before the signal arrived)
        assert b"interrupted before all 400 files were done" in stderr
        assert before in contents
    else:
        assert process.returncode == 0


def test_invalid_escape_sequences_are_not_our_business(tmp_path):
    import warnings

    from tf24migrate import migrate_source

    source = 'import re\npattern = re.compile("\\d+")\n' + OLD_CALL.decode() + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Python 3.12 prints a SyntaxWarning for "\d" by default
        result = migrate_source(source)
    assert result.code == source.replace("experimental_run_v2", "run")


def test_a_crashing_rule_fails_its_file_and_the_run_goes_on(tmp_path, monkeypatch):
    from tf24migrate.run.migrate import migrate_files

    def crash(text, settings, *, path):
        if path.endswith("a.py"):
            raise AttributeError("'NoneType' object has no attribute 'value'")
        return MigrationResult(source=text, code=text)

    monkeypatch.setitem(BY_SUFFIX, ".py", dataclasses.replace(PYTHON, migrate=crash))
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_bytes(OLD_CALL + b"\n")
    results = list(migrate_files([str(tmp_path / "a.py"), str(tmp_path / "b.py")], Settings(select_rules())))
    assert [r.status for r in results] == [Status.FAILED, Status.UNCHANGED]
    assert "internal error (AttributeError: 'NoneType' object has no attribute 'value')" in results[0].error


class _BreaksCode(Rule):
    """A rule with a bug: it renames `experimental_run_v2` to text that is not an identifier."""

    code = "TF24999"
    name = "breaks-code"
    triggers = ("experimental_run_v2",)

    def __init__(self, replacement: str) -> None:
        self.replacement = replacement

    def leave_Name(self, ctx, original, updated):
        if original.value != "experimental_run_v2":
            return updated
        return (
            ctx.report(original, "broken", replacement=updated.with_changes(value=self.replacement))
            or updated
        )


LEFT_OUT = b"    padding = compute_something_long(1, 2, 3, 'long enough to be left out')\n"
BROKEN_STATEMENT_PLACES = {
    # Between statements no rule touches: its own text is checked.
    "top level": b"import os\n\n" + OLD_CALL + b"\nx = (\n    1,\n)\n",
    # In a function whose other statements LibCST never sees: the function is checked with each of
    # them as its marker, standing where they stood.
    "among statements left out": b"def train(strategy):\n" + LEFT_OUT + b"    " + OLD_CALL + b"\n" + LEFT_OUT,
}


@pytest.mark.parametrize("place", BROKEN_STATEMENT_PLACES)
@pytest.mark.parametrize(
    ("replacement", "problem"),
    [("lambda", "produced code that does not parse"), ("run now", "failed (CSTValidationError: Name")],
)
def test_a_broken_rule_leaves_the_file_alone_and_is_named(tmp_path, replacement, problem, place):
    from tf24migrate.run.migrate import migrate_files

    path = tmp_path / "a.py"
    path.write_bytes(BROKEN_STATEMENT_PLACES[place])
    before = path.read_bytes()
    [result] = migrate_files([str(path)], Settings((_BreaksCode(replacement),)), write=True)
    assert result.status is Status.FAILED
    assert result.error.startswith(f"internal error: rule TF24999 {problem}")
    assert "--ignore TF24999" in result.error
    assert path.read_bytes() == before


def test_a_utf16_file_is_named_as_such(tmp_path):
    (tmp_path / "train.py").write_bytes((OLD_CALL + b"\n").decode().encode("utf-16"))
    result = run_in_process("--check", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "train.py: error: cannot read: UTF-16 text (its byte order mark says so)" in result.stderr
    assert "encoding declaration" not in result.stderr and "binary file" not in result.stderr


def test_a_file_changed_on_disk_during_a_run_is_migrated_again_from_what_it_holds(tmp_path, monkeypatch):
    """Between reading and writing, another writer edits the file: the run does not overwrite
    that edit; it migrates the file again from its new text and writes that, keeping both."""
    from tf24migrate.run.migrate import migrate_files

    path = tmp_path / "edited.py"
    path.write_bytes(OLD_CALL + b"\n")
    edited_meanwhile = b"# the user's edit\n" + OLD_CALL + b"\n"
    calls = []

    def migrate_while_the_user_edits_once(text, settings, *, path):
        if not calls:
            with open(path, "wb") as handle:
                handle.write(edited_meanwhile)
        calls.append(text)
        return MigrationResult(source=text, code=text.replace("experimental_run_v2", "run"))

    monkeypatch.setitem(
        BY_SUFFIX, ".py", dataclasses.replace(PYTHON, migrate=migrate_while_the_user_edits_once)
    )
    [result] = migrate_files([str(path)], Settings(select_rules()), write=True)
    assert result.written, result.error
    assert len(calls) == 2 and calls[1].startswith("# the user's edit")
    assert path.read_bytes() == edited_meanwhile.replace(b"experimental_run_v2", b"run")
