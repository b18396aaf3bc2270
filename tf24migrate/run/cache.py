"""The result cache: a file's `FileResult` reused while nothing it depends on has changed.

An entry is keyed by the file's path and kind (its suffix), a blake2b digest of its bytes, and the
run's key (`run_key`): the format, the tool's version and a fingerprint of its own code (size and
modification time of every file of the installed package, so an editable install that changed
counts as another tool), LibCST's, the Python version, the rules selected (the default rules, or
the codes resolved), the notes hidden, the target (its version and where it came from, which
findings quote) and whether unsafe fixes apply. An entry holds its whole key and is used only if
that matches; each of its parts follows a digest of it keyed by its key, checked whenever the part
is read: a corrupt, truncated or foreign entry is a miss (and rewritten), never a result for other
content.
What `--write` writes never comes from an entry alone: a file whose entry is a change is migrated
again from its own bytes (`run.migrate`).

The folder is used only if it is a real folder (never a symlink) of the user's, and empty or
already marked as the tool's (`CACHEDIR.TAG`): a `--cache-dir` naming a source folder is refused
with a note, and nothing is written there (`claim_folder`).

The index (`index-<key>`, one JSON file per run key) holds, for each path, its digest and result,
and the file's device, inode, size, modification and change times. A file whose five values are
unchanged is not read: its bytes are the ones hashed, since any write sets the change time, which
no program can set back (`touch -d`, `cp -p` and `git checkout` cannot). A file whose times are
less than `RACY_NS` old is indexed without them (git's rule for racy entries: a write within the
clock's granularity could keep them): the next run reads and hashes it, and the row serves if the
bytes are the same, as for a file touched but not changed. A damaged or foreign index is ignored.
The index is written once per run, merged with what another run wrote meanwhile, so a first run
costs about what a run without the cache does: each file is read and hashed once, by the worker
that migrates it.

The texts of a change are kept in an entry, a file under `<folder>/results/` named by the path,
kind, digest and run key (a line of JSON for the result, one for the texts, checked and parsed
only when they are printed or written), written to a temporary file and renamed into place, so
runs sharing a folder never see half an entry. (The language server stores an entry per file it
migrates.) A folder that cannot be written makes the cache store nothing more, silently; the run
goes on. The folder is bounded: when a run that stored entries finds it over `MAX_BYTES`, the
least recently used entries (a hit refreshes an entry's modification time, at most once an hour)
are removed until it is under three quarters of that. Stored: every result but a failure to read
the file or an internal error (neither is a function of the content); results to write are stored
as they were before the write.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import stat
import sys
import time
from hashlib import blake2b
from typing import TYPE_CHECKING

from tf24migrate import __version__
from tf24migrate.model.findings import FileResult, Finding, Fix, Severity, Status
from tf24migrate.run.cache_folder import TEMPORARY_PREFIX, CacheFolderRefused, claim_folder, write_atomically
from tf24migrate.run.files import read_regular_file

if TYPE_CHECKING:
    from tf24migrate.catalogue.settings import Settings

FOLDER_NAME = ".tf24migrate_cache"
ENVIRONMENT_VARIABLE = "TF24MIGRATE_CACHE_DIR"
FORMAT = 5
MAX_BYTES = 256 * 1024 * 1024
_TOUCH_AFTER = 3600.0  # seconds: how stale an entry's mtime may get before a hit refreshes it
# A file whose modification or change time is this recent when indexed is not indexed: a write
# within the file system's time granularity could leave both times as they were.
RACY_NS = 2_000_000_000
_INDEX_MAX = 200_000  # paths
_FINDING_FIELDS = tuple(field.name for field in dataclasses.fields(Finding))
_NOTHING_FOUND: list = [Status.UNCHANGED.value, None, []]  # the index's head of a file unchanged, no finding


def read_bytes(path: str) -> tuple[bytes, float]:
    """A cache file's bytes and modification time; only a regular file, never through a symlink
    and never blocking (`NotRegularFile`, an `OSError`, for anything else)."""
    data, status = read_regular_file(path, follow_symlinks=False)
    return data, status.st_mtime


def default_folder(path: str | None, config_path: str | None) -> str:
    """Where the cache of the files under `path` lives unless a flag, the environment or
    pyproject.toml says: in the folder of the pyproject.toml that configures them, else the
    nearest folder from `path` upwards that holds `.git`, else the current folder."""
    if config_path:
        return os.path.join(os.path.dirname(os.path.abspath(config_path)), FOLDER_NAME)
    start = path if path and path != "-" else "."
    folder = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return os.path.join(folder, FOLDER_NAME)
        parent = os.path.dirname(folder)
        if parent == folder:
            return FOLDER_NAME
        folder = parent


def _tree_fingerprint(update, folder: str) -> None:
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            if name.endswith((".pyc", ".pyo")):
                continue
            with contextlib.suppress(OSError):
                status = os.stat(os.path.join(root, name))
                update(f"{root}/{name}:{status.st_size}:{status.st_mtime_ns}\n".encode())


def _package_folders() -> list[str]:
    """The folders of the tool's own files: the package's and the rules' (elsewhere when the
    project is installed editable)."""
    import importlib.util

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tf24migrate/
    folders = [package]
    with contextlib.suppress(ImportError, ValueError):
        spec = importlib.util.find_spec("tf24migrate.transforms")
        for location in (spec.submodule_search_locations or []) if spec else []:
            if not os.path.abspath(location).startswith(package + os.sep):
                folders.append(location)
    return folders


def tool_fingerprint() -> str:
    """A digest of what the tool's results depend on besides the run's options: the tool's version
    and files, LibCST's version files, the Python version."""
    import importlib.util

    hasher = blake2b(digest_size=16)
    hasher.update(f"{FORMAT}\n{__version__}\n{sys.version}\n".encode())
    for folder in _package_folders():
        hasher.update(f"{folder}\n".encode())
        _tree_fingerprint(hasher.update, folder)
    with contextlib.suppress(ImportError, ValueError):
        spec = importlib.util.find_spec("libcst")
        if spec is not None and spec.origin:
            for name in ("__init__.py", "_version.py"):
                with contextlib.suppress(OSError):
                    status = os.stat(os.path.join(os.path.dirname(spec.origin), name))
                    hasher.update(f"libcst/{name}:{status.st_size}:{status.st_mtime_ns}\n".encode())
    return hasher.hexdigest()


