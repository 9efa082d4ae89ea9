"""The bot's own redraws of boards, within Discord's rate limits, once the Activity can make games move
faster than people press buttons.

Discord takes about 5 edits of messages in a channel per 5 seconds, so each board is redrawn at its own
pace: a burst of BOARD_BURST, then one a second. A redraw asked for while the board's is waiting is that
same redraw: it shows the match as it is when it runs, so under load a board skips the moves in between
and shows the latest. Discord's global limit (50 requests a second from the bot in all) is the budget's
(bot/discord/budget.py), which every call made with the bot's token waits in, the Activity's included: a
redraw runs in the context it was first asked in, so its calls wait there at the priority of the work that
asked for it (the house bot's move, the clock's redraws), not as one of their own.
"""

import asyncio
import contextlib
import contextvars
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

BOARD_BURST = 5  # redraws of one board at once (Discord's limit on a channel's edits: 5 per 5 seconds)
BOARD_PER_SECOND = 1.0  # ... then one a second
AT_ONCE = 8  # redraws under way at the same time (each a few round trips to Discord)

Show = Callable[[int], Awaitable[None]]  # draws the match with this id on its board; must not raise
Clock = Callable[[], float]


class Bucket:
    """A token bucket: `capacity` tokens at most, refilled at `rate` a second."""

    def __init__(self, capacity: float, rate: float, clock: Clock = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._tokens = capacity
        self._at = clock()

    def _refill(self) -> float:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._at) * self.rate)
        self._at = now
        return self._tokens

    def wait_for(self, tokens: float) -> float:
        """Seconds until `tokens` are in the bucket (0: now)."""
        return max(0.0, (tokens - self._refill()) / self.rate)

    def take(self, tokens: float) -> None:
        """Take `tokens` (there: see `wait_for`)."""
        self._tokens = self._refill() - tokens

    @property
    def full(self) -> bool:
        return self._refill() >= self.capacity


class Pacer:
    """Redraws of boards asked for by the bot itself, each within its board's own limit, the oldest asked
    first, each in the context it was first asked in."""

    def __init__(self, show: Show, clock: Clock = time.monotonic) -> None:
        self._show = show
        self._clock = clock
        # match ids, in the order first asked, and the context each was first asked in
        self._waiting: OrderedDict[int, contextvars.Context] = OrderedDict()
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: dict[int, contextvars.Context] = {}  # asked for while being redrawn: once more after
        self._boards: dict[int, Bucket] = {}
        self._asked = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None

    async def ask(self, match_id: int) -> None:
        """Redraw this match's board soon (the `Shown` of the follow-up and of the clock)."""
        if match_id in self._running:
            self._again.setdefault(match_id, contextvars.copy_context())
        else:
            self._waiting.setdefault(match_id, contextvars.copy_context())
        self._asked.set()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._work(), name="hog-board-pacer")

    async def _work(self) -> None:
        while True:
            self._asked.clear()  # before looking: an ask from now on wakes the wait below
            ready = self._next()
            if ready is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._asked.wait(), self._soonest())
                continue
            while len(self._running) >= AT_ONCE:
                await asyncio.wait(list(self._running.values()), return_when=asyncio.FIRST_COMPLETED)
            asked = self._waiting.pop(ready)
            self._board(ready).take(1)
            redraw = self._redraw(ready)
            self._running[ready] = asyncio.create_task(redraw, name=f"hog-redraw-{ready}", context=asked)

    def _next(self) -> int | None:
        """The first match asked for whose board may be redrawn now."""
        return next(
            (
                match_id
                for match_id in self._waiting
                if match_id not in self._running and self._board(match_id).wait_for(1) == 0
            ),
            None,
        )

    def _soonest(self) -> float | None:
        """Seconds until a waiting board may be redrawn (None: none waits but for a redraw under way)."""
        waits = [self._board(m).wait_for(1) for m in self._waiting if m not in self._running]
        return min(waits, default=None)

    def _board(self, match_id: int) -> Bucket:
        bucket = self._boards.get(match_id)
        if bucket is None:
            bucket = self._boards[match_id] = Bucket(BOARD_BURST, BOARD_PER_SECOND, self._clock)
        return bucket

    async def _redraw(self, match_id: int) -> None:
        try:
            await self._show(match_id)
        finally:
            del self._running[match_id]
            if match_id in self._again:
                self._waiting[match_id] = self._again.pop(match_id)
            self._forget_idle()
            self._asked.set()

    def _forget_idle(self) -> None:
        """Drop the buckets of boards that are full again and not waiting: memory stays bounded."""
        for match_id in [m for m, bucket in self._boards.items() if bucket.full]:
            if match_id not in self._waiting and match_id not in self._running:
                del self._boards[match_id]

    async def close(self) -> None:
        """Stop: the redraws under way are cancelled, those waiting dropped (the next start shows every
        board that lags behind its match)."""
        tasks = [task for task in (self._worker, *self._running.values()) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()
