"""Ctrl-C held back while modules load: an import that Ctrl-C stops midway is not always reported as the
interrupt (numpy's says the install is broken), so the interrupt waits for the import to end."""

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C during the block raises KeyboardInterrupt once the block has ended (where signals can be
    caught: the main thread); any other exception of the block comes first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []

    def remember(number: int, frame: FrameType | None) -> None:
        pressed.append(number)

    previous = signal.signal(signal.SIGINT, remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt
