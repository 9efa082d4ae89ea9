"""The clock every service reads: Unix seconds, injected so tests and simulated Discord time drive it."""

from collections.abc import Callable

Clock = Callable[[], float]
