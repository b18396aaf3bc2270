"""The progress bar of long runs: files done / total and the rate, on one stderr line.

Drawn only on a terminal, only once a run has lasted a moment, at most ten times a second, and
wiped before anything else is printed so it never mixes with findings.
"""

from __future__ import annotations

import time
from typing import TextIO

_WIDTH = 30


class ProgressBar:
    def __init__(self, total: int, stream: TextIO, *, enabled: bool, delay: float = 0.5) -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled and total > 0
        self.done = 0
        self.started = time.monotonic()
        self._next_draw = self.started + delay
        self._shown = False

    def advance(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if now >= self._next_draw or (self._shown and self.done == self.total):
            self._next_draw = now + 0.1
            self._draw(now)

    def _draw(self, now: float) -> None:
        filled = _WIDTH * self.done // self.total
        rate = self.done / max(now - self.started, 1e-9)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} files  {rate:,.0f} files/s")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Wipe the bar (it comes back on the next update)."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
