"""While a command's modules load. Ctrl-C waits for the import to end: an import it stops midway is not
always reported as the interrupt (numpy's says the install is broken). The garbage collector waits too:
each full collection during the imports walked every object loaded so far, for nothing. In the `hog`
program, a process of its own (`own_process`), what they made is then frozen out of every later collection
(they live as long as the command); a caller in a process of its own making (a test, a host application)
keeps its collector as it was, and no garbage of its own is ever frozen."""

import gc
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_FREEZING = threading.Event()  # set by the `hog` program: this process is the command's own


def own_process() -> None:
    """Say that this process runs one command and then exits (the `hog` program): loaded modules may be
    frozen."""
    _FREEZING.set()


@contextmanager
def modules() -> Iterator[None]:
    """Load modules in the block: Ctrl-C during it raises KeyboardInterrupt once it has ended (where signals
    can be caught: the main thread; any other exception of the block comes first), and no garbage is
    collected during it; in the command's own process, what exists at its end is frozen out of later
    collections."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        with _ctrl_c_held():
            yield
    finally:
        if _FREEZING.is_set():
            gc.freeze()
        if collecting:
            gc.enable()


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
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
