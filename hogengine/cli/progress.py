"""A small progress bar on stderr for long runs: silent for the first second and when not on a terminal."""

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

WIDTH = 30


class Progress:
    """Counts work done out of `total` and redraws one stderr line at most ten times a second."""

    def __init__(
        self,
        total: int,
        label: str,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        delay: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.label, self.done = max(total, 1), label, 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.clock = clock
        self.start = clock()
        self.delay = delay
        self.drawn_at: float | None = None
        self.width = 0  # of the line last drawn, so a shorter one can cover it

    def advance(self, amount: int = 1) -> None:
        """Record `amount` more units of work, redrawing once the run has lasted `delay` seconds."""
        self.done += amount
        now = self.clock()
        shown = self.drawn_at is not None and now - self.drawn_at < 0.1
        if self.enabled and now - self.start >= self.delay and not shown:
            self.draw(now)

    def draw(self, now: float) -> None:
        """Write the bar: label, bar, percentage, count and time left."""
        fraction = min(self.done / self.total, 1.0)
        filled = round(WIDTH * fraction)
        elapsed = now - self.start
        left = elapsed / fraction - elapsed if fraction else 0.0
        bar = "#" * filled + "-" * (WIDTH - filled)
        line = f"{self.label} [{bar}] {fraction:4.0%} {self.done}/{self.total} ~{left:.0f}s left"
        self.stream.write(f"\r{line:<{self.width}}")  # blanks over what a longer line left behind
        self.width = len(line)
        self.stream.flush()
        self.drawn_at = now

    def close(self) -> None:
        """Finish the line, if one was drawn, so later output starts clean."""
        if self.drawn_at is not None:
            self.draw(self.clock())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
