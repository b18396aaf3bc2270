"""Whether the generated tables are current: the digest of the sources the rules' needles and
entries come from (`trigger_table` and `entry_table` record the one they were generated from).
Below the prefilter and the selection, which both ask it: where the sources changed since, a
table is not used and the rules are loaded instead, so a stale table can make a run slower but
never different. The tables are a start-up trick (`model.tricks`): `TF24MIGRATE_OFF=tables`
makes every run load the rules and ask them, as with a stale table."""

from __future__ import annotations

import functools
import os

from tf24migrate.model.tricks import switched_off


@functools.cache
def table_is_current() -> bool:
    """Whether the trigger table may be used: generated from the rules' sources as they are now."""
    from tf24migrate.catalogue.trigger_table import SOURCES_DIGEST

    return generated_from_these(SOURCES_DIGEST)


def generated_from_these(digest: str) -> bool:
    """Whether a table generated from the sources of `digest` may be used: they are the sources
    installed, and the `tables` trick is not switched off."""
    return not switched_off("tables") and sources_digest() == digest


@functools.cache
def sources_digest() -> str:
    """A digest of the sources the rules' needles come from: the rules' API (`tf24migrate.rules`)
    and every module of `tf24migrate.transforms`, wherever they are installed. Read once per
    process: the trigger table and the entry table both check it. Every run that reads a file
    asks it first, so it reads with `os.walk` (not `pathlib`)."""
    import importlib.util
    from hashlib import blake2b

    folders = [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rules")]
    spec = importlib.util.find_spec("tf24migrate.transforms")
    folders += [str(folder) for folder in (spec and spec.submodule_search_locations) or ()]
    digest = blake2b(digest_size=16)
    for folder in folders:
        found = [
            (*(part for part in root[len(folder) :].split(os.sep) if part), name)  # its path in `folder`
            for root, _, names in os.walk(folder)
            for name in names
            if name.endswith(".py")
        ]
        for parts in sorted(found):  # as `pathlib` sorts them: by their parts
            with open(os.path.join(folder, *parts), "rb") as file:
                digest.update("/".join(parts).encode() + b"\0" + file.read() + b"\0")
    return digest.hexdigest()
