"""Loading the engine: LibCST, the engine's modules and every rule, once per process.

Much of that import is not reading modules but making dataclasses: LibCST's 200 node classes, the
rules' own. For each, `dataclasses` writes the source of its `__init__`, `__repr__`, `__eq__` and
the rest and compiles it with `exec`: 740 sources, 60 ms of the 160 ms the import takes, on the
way of every run that migrates a file. Python caches the bytecode of modules in `__pycache__`, not
of those; `load_engine` does. While it imports, the `exec` that `dataclasses` calls takes each
source's code from that cache (compiling, and adding to it, the sources it lacks), so the classes
are made exactly as without it: the same source, compiled the same, run the same. The `exec` of
`dataclasses` is replaced only while the engine loads, by a function of `exec`'s own signature
that hands everything but a source text to the real one. Not in the language server's worker
(`import_engine`), where it measured nothing; the server's own start caches the code of
lsprotocol's attrs classes (`server_classes`). Both are start-up tricks (`model.tricks`), switched
off by `TF24MIGRATE_OFF=code-cache` and `server-cache`: then nothing is replaced.

The cache is a file per Python version and optimization level in the user's cache folder
(`code_cache`), as `scripts/runtimes.py` keeps its environments: not in the package, whose
uninstall would leave it behind. Code read from it is run, so a file is read only if it is a
regular file of the user's own that no one else may write, in a `tf24migrate` folder that is the
same (not a symlink, the user's, writable by no one else: another user of a shared cache folder
cannot plant a folder or a FIFO there), and neither is opened through a symlink nor blocks (a FIFO
is opened without waiting for a writer, and not read); a file that is damaged or of another Python
is not read, and the next load writes it anew. A relative `XDG_CACHE_HOME` is ignored, as the XDG
specification says (it would put the cache in whatever folder the command runs in). As Python's bytecode, it is never
written when `sys.dont_write_bytecode` is (`PYTHONDONTWRITEBYTECODE`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import marshal
import os
import stat
import sys
import zlib
from collections.abc import Iterator
from types import CodeType
from typing import Any

from tf24migrate.model.tricks import switched_off


@functools.cache
def load_engine() -> None:
    """`import_engine` with `dataclass_code` from the engine's cache (unless the `code-cache`
    trick is switched off, or the engine is loaded already), once: processes forked after this
    inherit what it loaded."""
    if switched_off("code-cache") or import_engine.cache_info().currsize:
        import_engine()
        return
    with dataclass_code(code_cache("engine")):
        import_engine()


@functools.cache
def import_engine() -> None:
    """Import LibCST, the engine and every rule (`all_rules`), as Python does."""
    import tf24migrate.engine.pipeline  # noqa: F401 - loading is the point
    from tf24migrate.catalogue.selection import all_rules

    all_rules()


def server_classes() -> contextlib.AbstractContextManager:
    """Where `tf24migrate server` imports lsprotocol: `attrs_code` from the server's cache, unless
    the `server-cache` trick is switched off (then a block that does nothing)."""
    if switched_off("server-cache"):
        return contextlib.nullcontext()
    return attrs_code(code_cache("server"))


def code_cache(name: str) -> str | None:
    """The file of `dataclass_code` named `name`: `${XDG_CACHE_HOME:-~/.cache}/tf24migrate/`
    (`%LOCALAPPDATA%` on Windows), one per Python version and optimization level; None where
    Python caches no bytecode or no home folder is known."""
    if sys.implementation.cache_tag is None:
        return None
    root = os.environ.get("XDG_CACHE_HOME")
    if root and not os.path.isabs(root):
        root = None
    if not root and os.name == "nt":
        root = os.environ.get("LOCALAPPDATA")
    if not root:
        home = os.path.expanduser("~")
        if home == "~":
            return None
        root = os.path.join(home, ".cache")
    level = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
    return os.path.join(
        root, "tf24migrate", f"dataclass-code-{name}.{sys.implementation.cache_tag}{level}.bin"
    )


# The file: Python's magic number (the bytecode's version), the CRC-32 of the rest, then the
# marshalled `{source: marshalled code}`; opened as bytes (Windows' default is text), never
# through a symlink and never waiting (where the system can tell), relative to its folder's
# descriptor (where the system allows: the folder checked is the one written in).
_HEADER = len(importlib.util.MAGIC_NUMBER) + 4
_BINARY = getattr(os, "O_BINARY", 0)
_NO_SYMLINK = getattr(os, "O_NOFOLLOW", 0)
_NO_WAIT = getattr(os, "O_NONBLOCK", 0)
_FOLDER = getattr(os, "O_DIRECTORY", 0)
_BY_FOLDER = os.open in os.supports_dir_fd and bool(_FOLDER)


class _CachedCompile:
    """The `exec` that `dataclasses` sees within `dataclass_code` (and the `compile` attrs sees
    within `attrs_code`): the code of each source it is given comes from the file at `path` when
    there, else is compiled as `exec` (or attrs's `compile`) would: under the file name given,
    with `flags` (the `__future__` imports of the module that compiles)."""

    def __init__(self, path: str | None, flags: int = 0, unwritten: int = 0):
        self.path = path
        self.flags = flags
        self.unwritten = unwritten  # how many compiled sources do not make the file worth writing
        self.stored: dict[str, bytes] | None = None  # read when first needed
        self.used: dict[str, bytes] = {}  # what the file will hold, if written
        self.codes: dict[str, CodeType] = {}
        self.compiled = 0

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        """`exec`, with the code of a source text from the cache: every other argument, and any
        other source, goes to the real `exec` as given, which takes or refuses it as always."""
        if args and isinstance(args[0], str):
            args = (self.code(args[0]), *args[1:])
        exec(*args, **kwargs)

    def compile(
        self, source: object, filename: str = "<string>", mode: str = "exec", *args, **kwargs
    ) -> CodeType:
        """attrs's `compile(script, filename, "exec")`, from the cache; any other call as it is."""
        if mode != "exec" or args or kwargs or not isinstance(source, str) or not isinstance(filename, str):
            return compile(source, filename, mode, *args, **kwargs)  # type: ignore[call-overload]
        return self.code(source, filename)

    def code(self, source: str, filename: str = "<string>") -> CodeType:
        key = source if filename == "<string>" else f"{filename}\0{source}"
        code = self.codes.get(key)
        if code is not None:
            return code
        if self.stored is None:
            self.stored = _read(self.path) if self.path else {}
        data = self.stored.get(key, b"")
        code = _unmarshalled(data)
        if code is None or code.co_filename != filename:
            # As `exec(source)` compiles it, called from `dataclasses` (which has no `__future__`
            # imports): no flags, none inherited from this module; attrs's, with its module's.
            code = compile(source, filename, "exec", flags=self.flags, dont_inherit=True)
            data = marshal.dumps(code)
            self.compiled += 1
        self.codes[key] = code
        self.used[key] = data
        return code

    def kept(self) -> dict[str, bytes]:
        """What the file is to hold: what was used here, and what it held that was not, unless
        that is more (the code of classes gone with an upgrade: not kept forever)."""
        unused = {source: data for source, data in (self.stored or {}).items() if source not in self.used}
        return {**unused, **self.used} if len(unused) <= len(self.used) else self.used


@contextlib.contextmanager
def dataclass_code(path: str | None) -> Iterator[_CachedCompile]:
    """Within this block, the dataclasses made compile their functions' sources through the cache
    at `path` (None: no cache); at its end, if any had to be compiled, the file is written anew
    with the code of the sources used (`kept`: runs that make different classes do not write it
    in turn). Never raises for the file: a cache that cannot be read or written is none."""
    import dataclasses

    cached = _CachedCompile(path)
    with _in_place_of(vars(dataclasses), "exec", cached, cached):
        yield cached


_SALTED = 5


@contextlib.contextmanager
def attrs_code(path: str | None) -> Iterator[_CachedCompile]:
    """As `dataclass_code`, for the classes attrs makes (the 550 of lsprotocol, which the language
    server imports: 40% of that import is compiling their methods). attrs compiles each script in
    `attr._make` with `compile(script, filename, "exec")`: the cache gives it the same code, under
    the same file name, compiled with that module's `__future__` flags. ImportError without attrs."""
    import __future__

    from attr import _make

    namespace = vars(_make)
    flags = 0
    for value in namespace.values():
        if isinstance(value, __future__._Feature):
            flags |= value.compiler_flag
    # A few scripts differ in each process (a `__hash__` salted with a hash of this run's): they are
    # compiled every time, and not worth writing the whole file again for.
    cached = _CachedCompile(path, flags, unwritten=_SALTED)
    with _in_place_of(namespace, "compile", cached.compile, cached):
        yield cached


@contextlib.contextmanager
def _in_place_of(namespace: dict, name: str, replacement: object, cached: _CachedCompile) -> Iterator[None]:
    """`namespace[name]` is `replacement` within the block (as it was after it, even on error);
    then the cache's file is written if anything had to be compiled (see `dataclass_code`)."""
    before = namespace.get(name)
    namespace[name] = replacement
    try:
        yield
    finally:
        if before is None:
            del namespace[name]
        else:
            namespace[name] = before
    if cached.path and cached.compiled > cached.unwritten and not sys.dont_write_bytecode:
        _write(cached.path, cached.kept())


def _read(path: str) -> dict[str, bytes]:
    """The sources and code stored at `path`; none if it is missing, damaged, of another Python,
    a symlink, not a regular file, or a file (or in a folder) another user owns or may write."""
    with _folder(os.path.dirname(path), create=False) as folder:
        if folder is _REFUSED:
            return {}
        try:
            fd = os.open(_name(path, folder), os.O_RDONLY | _BINARY | _NO_SYMLINK | _NO_WAIT, dir_fd=folder)
        except OSError:
            return {}
        with open(fd, "rb") as handle:
            if not _own(os.fstat(fd)):
                return {}
            try:
                os.set_blocking(fd, True)
                data = handle.read()
            except OSError:
                return {}
    magic, crc, payload = data[: _HEADER - 4], data[_HEADER - 4 : _HEADER], data[_HEADER:]
    if magic != importlib.util.MAGIC_NUMBER or int.from_bytes(crc, "little") != zlib.crc32(payload):
        return {}
    stored = _loads(payload)
    return stored if isinstance(stored, dict) else {}


_REFUSED = -1  # `_folder`'s answer for a folder not to use


@contextlib.contextmanager
def _folder(path: str, create: bool) -> Iterator[int | None]:
    """A descriptor of the cache's folder `path` (made, the user's only, if `create`), to open its
    file by; `_REFUSED` if it is missing, a symlink, or another user's or writable by others; None
    where the system opens no folders (the file is opened by its path)."""
    if not _BY_FOLDER:
        if create:
            try:
                os.makedirs(path, mode=0o700, exist_ok=True)
            except OSError:
                yield _REFUSED
                return
        yield None
        return
    try:
        if create:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkdir(path, 0o700)
        fd = os.open(path, os.O_RDONLY | _FOLDER | _NO_SYMLINK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        yield _REFUSED
        return
    try:
        status = os.fstat(fd)
        mine = status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        yield fd if stat.S_ISDIR(status.st_mode) and mine else _REFUSED
    finally:
        os.close(fd)


def _name(path: str, folder: int | None) -> str:
    """How the cache's file is opened: by its name in `folder`, else by its path."""
    return os.path.basename(path) if folder is not None else path


def _own(status: os.stat_result) -> bool:
    """Whether a file is a regular one of this user's that no other may write (on POSIX)."""
    if not stat.S_ISREG(status.st_mode):
        return False
    if os.name != "posix":
        return True
    return status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _unmarshalled(data: object) -> CodeType | None:
    """The code marshalled in `data`, if it is that."""
    code = _loads(data) if isinstance(data, bytes) else None
    return code if isinstance(code, CodeType) else None


def _loads(data: bytes) -> object:
    """What `data` marshals, None where it is not marshal's."""
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None


def _write(path: str, used: dict[str, bytes]) -> None:
    """Replace the file at `path` with `used`, whole or not at all (as Python writes bytecode),
    readable by this user only, in a folder `_folder` accepts."""
    payload = marshal.dumps(used)
    data = importlib.util.MAGIC_NUMBER + zlib.crc32(payload).to_bytes(4, "little") + payload
    with _folder(os.path.dirname(path), create=True) as folder:
        if folder is _REFUSED:
            return
        partial = f"{_name(path, folder)}.{os.getpid()}"
        try:
            fd = os.open(
                partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY | _NO_SYMLINK, 0o600, dir_fd=folder
            )
        except OSError:
            return
        try:
            with open(fd, "wb") as handle:
                handle.write(data)
            os.replace(partial, _name(path, folder), src_dir_fd=folder, dst_dir_fd=folder)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(partial, dir_fd=folder)
