"""The preview is a patch: `tf24migrate src/ | git apply` gives, byte for byte, what `--write` writes,
whatever the file's encoding, byte order mark or line ends."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

VARIANTS = {
    "latin1.py": "# -*- coding: latin-1 -*-\nname = 'été'\nimport tensorflow as tf\ns.experimental_run_v2(f)\n".encode(
        "latin-1"
    ),
    "cp1252.py": "# -*- coding: cp1252 -*-\nq = '“x”'\nimport tensorflow as tf\ns.experimental_run_v2(f)\n".encode(
        "cp1252"
    ),
    "bom.py": b"\xef\xbb\xbfimport tensorflow as tf\ns.experimental_run_v2(f)\n",
    "cr_only.py": b"import tensorflow as tf\rs.experimental_run_v2(f)\r",
    "form_feed.py": b"import tensorflow as tf\n\x0c\ns.experimental_run_v2(f)\n# a \x0c in a comment\n",
    "separator.py": "import tensorflow as tf\nlabel = 'a\u2028b'\ns.experimental_run_v2(f)\n".encode(),
    "crlf.py": b"import tensorflow as tf\r\ns.experimental_run_v2(f)\r\n",
    "no_final_newline.py": b"import tensorflow as tf\ns.experimental_run_v2(f)",
}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_preview_applies_with_git_apply_to_what_write_writes(tmp_path):
    for where in ("applied", "written"):
        (tmp_path / where).mkdir()
        for name, data in VARIANTS.items():
            (tmp_path / where / name).write_bytes(data)
    applied = tmp_path / "applied"
    subprocess.run(["git", "init", "-q", "."], cwd=applied, check=True)
    preview = subprocess.run([sys.executable, "-m", "tf24migrate", "."], cwd=applied, capture_output=True)
    assert preview.returncode == 1, preview.stderr  # changes are due
    check = subprocess.run(
        ["git", "apply", "--check", "-"], cwd=applied, input=preview.stdout, capture_output=True
    )
    assert check.returncode == 0, check.stderr.decode(errors="replace")
    subprocess.run(["git", "apply", "-"], cwd=applied, input=preview.stdout, check=True)
    written = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--write", "."], cwd=tmp_path / "written", capture_output=True
    )
    assert written.returncode == 0, written.stderr
    for name, data in VARIANTS.items():
        after = (tmp_path / "written" / name).read_bytes()
        assert after != data, f"{name} was not migrated"
        assert (applied / name).read_bytes() == after, name


@pytest.mark.skipif(shutil.which("git") is None or sys.platform == "win32", reason="needs git, POSIX names")
def test_the_preview_of_files_with_control_characters_in_their_names_applies(tmp_path):
    names = ["a\nb.py", 'q"uote.py', "back\\slash.py", "tab\there.py", "e\x1b[31m.py"]
    for name in names:
        (tmp_path / name).write_bytes(VARIANTS["crlf.py"])
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    preview = subprocess.run([sys.executable, "-m", "tf24migrate", "."], cwd=tmp_path, capture_output=True)
    assert preview.returncode == 1, preview.stderr  # changes are due
    assert b'--- "a/a\\nb.py"\n+++ "b/a\\nb.py"\n' in preview.stdout
    subprocess.run(["git", "apply", "-"], cwd=tmp_path, input=preview.stdout, check=True)
    for name in names:
        assert (tmp_path / name).read_bytes() == b"import tensorflow as tf\r\ns.run(f)\r\n", name
