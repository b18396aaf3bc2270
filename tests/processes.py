"""The processes a command or a server started, seen through Linux's /proc: for the tests that
kill a worker, or check that none outlives its parent."""

from __future__ import annotations

import os
import threading
import time


def children(pid: int) -> list[int]:
    """The process ids of the children of process `pid`, whichever of its threads started them
    (the server starts its worker in a thread of its own); [] once it has ended."""
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children") as handle:
                found += [int(child) for child in handle.read().split()]
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for_children(pid: int, count: int = 1, timeout: float = 30) -> list[int]:
    """The children of `pid`, once it has at least `count` of them (or after `timeout` s)."""
    deadline = time.monotonic() + timeout
    found = children(pid)
    while len(found) < count and time.monotonic() < deadline:
        time.sleep(0.005)
        found = children(pid)
    return found


def all_ended(pids: list[int], timeout: float = 10) -> bool:
    """Whether every process of `pids` ends within `timeout` s."""
    deadline = time.monotonic() + timeout
    while any(map(alive, pids)):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def resident(pid: int) -> int:
    """The resident memory (bytes) of process `pid` and all its descendants; 0 once ended."""
    total, pending = 0, [pid]
    while pending:
        process = pending.pop()
        try:
            with open(f"/proc/{process}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
        pending += children(process)
    return total


class PeakMemory:
    """The peak resident memory of a process and its descendants (`resident`), sampled every
    0.05 s in a thread of its own from `start()` to `stop()`; `baseline` is the memory at start."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.baseline = 0
        self.peak = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def start(self) -> None:
        self.baseline = self.peak = resident(self.pid)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stopped.wait(0.05):
            self.peak = max(self.peak, resident(self.pid))

    def stop(self) -> int:
        """Stop sampling; the growth above the baseline, in bytes."""
        self._stopped.set()
        self._thread.join(1)
        return self.peak - self.baseline
