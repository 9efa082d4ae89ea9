"""While a command's modules load. Ctrl-C waits for the import to end: an import it stops midway is not
always reported as the interrupt (numpy's says the install is broken). The garbage collector waits too:
each full collection during the imports walked every object loaded so far, for nothing (they live as long
as the command), so what they made is then left out of collections until the command ends (`given_back`)."""

import gc
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def modules() -> Iterator[None]:
    """Load modules in the block: Ctrl-C during it raises KeyboardInterrupt once it has ended (where signals
    can be caught: the main thread; any other exception of the block comes first), and no garbage is
    collected during it; what exists at its end is frozen out of later collections."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        with _ctrl_c_held():
            yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


@contextmanager
def given_back() -> Iterator[None]:
    """Run a command that loads modules: what they froze is collected as usual again once it ends (a caller
    in the same process, like a test, keeps no garbage that happened to exist while they loaded)."""
    try:
        yield
    finally:
        gc.unfreeze()


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
