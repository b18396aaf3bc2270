"""The result cache: the same results with it as without, whatever `-j`; never a result for other
content; safe to share and to break; bounded; and a warm run that loads neither LibCST nor a rule."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from command_line import run as run_command

from tf24migrate.catalogue.selection import RuleSelection
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import FileResult, Finding, Fix, Severity, Status
from tf24migrate.run.cache import ResultCache, default_folder, run_key, tool_fingerprint

DATA = Path(__file__).resolve().parent / "data" / "notebooks"
OLD = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    strategy.experimental_run_v2(step_fn)
    """
)
ADVISORY = (
    "import tensorflow as tf\nopt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(o, 'dynamic')\n"
)


def run(*args, cwd, cache=None, env=None):
    environment = dict(os.environ if env is None else env)
    if cache is not None:
        environment["TF24MIGRATE_CACHE_DIR"] = str(cache)
    return run_command(*args, cwd=cwd, env=environment)


@pytest.fixture
def tree(tmp_path):
    """Ten files and more: due ones, clean ones, one with findings only, notebooks, a C source, one
    that does not parse and one that is not text."""
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    for index in range(4):
        (root / "pkg" / f"due{index}.py").write_text(OLD.replace("step_fn", f"step_{index}"))
        (root / "pkg" / f"clean{index}.py").write_text(
            f"import tensorflow as tf\nx{index} = tf.constant(1)\n"
        )
    (root / "pkg" / "advisory.py").write_text(ADVISORY)
    (root / "pkg" / "broken.py").write_text(OLD + "def broken(:\n")
    (root / "pkg" / "binary.py").write_bytes(b"import tensorflow\x00\n")
    (root / "ops.cc").write_text('#include "tensorflow/c/c_api.h"\nTF_String s;\n')
    shutil.copy(DATA / "train.ipynb", root / "train.ipynb")
    shutil.copy(DATA / "colab.ipynb", root / "colab.ipynb")
    return root


def _json(result) -> dict:
    assert result.returncode == 2, result.stderr  # the broken file fails
    return json.loads(result.stdout)


@pytest.mark.slow  # every -j, cold and warm
def test_results_are_the_same_with_and_without_the_cache_and_any_jobs(tree, tmp_path):
    reference = _json(run("--output-format", "json", "--no-cache", "-j", "1", ".", cwd=tree))
    assert reference["summary"]["files_changed"] >= 5 and reference["summary"]["files_failed"] == 2
    assert any(entry["path"].endswith(".ipynb") and entry.get("diff") for entry in reference["files"])
    for jobs in ("2", "1", "2", "1"):  # cold with 2 jobs, then warm, cold and warm again with 1
        if jobs == "2":
            shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        output = run("--output-format", "json", "-j", jobs, ".", cwd=tree, cache=tmp_path / "cache")
        assert _json(output) == reference, jobs
    diffs = {run("--diff", "-j", jobs, ".", cwd=tree, cache=tmp_path / "cache").stdout for jobs in ("1", "2")}
    assert diffs == {run("--diff", "--no-cache", ".", cwd=tree).stdout}


@pytest.mark.slow  # two runs per option
@pytest.mark.parametrize(
    "options",
    [("--unsafe-fixes",), ("--target-version", "2.3"), ("--select", "TF241"), ("--ignore", "TF24101")],
)
def test_an_option_that_changes_results_is_part_of_the_key(tree, tmp_path, options):
    cache = tmp_path / "cache"
    run("--output-format", "json", ".", cwd=tree, cache=cache)  # the default run's entries
    expected = run("--output-format", "json", "--no-cache", *options, ".", cwd=tree).stdout
    assert run("--output-format", "json", *options, ".", cwd=tree, cache=cache).stdout == expected
    assert run("--output-format", "json", *options, ".", cwd=tree, cache=cache).stdout == expected


