"""`--out DIR`: the migrated tree written to another folder (tf_upgrade_v2's `--outtree`), the other
files copied, version control's folders and caches not, the original untouched; with the report."""

from __future__ import annotations

import json
import os

from command_line import run_in_process

CODE = "import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\nm = tf.keras.utils.multi_gpu_model(m, 2)\n"


def test_out_writes_the_migrated_tree_elsewhere_and_leaves_the_original(tmp_path):
    source = tmp_path / "project"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "train.py").write_bytes(CODE.replace("\n", "\r\n").encode())  # CRLF kept
    (source / "pkg" / "clean.py").write_text("x = 1\n")
    (source / "data.csv").write_text("a,b\n")
    for folder in (".git", "pkg/__pycache__", ".ruff_cache", "custom_cache"):
        (source / folder).mkdir()
        (source / folder / "file").write_text("")
    (source / "custom_cache" / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    os.chmod(source / "pkg" / "train.py", 0o755)
    out = tmp_path / "migrated"

    result = run_in_process("--out", out, "--report", "report.json", "project", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # TF24202 is left to you
    assert (source / "pkg" / "train.py").read_bytes() == CODE.replace("\n", "\r\n").encode()
    migrated = out / "pkg" / "train.py"
    assert migrated.read_bytes() == CODE.replace("experimental_run_v2", "run").replace("\n", "\r\n").encode()
    assert os.stat(migrated).st_mode & 0o777 == 0o755
    assert (out / "pkg" / "clean.py").read_text() == "x = 1\n"
    assert (out / "data.csv").read_text() == "a,b\n"
    copied = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    assert copied == ["data.csv", "pkg", "pkg/clean.py", "pkg/train.py"]
    assert "[fixed]" in result.stdout  # as --write says it
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["written"] is True
    assert [change["rules"][0]["code"] for change in report["files"][0]["changes"]] == ["TF24101"]


def test_out_refuses_a_folder_that_is_not_empty_or_inside_the_source(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(CODE)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    for out, why in (
        ("full", "--out full: exists and is not an empty folder"),
        ("src/out", "--out src/out: inside src, which it copies"),
    ):
        result = run_in_process("--out", out, "src", cwd=tmp_path)
        assert result.returncode == 2
        assert result.stderr.startswith(f"tf24migrate: error: {why}"), result.stderr
    assert run_in_process("--out", "new", "--check", "src", cwd=tmp_path).returncode == 2
    assert not (tmp_path / "new").exists()
    assert (tmp_path / "src" / "a.py").read_text() == CODE


def test_out_never_writes_through_a_symlink_to_the_original(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "real.py").write_text(CODE)
    os.symlink(source / "real.py", source / "alias.py")  # absolute: its copy leads back to the original
    result = run_in_process("--out", "copy", "src", cwd=tmp_path)
    assert result.returncode == 2
    assert "outside --out: not written through" in result.stdout + result.stderr
    assert (source / "real.py").read_text() == CODE
    assert os.path.islink(tmp_path / "copy" / "alias.py")
