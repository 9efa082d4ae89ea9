"""The stop of a tournament computing in a worker thread (or a process): whoever awaits it hears the stop at
once (and can say nothing was stored), while the thread gives up at its next step, its result thrown away
(a process is ended by its owner). A step may
take seconds on a busy machine, longer than a stopping bot waits before it cancels what still runs."""

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from bot.domain.errors import TournamentStopped

T = TypeVar("T")


class Stop:
    """Set once, when the bot stops; every tournament run through it raises TournamentStopped from then."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._heard: set[asyncio.Future[None]] = set()

    def set(self) -> None:
        self._event.set()
        for heard in list(self._heard):
            heard.get_loop().call_soon_threadsafe(_resolve, heard)

    def check(self) -> None:
        """Raise TournamentStopped once set: in the worker thread, between steps."""
        if self._event.is_set():
            raise TournamentStopped

    async def run(self, pool: Executor, work: Callable[[], T]) -> T:
        """`work` in `pool`: its result, or TournamentStopped as soon as the stop is set."""
        self.check()
        return await self.awaiting(asyncio.get_running_loop().run_in_executor(pool, work))

    async def awaiting(self, computing: asyncio.Future[T]) -> T:
        """The result of `computing`, or TournamentStopped as soon as the stop is set (what computes is then
        its owner's to end; a result nobody awaits any more is dropped quietly)."""
        loop = asyncio.get_running_loop()
        heard = loop.create_future()
        self._heard.add(heard)
        computing.add_done_callback(_retrieved)
        try:
            self.check()
            await asyncio.wait((computing, heard), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._heard.discard(heard)
            heard.cancel()
        if not computing.done():
            raise TournamentStopped
        return computing.result()


def _resolve(heard: asyncio.Future[None]) -> None:
    if not heard.done():
        heard.set_result(None)


def _retrieved(computing: asyncio.Future[Any]) -> None:
    if not computing.cancelled():
        computing.exception()
