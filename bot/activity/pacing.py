"""The bot's own redraws of boards, within Discord's rate limits, once the Activity can make games move
faster than people press buttons.

Discord takes at most 50 requests a second from a bot in all (its global limit; answers to interactions,
the buttons' edits, are not counted) and about 5 edits of messages in a channel per 5 seconds. A redraw the
bot makes of its own accord (a move played in the Activity, the house bot's move, the clock's) costs up to
three requests: the board's edit, and for a game between people the turn notice posted and the previous one
deleted. So every such redraw waits for its share of the Activity's budget (a token bucket of BURST tokens
refilled at REQUESTS_PER_SECOND: at most 40 of the 50 in any second, the rest left to everything else), and
each board for its own: a burst of BOARD_BURST, then one a second. A
redraw asked for while the board's is waiting is that same redraw: it shows the match as it is when it runs,
so under load a board skips the moves in between and shows the latest."""

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

REQUESTS_PER_SECOND = 30.0  # the Activity's share of Discord's 50 a second...
BURST = 10.0  # ... and of a burst: in any second at most BURST + REQUESTS_PER_SECOND, the rest left to others
REDRAW_COST = 3  # requests a redraw may make: the board's edit, a notice posted, the old one deleted
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

    async def acquire(self, tokens: float) -> None:
        """Wait until `tokens` are in the bucket, and take them."""
        while (pause := self.wait_for(tokens)) > 0:
            await asyncio.sleep(pause)
        self.take(tokens)


class Pacer:
    """Redraws of boards asked for by the bot itself, run within `budget` (the Activity's share of Discord's
    global limit, shared with its sign-ins) and each board's own limit, the oldest asked first."""

    def __init__(self, show: Show, budget: Bucket, clock: Clock = time.monotonic) -> None:
        self._show = show
        self._budget = budget
        self._clock = clock
        self._waiting: OrderedDict[int, None] = OrderedDict()  # match ids, in the order first asked
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # asked for while being redrawn: redrawn once more after
        self._boards: dict[int, Bucket] = {}
        self._asked = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None

    async def ask(self, match_id: int) -> None:
        """Redraw this match's board soon (the `Shown` of the follow-up and of the clock)."""
        if match_id in self._running:
            self._again.add(match_id)
        else:
            self._waiting[match_id] = None
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
            await self._budget.acquire(REDRAW_COST)
            del self._waiting[ready]
            self._board(ready).take(1)
            self._running[ready] = asyncio.create_task(self._redraw(ready), name=f"hog-redraw-{ready}")

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
                self._again.discard(match_id)
                self._waiting[match_id] = None
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
