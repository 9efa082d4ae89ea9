"""Progress of a blocking computation in a worker thread, delivered to an async callback on the event loop."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

# Called on the event loop with (done, total) while a tournament runs; only the latest count is kept.
Progress = Callable[[int, int], Awaitable[None]]
log = logging.getLogger(__name__)


class Relay:
    """Carries progress from the worker thread to an async callback on the loop, dropping stale counts."""

    def __init__(self, callback: Progress) -> None:
        self._loop = asyncio.get_running_loop()
        self._callback = callback
        self._latest: tuple[int, int] | None = None
        self._ready = asyncio.Event()
        self._finished = False
        self._pump = asyncio.create_task(self._deliver())

    def __call__(self, done: int, total: int) -> None:
        """Called in the worker thread."""
        self._loop.call_soon_threadsafe(self._post, (done, total))

    def _post(self, value: tuple[int, int]) -> None:
        self._latest = value
        self._ready.set()

    async def _deliver(self) -> None:
        """Deliver counts until closed, the last one included; a failing callback is only logged."""
        while not (self._finished and self._latest is None):
            await self._ready.wait()
            self._ready.clear()
            value, self._latest = self._latest, None
            if value is not None:
                try:
                    await self._callback(*value)
                except Exception:
                    log.exception("A tournament progress callback failed")

    async def close(self) -> None:
        """Deliver what is left, then stop."""
        self._finished = True
        self._ready.set()
        await self._pump
