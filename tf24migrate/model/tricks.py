"""The speed tricks: each one, what it saves, where it lives, and its off switch.

A trick here is code that makes a run faster by doing something Python, or a plain walk of the
whole tree, would not do on its own. Each stays only while it pays for itself in a figure a user sees: `benchmarks/tricks.py`
runs fresh processes with it on and off, side by side (medians of CPU time, which a busy machine
changes least; issue 47, on a 2-core machine at load 6-7). Each lives in the one module named, and is
switched off by naming it in the environment variable `TF24MIGRATE_OFF` (comma-separated; `all`
for every one): the process then does exactly what Python does without it, with the same output
(`tests/test_tricks_on_every_python.py` checks this on every Python the package supports).

- `code-cache` (`engine.loading`): the code of the functions `dataclasses` generates for LibCST's
  and the rules' classes (1,100 sources on Python 3.11), kept in a file in the user's cache
  folder and used while the command or the library loads the engine, through a function of
  `exec`'s signature: a run on a 3-line file with a finding takes 39% more CPU without it (56 ms;
  wall 35-48% more), one on 2,800 due lines 7% more. Off: `dataclasses` keeps the real `exec`.
  The language server's worker loads the engine without it: its first diagnostics came no sooner
  with it (it loads while the server loads pygls).
- `server-cache` (`engine.loading`, used by `cli.command.server_command`): the same for the 550
  attrs classes of lsprotocol, while `tf24migrate server` imports it: its first diagnostics take
  10-15% more wall time (19-20% more CPU, about 90 ms) without it. Off: attrs keeps the real
  `compile`.
- `exit` (`cli.command.entry_point`): the command's process ends with `os._exit` once its output
  is flushed, without the interpreter's teardown of every object it holds: 18-30% of the CPU of
  `--version`, `--help` and a run on a 3-line file, 9% of one on 2,800 due lines (and 30-40 ms of
  the server's end). Off: `sys.exit`, the interpreter's own end.
- `gc` (`cli.command.entry_point`): the garbage collector's first threshold at 200,000 rather
  than 700 (`COLLECT_AFTER`), in the command's process and the workers it forks, not the
  server's: 4-6% of the CPU of a run on a 3-line file or on 2,800 due lines, 7% of the Model
  Garden's (88 ms: `gc.freeze`, gone, did the same there). Kept under the bar of the others
  deleted below as it swaps nothing and is two lines. Off: Python's thresholds.
- `tables` (`catalogue.generated`): the rules' triggers and catalogue entries, generated into
  `catalogue/trigger_table.py` and `entry_table.py` (`python -m tf24migrate.dev regen`), so that
  a file no rule reads, `--list-rules` and `--explain` need neither LibCST nor the rules: a run on
  a 3-line file with a finding takes 38% more CPU without them, one on a 3-line file no rule reads
  140% more (the wall times alike). They are
  used only while the digest of the rules' sources they record is that of the sources installed
  (hashing them costs no measurable time): a stale table makes a run slower, never different.
  Off: the rules are loaded and asked.
- `pruning` (`engine.pruning`, read in `engine.pipeline`): the statement plan, which leaves out of
  LibCST's parse and walk the statements no rule's trigger reaches in a file the prefilter lets
  through: cold runs over seven TF code bases take 1.65x the CPU without it (`benchmarks/
  pruning.py`; 13.7 s against 8.3 s). Off: every such file parsed and walked whole. Tests run
  every fixture and the public corpora both ways and demand the same output
  (`tests/test_pruning.py`, `tests/test_smoke_corpus.py`).

Measured and deleted (issue 47): the code cache of the command's own dataclasses, which replaced
`exec` for the whole command and the server (4-9% of the CPU of a run on a 3-line file);
`gc.freeze` before forking the workers (none: the threshold does its work); `blake2b` from
CPython's private `_blake2` rather than `hashlib` (2-6%).

Not tricks, and so with no switch: imports made where they are needed (the package's lazy
attributes in `tf24migrate/__init__.py`, the command's and the catalogue's imports inside
functions), so that `--version` and `--list-rules` load no LibCST.
"""

from __future__ import annotations

import os

VARIABLE = "TF24MIGRATE_OFF"
TRICKS = ("code-cache", "server-cache", "exit", "gc", "tables", "pruning")


def switched_off(trick: str) -> bool:
    """Whether `trick` (one of `TRICKS`) is switched off in this process's environment."""
    named = {name.strip() for name in os.environ.get(VARIABLE, "").split(",")}
    return trick in named or "all" in named