def test_other_content_of_the_same_size_and_modification_time_is_migrated_again(tree, tmp_path):
    path = tree / "pkg" / "due0.py"
    assert "would change: ./pkg/due0.py" in run("--check", ".", cwd=tree, cache=tmp_path / "cache").stdout
    status = path.stat()
    path.write_text(path.read_text().replace("experimental_run_v2", "r" * len("experimental_run_v2")))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert path.stat().st_size == status.st_size and path.stat().st_mtime_ns == status.st_mtime_ns
    assert "pkg/due0.py" not in run("--check", ".", cwd=tree, cache=tmp_path / "cache").stdout


def test_write_from_a_warm_cache_writes_and_a_second_check_is_clean(tree, tmp_path):
    cache = tmp_path / "cache"
    run("--check", ".", cwd=tree, cache=cache)
    written = run("--write", ".", cwd=tree, cache=cache)
    assert "2 failed" in written.stderr
    assert "strategy.run(step_0)" in (tree / "pkg" / "due0.py").read_text()
    check = run("--check", "pkg/due0.py", "colab.ipynb", cwd=tree, cache=cache)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow  # three runs per kind of damage
@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign", "empty", "wrong types"])
def test_a_corrupt_or_foreign_entry_is_ignored_and_rewritten(tree, tmp_path, damage):
    cache = tmp_path / "cache"
    reference = run("--output-format", "json", "--no-cache", ".", cwd=tree).stdout
    run("--output-format", "json", ".", cwd=tree, cache=cache)
    entries = sorted((cache / "results").iterdir())
    texts = {entry: entry.read_bytes() for entry in entries}
    for index, entry in enumerate(entries):
        text = texts[entry]
        entry.write_bytes(
            {
                "garbage": b"\x80not json{",
                "truncated": text[: len(text) // 2],
                "foreign": texts[entries[(index + 1) % len(entries)]],
                "empty": b"",
                "wrong types": text.replace(b'"findings": [', b'"findings": [7, '),
            }[damage]
        )
    assert run("--output-format", "json", ".", cwd=tree, cache=cache).stdout == reference
    assert {entry: entry.read_bytes() for entry in entries} == texts  # each rewritten as it was


def test_two_runs_sharing_the_cache_both_succeed(tree, tmp_path):
    reference = run("--output-format", "json", "--no-cache", ".", cwd=tree).stdout
    environment = {**os.environ, "TF24MIGRATE_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "tf24migrate", "--output-format", "json", "-j", "2", "."]
    for _ in range(2):  # cold, then warm
        runs = [
            subprocess.Popen(
                command, cwd=tree, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            for _ in range(2)
        ]
        for process in runs:
            stdout, stderr = process.communicate(timeout=120)
            assert process.returncode == 2 and stdout.decode() == reference, stderr


def test_no_cache_writes_nothing_and_the_default_folder_is_the_project_root(tree):
    environment = {k: v for k, v in os.environ.items() if k != "TF24MIGRATE_CACHE_DIR"}
    (tree / ".git").mkdir()
    run("--check", "--no-cache", "pkg", cwd=tree / "pkg", env=environment)
    assert not any(path.name == ".tf24migrate_cache" for path in tree.parent.rglob("*"))
    run("--check", ".", cwd=tree / "pkg", env=environment)  # the root holds .git
    assert (tree / ".tf24migrate_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert any((tree / ".tf24migrate_cache" / "results").iterdir())
    assert not (tree / "pkg" / ".tf24migrate_cache").exists()


def test_the_folder_is_the_flag_the_environment_the_config_or_the_default(tree, tmp_path):
    (tree / "pyproject.toml").write_text('[tool.tf24migrate]\ncache-dir = "build/cache"\n')
    assert default_folder("pkg/due0.py", str(tree / "pyproject.toml")) == str(tree / ".tf24migrate_cache")
    environment = {k: v for k, v in os.environ.items() if k != "TF24MIGRATE_CACHE_DIR"}
    run("--check", "pkg", cwd=tree, env=environment)
    assert (tree / "build" / "cache" / ".gitignore").exists()
    run("--check", "pkg", cwd=tree, cache=tmp_path / "from-env")
    assert (tmp_path / "from-env" / ".gitignore").exists()
    run("--check", "--cache-dir", tmp_path / "from-flag", "pkg", cwd=tree, cache=tmp_path / "unused")
    assert (tmp_path / "from-flag" / ".gitignore").exists() and not (tmp_path / "unused").exists()


def test_a_cache_folder_that_cannot_be_used_still_gives_a_correct_run(tree, tmp_path):
    reference = run("--output-format", "json", "--no-cache", ".", cwd=tree)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run("--output-format", "json", ".", cwd=tree, cache=blocker / "cache")
    assert result.stdout == reference.stdout and result.returncode == 2
    assert f"the cache folder {blocker / 'cache'} cannot be used" in result.stderr
    assert len(result.stderr.splitlines()) == len(reference.stderr.splitlines()) + 1  # one line more


def test_a_cache_folder_that_cannot_be_used_is_noted_once_for_every_project(tree, tmp_path):
    (tree / "sub").mkdir()
    (tree / "sub" / "requirements.txt").write_text("tensorflow>=2.3\n")
    (tree / "sub" / "b.py").write_text("import tensorflow as tf\ns.experimental_run_v2(f)\n")
    (tmp_path / "a-file").write_text("")
    result = run(".", cwd=tree, cache=tmp_path / "a-file" / "cache")
    assert " 2 projects: " in result.stderr
    assert result.stderr.count("cannot be used") == 1


def test_an_entry_that_cannot_be_written_is_not_an_error(tmp_path):
    cache = ResultCache.open(str(tmp_path / "cache"), "key")
    shutil.rmtree(tmp_path / "cache")
    (tmp_path / "cache").write_text("")  # the folder is gone, a file in its place
    cache.store("a.py", "digest", FileResult(path="a.py", status=Status.UNCHANGED))
    assert not cache.writable and cache.load("a.py", "digest") is None


def _finding(path: str) -> Finding:
    return Finding(
        "TF24101", "experimental-run-v2", 1, 1, 1, 5, "m" * 400, Severity.ERROR, Fix.SAFE, True, path
    )


def test_the_size_bound_holds_and_the_least_recently_used_go_first(tmp_path):
    cache = ResultCache.open(str(tmp_path / "cache"), "key", max_bytes=20_000)
    paths = [f"f{index}.py" for index in range(60)]
    for age, path in enumerate(paths):
        cache.store(
            path, "digest", FileResult(path=path, status=Status.UNCHANGED, findings=(_finding(path),))
        )
        entry = next(p for p in (tmp_path / "cache" / "results").iterdir() if path in p.read_text())
        os.utime(entry, (1_000_000 - age, 1_000_000 - age))  # f0.py is the newest
    assert sum(p.stat().st_size for p in (tmp_path / "cache" / "results").iterdir()) > 20_000
    cache.prune()
    sizes = [p.stat().st_size for p in (tmp_path / "cache" / "results").iterdir()]
    assert sum(sizes) <= 15_000 and len(sizes) > 10
    kept = [path for path in paths if cache.load(path, "digest") is not None]
    assert kept == paths[: len(kept)]  # the newest ones


def test_the_tool_s_own_files_are_part_of_the_key(tmp_path, monkeypatch):
    import tf24migrate.run.cache as cache_module

    package = tmp_path / "package"
    package.mkdir()
    (package / "rule.py").write_text("x = 1\n")
    monkeypatch.setattr(cache_module, "_package_folders", lambda: [str(package)])
    before = tool_fingerprint()
    assert tool_fingerprint() == before
    os.utime(package / "rule.py", ns=(0, 12345))  # same version string, another file
    assert tool_fingerprint() != before
    assert run_key(Settings(RuleSelection())) != run_key(Settings(RuleSelection(), unsafe_fixes=True))


def test_the_default_key_needs_no_rule_and_other_selections_are_their_codes():
    assert run_key(Settings(RuleSelection("TF241,TF242"))) == run_key(Settings(RuleSelection("TF242,TF241")))
    assert run_key(Settings(RuleSelection())) != run_key(Settings(RuleSelection("all")))


WARM_RUN = """
import sys
from tf24migrate.cli.command import main
sys.argv = ["tf24migrate", "--check", "-q", "-j", "1", "."]
try:
    main()
except SystemExit:
    pass
loaded = [name for name in sys.modules if name == "libcst" or name.startswith("tf24migrate.transforms")]
print("loaded:", loaded, "multiprocessing" in sys.modules, file=sys.stderr)
"""


def test_a_warm_run_loads_neither_libcst_nor_a_rule_nor_workers(tree, tmp_path):
    cold = subprocess.run([sys.executable, "-c", WARM_RUN], cwd=tree, capture_output=True, text=True)
    assert "'libcst'" in cold.stderr.splitlines()[-1]  # the test can fail: a cold run loads them
    warm = subprocess.run([sys.executable, "-c", WARM_RUN], cwd=tree, capture_output=True, text=True)
    assert warm.stderr.splitlines()[-1] == "loaded: [] False", warm.stderr
    assert warm.stdout == cold.stdout and "would change: ./pkg/due0.py" in warm.stdout


def _in_process(tree, cache_folder):
    from tf24migrate.run.migrate import migrate_files

    files = sorted(str(p) for p in tree.rglob("*") if p.suffix in (".py", ".ipynb"))
    cache = ResultCache.open(str(cache_folder), run_key(Settings(RuleSelection())))
    return [
        (r.path, r.status, r.findings)
        for r in migrate_files(files, Settings(RuleSelection()), texts=False, cache=cache)
    ]


def test_a_file_the_index_shows_unchanged_is_not_even_read(tree, tmp_path, monkeypatch):
    from tf24migrate.run import cache as cache_module
    from tf24migrate.run import migrate

    monkeypatch.setattr(cache_module, "RACY_NS", 0)  # the files were written a moment ago
    cold = _in_process(tree, tmp_path / "cache")
    read = []
    read_regular_file = migrate.read_regular_file
    monkeypatch.setattr(
        migrate, "read_regular_file", lambda path: read.append(path) or read_regular_file(path)
    )
    assert _in_process(tree, tmp_path / "cache") == cold
    assert read == []


def test_the_index_never_serves_a_file_written_since(tree, tmp_path, monkeypatch):
    """Same size, modification time set back: the change time tells the write."""
    from tf24migrate.run import cache as cache_module

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    _in_process(tree, tmp_path / "cache")
    before = dict((path, findings) for path, _, findings in _in_process(tree, tmp_path / "cache"))
    path = tree / "pkg" / "due0.py"
    status = path.stat()
    path.write_text(path.read_text().replace("experimental_run_v2", "r" * len("experimental_run_v2")))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    after = dict((path, findings) for path, _, findings in _in_process(tree, tmp_path / "cache"))
    assert before[str(path)] and not after[str(path)]


def test_a_file_written_just_now_is_indexed_without_its_times(tree, tmp_path, monkeypatch):
    """Within the file system's time granularity a later write could keep its times (racy git): the
    index keeps such a file's digest and result, not its times, so the next run reads it again
    (and reuses the result for the same bytes: the files are neither migrated nor changed)."""
    from tf24migrate.run import migrate

    cold = _in_process(tree, tmp_path / "cache")
    (index,) = [p for p in (tmp_path / "cache").iterdir() if p.name.startswith("index-")]
    rows = json.loads(index.read_text().partition("\n")[2])["files"]
    assert rows and all(seen is None for seen, _, _ in rows.values())
    read, migrated = [], []
    read_regular_file = migrate.read_regular_file
    monkeypatch.setattr(
        migrate, "read_regular_file", lambda path: read.append(path) or read_regular_file(path)
    )
    monkeypatch.setattr(migrate, "migrate_file", lambda path, *args, **kwargs: migrated.append(path))
    assert _in_process(tree, tmp_path / "cache") == cold
    assert sorted(read) == sorted(rows) and migrated == []


@pytest.mark.parametrize("damage", [b"\x80not json", b"[1, 2]", b'{"x": 7}', b""])
def test_a_damaged_index_is_ignored(tree, tmp_path, monkeypatch, damage):
    from tf24migrate.run import cache as cache_module

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    cold = _in_process(tree, tmp_path / "cache")
    _in_process(tree, tmp_path / "cache")
    (index,) = [p for p in (tmp_path / "cache").iterdir() if p.name.startswith("index-")]
    data = json.loads(index.read_text().partition("\n")[2])  # after its digest line
    assert data["files"]
    index.write_bytes(damage)
    assert _in_process(tree, tmp_path / "cache") == cold
    other_files = {path: [[0, 0, 0, 0, 0], "x", None] for path in data["files"]}
    damaged_heads = {  # the files as seen, their results damaged: each is read again
        path: [seen, digest, ["unchanged", None, [["not a finding"]]] if head else head]
        for path, (seen, digest, head) in data["files"].items()
    }
    assert damaged_heads != data["files"]
    for changes in ({"key": "another run's"}, {"files": other_files}, {"files": damaged_heads}):
        index.write_text(json.dumps({**data, **changes}))
        assert _in_process(tree, tmp_path / "cache") == cold


def test_an_internal_error_is_not_kept_and_a_changed_result_keeps_how_to_write_it(tmp_path, monkeypatch):
    import dataclasses

    from tf24migrate.run.files import digest
    from tf24migrate.run.migrate_file import migrate_file
    from tf24migrate.sources.kinds import BY_SUFFIX, PYTHON

    cache = ResultCache.open(str(tmp_path / "cache"), run_key(Settings(RuleSelection())))
    changed = tmp_path / "changed.py"
    changed.write_bytes("# -*- coding: latin-1 -*-\n# caf\xe9\ns.experimental_run_v2(f)\n".encode("latin-1"))
    result = migrate_file(str(changed), Settings(RuleSelection()), cache=cache)
    kept = cache.load(str(changed), digest(changed.read_bytes()))
    assert kept is not None and kept.code == result.code
    assert (
        (kept.encoding, kept.digest)
        == (result.encoding, result.digest)
        == ("iso-8859-1", digest(changed.read_bytes()))
    )

    def crash(text, settings, *, path):
        raise RecursionError("deep")

    monkeypatch.setitem(BY_SUFFIX, ".py", dataclasses.replace(PYTHON, migrate=crash))
    failing = tmp_path / "failing.py"
    failing.write_text("s.experimental_run_v2(f)\n")
    failed = migrate_file(str(failing), Settings(RuleSelection()), cache=cache)
    assert failed.error is not None and failed.error.startswith("internal error (RecursionError: deep)")
    assert not failed.cacheable
    assert cache.load(str(failing), digest(failing.read_bytes())) is None


def test_times_are_racy_from_when_the_file_was_read_not_from_when_it_is_indexed(tmp_path, monkeypatch):
    """A worker may finish a file long after it was read: a write within the clock's granularity
    after the read could still keep the file's times, so they count from the read."""
    from tf24migrate.run import cache as cache_module

    cache = ResultCache.open(str(tmp_path / "cache"), "key")
    source = tmp_path / "a.py"
    source.write_text("x = 1\n")
    status = source.stat()
    newest = max(status.st_mtime_ns, status.st_ctime_ns)
    monkeypatch.setattr(cache_module.time, "time_ns", lambda: newest + 10 * cache_module.RACY_NS)
    result = FileResult(path=str(source), status=Status.UNCHANGED)
    for read_after, kept in ((newest + 1, False), (newest + cache_module.RACY_NS, True), (None, True)):
        cache.remember(str(source), status, "digest", result, read_after=read_after)
        fingerprint = cache._index_updates[str(source)][0]
        assert (fingerprint is not None) is kept, read_after