def run_key(settings: Settings) -> str:
    """The part of every entry's key that the run's settings decide (see the module docstring).
    The default rules of a `RuleSelection` are named as such; any other selection is named by the
    codes it resolves to (`RuleSelection.codes`: a run loads no rule to make its key)."""
    from tf24migrate.catalogue.selection import RuleSelection, selected_codes

    rules = settings.rules
    if isinstance(rules, RuleSelection) and not rules.select and not rules.ignore:
        selected = "default"
    else:
        selected = ",".join(sorted(selected_codes(rules)))
    hidden = ",".join(sorted(settings.hidden_notes))
    parts = (tool_fingerprint(), selected, hidden, repr(settings.target), str(settings.unsafe_fixes))
    return blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


class ResultCache:
    """The entries of one run (`run_key`) in `folder`; picklable, so workers store their results."""

    def __init__(self, folder: str, run_key: str, max_bytes: int = MAX_BYTES) -> None:
        self.folder = folder
        self.results = os.path.join(folder, "results")
        self.run_key = run_key
        self.max_bytes = max_bytes
        self.writable = True
        # `index-<key>`: per path, its `_fingerprint`, digest and (but for a change) result head.
        self._index_path = os.path.join(
            folder, f"index-{blake2b(run_key.encode(), digest_size=10).hexdigest()}"
        )
        self._index: dict | None = None
        self._index_updates: dict[str, list] = {}

    @classmethod
    def open(cls, folder: str, run_key: str, max_bytes: int = MAX_BYTES) -> ResultCache:
        """The cache in `folder` (see `claim_folder`); raises `OSError` when the folder cannot be
        used, created or written (`CacheFolderRefused`, saying why, for a folder not the tool's)."""
        claim_folder(folder)
        results = os.path.join(folder, "results")
        with contextlib.suppress(FileExistsError):
            os.mkdir(results)
        if not stat.S_ISDIR(os.lstat(results).st_mode):
            raise CacheFolderRefused(f"{results} is not a folder (a symlink or a file)")
        if not os.access(results, os.W_OK):
            raise PermissionError(f"{results} is not writable")
        return cls(folder, run_key, max_bytes)

    def known(self, path: str, status: os.stat_result) -> tuple[str, FileResult | None] | None:
        """From the index: the digest of `path`'s bytes when the file is provably the one seen (same
        device, inode, size, modification and change times; a write changes the change time, which
        no program can set back), and its result unless it is a change; else None."""
        seen = self._row(path)
        if seen is None or seen[0] != _fingerprint(status):
            return None
        return self._known(path, seen)

    def indexed(self, path: str) -> bool:
        """Whether the index has a row for `path` (perhaps under other times: `known_bytes`)."""
        return self._row(path) is not None

    def known_bytes(self, path: str, content_digest: str) -> tuple[str, FileResult | None] | None:
        """As `known`, for a file read and hashed: the index's row when it saw these bytes (under
        other times: a file touched, or indexed too soon after a write for its times to count)."""
        seen = self._row(path)
        if seen is None or seen[1] != content_digest:
            return None
        return self._known(path, seen)

    def _row(self, path: str) -> list | None:
        if self._index is None:
            self._index = self._read_index()
        seen = self._index.get(path)
        return seen if isinstance(seen, list) and len(seen) == 3 else None

    def _known(self, path: str, seen: list) -> tuple[str, FileResult | None] | None:
        content_digest, head = seen[1], seen[2]
        if head is None:
            return content_digest, None
        if head == _NOTHING_FOUND:  # most files: no need to decode a status and findings
            return content_digest, FileResult(path, Status.UNCHANGED)
        try:  # the index is this run key's (`_read_index`): its heads need no entry key checked
            status, error, findings = head
            return content_digest, FileResult(
                path=path, status=Status(status), findings=_findings(findings), error=error
            )
        except Exception:  # a damaged index is a miss
            return None

    def remember(
        self,
        path: str,
        status: os.stat_result,
        content_digest: str,
        result: FileResult | None,
        *,
        read_after: int | None = None,
    ) -> None:
        """Index `path` as seen with these bytes and times, and its result (None, or a change: its
        texts stay in its entry). `read_after`: a `time.time_ns()` taken before the file was stat
        and read (default: now). Times too recent then to tell a later write (racy-git's rule: a
        write within the clock's granularity could keep them) are not kept: the next run reads the
        file, and the row serves if the bytes are the same."""
        newest = max(status.st_mtime_ns, status.st_ctime_ns)
        before = time.time_ns() if read_after is None else read_after
        fingerprint = _fingerprint(status) if before - newest >= RACY_NS else None
        head = None
        if result is not None and result.status is not Status.CHANGED:  # the path and key are the index's
            head = [result.status.value, result.error, _finding_rows(result)]
        self._index_updates[path] = [fingerprint, content_digest, head]

    def save_index(self) -> None:
        """Write what this run indexed, merged with the index on disk now (another run's), atomically."""
        if not self._index_updates or not self.writable:
            return
        index = {**self._read_index(), **self._index_updates}
        if len(index) > _INDEX_MAX:  # bounded: the oldest entries first out (dicts keep their order)
            index = dict(list(index.items())[-_INDEX_MAX:])
        data = json.dumps({"format": FORMAT, "key": self.run_key, "files": index}, separators=(",", ":"))
        with contextlib.suppress(OSError):
            write_atomically(self._index_path, _sealed(self.run_key, data.encode("utf-8", "surrogatepass")))
        self._index_updates = {}

    def _read_index(self) -> dict:
        """The paths indexed for this run key; nothing from a damaged or foreign index."""
        try:
            index = json.loads(_unsealed(self.run_key, read_bytes(self._index_path)[0]))
            if (
                index["format"] == FORMAT
                and index["key"] == self.run_key
                and isinstance(index["files"], dict)
            ):
                return index["files"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return {}

    def _entry(self, path: str, content_digest: str) -> tuple[str, str]:
        kind = os.path.splitext(path)[1].lower()
        key = blake2b(
            f"{self.run_key}\0{kind}\0{content_digest}\0{path}".encode("utf-8", "surrogatepass"),
            digest_size=20,
        ).hexdigest()
        return key, os.path.join(self.results, key)

    def load(self, path: str, content_digest: str, *, texts: bool = True) -> FileResult | None:
        """The result stored for `path` with these bytes under this run's key, or None. Without
        `texts`, a changed result comes without its source and code (which are not decoded)."""
        key, entry = self._entry(path, content_digest)
        try:
            data, modified = read_bytes(entry)
        except OSError:
            return None
        try:
            head, tail = _unsealed_line(key, data)
            changed = json.loads(_unsealed(key, tail)) if texts else None
            result = _decode(json.loads(head), changed, key, path, content_digest)
        except Exception:  # whatever is in a file we cannot read as an entry, it is a miss
            return None
        if self.writable and time.time() - modified > _TOUCH_AFTER:
            with contextlib.suppress(OSError):
                os.utime(entry)
        return result

    def store(self, path: str, content_digest: str, result: FileResult) -> None:
        """Keep `result` (the result for these bytes, before any write) for the next run."""
        if not self.writable or not result.cacheable:
            return
        key, entry = self._entry(path, content_digest)
        try:
            head, texts = _encode(result, key, content_digest)
            write_atomically(entry, _sealed(key, head) + b"\n" + _sealed(key, texts))
        except OSError:
            self.writable = False  # a read-only or full folder: go on without storing
            return
        except (TypeError, ValueError):  # a result we cannot represent: not stored
            return

    def prune(self) -> None:
        """Remove the least recently used entries while the folder is over `max_bytes` (down to
        three quarters of it), and temporary files a killed run left behind."""
        entries = []
        now = time.time()
        try:
            with os.scandir(self.results) as scan:
                for item in scan:
                    with contextlib.suppress(OSError):
                        status = item.stat()
                        if item.name.startswith(TEMPORARY_PREFIX):
                            if now - status.st_mtime > _TOUCH_AFTER:
                                os.unlink(item.path)
                            continue
                        entries.append((status.st_mtime, status.st_size, item.path))
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return
        entries.sort()
        for _, size, entry in entries:
            if total <= self.max_bytes * 3 // 4:
                break
            with contextlib.suppress(OSError):
                os.unlink(entry)
                total -= size


def _fingerprint(status: os.stat_result) -> list[int]:
    return [status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns]


def _seal(key: str, data: bytes) -> bytes:
    return blake2b(data, key=key.encode()[:64], digest_size=32).hexdigest().encode()


def _sealed(key: str, data: bytes) -> bytes:
    """`data` after a line with its digest keyed by `key`, which `_unsealed` checks."""
    return _seal(key, data) + b"\n" + data


def _unsealed(key: str, data: bytes) -> bytes:
    """The data `_sealed` under `key`; `ValueError` when the digest line does not match (a flipped
    byte, a truncated or planted file, another key's)."""
    seal, _, rest = data.partition(b"\n")
    return _checked(key, seal, rest)


def _unsealed_line(key: str, data: bytes) -> tuple[bytes, bytes]:
    """As `_unsealed`, for data that starts with one line `_sealed` under `key`: that line, and
    the bytes after it (unchecked)."""
    seal, _, rest = data.partition(b"\n")
    line, _, rest = rest.partition(b"\n")
    return _checked(key, seal, line), rest


def _checked(key: str, seal: bytes, data: bytes) -> bytes:
    if seal != _seal(key, data):
        raise ValueError("a cache file whose digest does not match its content")
    return data


def _encode(result: FileResult, key: str, content_digest: str) -> tuple[bytes, bytes]:
    """An entry's two lines of JSON: the result, and the texts of a change (JSON holds no line
    break). Each is sealed apart, so that the texts are neither checked nor decoded unless they
    are printed or written."""
    changed = result.status is Status.CHANGED
    head = {
        "format": FORMAT,
        "key": key,
        "path": result.path,
        "digest": content_digest,
        "status": result.status.value,
        "error": result.error,
        "encoding": result.encoding,
        "findings": _finding_rows(result),
        "rebound": list(result.rebound),
    }
    texts = [result.source, result.code] if changed else None
    return json.dumps(head).encode(), json.dumps(texts).encode()


def _finding_rows(result: FileResult) -> list[list]:
    return [[getattr(finding, name) for name in _FINDING_FIELDS] for finding in result.findings]


def _findings(rows: list[list]) -> tuple[Finding, ...]:
    findings = []
    for values in rows:
        values = list(values)
        values[7] = Severity(values[7])
        values[8] = None if values[8] is None else Fix(values[8])
        findings.append(Finding(*values))
    return tuple(findings)


def _decode(head: dict, texts: list | None, key: str, path: str, content_digest: str) -> FileResult:
    if (head["format"], head["key"], head["path"], head["digest"]) != (FORMAT, key, path, content_digest):
        raise ValueError("an entry for something else")
    findings = _findings(head["findings"])
    status = Status(head["status"])
    source = code = None
    if status is Status.CHANGED and texts is not None:
        source, code = texts
        if not (isinstance(source, str) and isinstance(code, str)):
            raise ValueError("a changed result without its texts")
    return FileResult(
        path=path,
        status=status,
        source=source,
        code=code,
        findings=findings,
        error=head["error"],
        encoding=head["encoding"] if status is Status.CHANGED else None,
        digest=content_digest if status is Status.CHANGED else None,
        rebound=tuple(head["rebound"]),
    )
