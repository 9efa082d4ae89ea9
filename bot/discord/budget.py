"""The bot's budget of Discord's global rate limit: the one place every call it makes with its own token goes
through.

Discord lets a bot's token make about 50 requests a second in all, whatever its shards and processes (more
for a large bot, when Discord raises it); answering 429 to the rest, the whole bot stalls. Interaction
callbacks and the webhooks of interactions (answers to presses, their follow-ups, and editing or deleting
them, for 15 minutes) are not bound by it: discord.py makes those through its webhook adapter, and the bot
answers presses that way wherever it can. What is left goes through `HTTPClient.request`, which
`Budget.install` wraps: each call first takes a token from a bucket refilled at this process's share of the
limit (the setting, split by the shards each process runs), so the bot never reaches the limit (no burst and
second together pass 90% of the share, leaving room for the network's jitter). While calls wait, they take
their turns by `Priority`, set by the work that makes them (`spending`): what a person waits for first,
then notices, then what nobody waits for (deleting old notices, the clock's redraws), so a burst of the last
never holds up a turn. Each call then goes through discord.py as before: its per-route buckets, a 429's
Retry-After and the global lock after one are honoured as discord.py honours them.

Other work that paces its own calls (the Activity's redraws) takes its share from here by running them
`spending(Priority.BACKGROUND)`: their calls then wait behind the people's."""

import asyncio
import contextlib
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

import discord

REFILL_SHARE = 0.9  # of the process's share: what the burst and a second's refill may take together
ROUNDING = 1e-9  # of a token: what floating point may leave short of a whole one


class Priority(IntEnum):
    """Whose call goes first while calls wait for the budget (lower first)."""

    URGENT = 0  # a person waits for it: a press's answer the channel must carry, a command's work
    NOTICE = 1  # a ping the channel must carry: a person waits to be told
    BACKGROUND = 2  # nobody waits: deleting old notices, the clock's redraws, what a start catches up on


_priority: ContextVar[Priority] = ContextVar("hog_discord_priority", default=Priority.URGENT)


@contextlib.contextmanager
def spending(priority: Priority) -> Iterator[None]:
    """The calls to Discord made inside (in this task, and in tasks it starts) wait at this priority."""
    token = _priority.set(priority)
    try:
        yield
    finally:
        _priority.reset(token)


class Budget:
    """A token bucket at a process's share of the global limit, whose waiting calls are served by priority,
    each priority first come first served."""

    def __init__(
        self,
        per_second: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.burst = max(1.0, per_second / 10)
        self.rate = max(per_second * REFILL_SHARE - self.burst, per_second / 2)
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._at = clock()
        self._waiting: dict[Priority, deque[asyncio.Future[None]]] = {p: deque() for p in Priority}
        self._server: asyncio.Task[None] | None = None
        self.spent: Counter[Priority] = Counter()  # calls made, by priority (see `report`)
        self.queued = 0  # of them, those that had to wait

    def install(self, http: discord.http.HTTPClient) -> None:
        """Make every call of this discord.py client with the bot's token take its turn here first (its
        interactions' webhooks go elsewhere in discord.py, unbound and unbudgeted)."""
        request = http.request

        async def budgeted(route: discord.http.Route, **options: Any) -> Any:
            await self.spend()
            return await request(route, **options)

        http.request = budgeted  # type: ignore[method-assign]

    async def spend(self, priority: Priority | None = None) -> None:
        """Wait for a call's turn (the priority of the work under way unless given): at once while the bucket
        has a token and no call as urgent waits, else after every more urgent call and those of its own
        priority that came first."""
        priority = _priority.get() if priority is None else priority
        self.spent[priority] += 1
        if self._first(priority) is None and self._take() == 0:
            return
        self.queued += 1
        turn = asyncio.get_running_loop().create_future()
        self._waiting[priority].append(turn)
        if self._server is None or self._server.done():
            self._server = asyncio.create_task(self._serve(), name="hog-discord-budget")
        await turn  # a caller cancelled meanwhile leaves its turn behind: `_first` drops it

    def report(self) -> str | None:
        """The calls made since the last report, in one line (None: none), and count afresh."""
        if not self.spent:
            return None
        calls = sum(self.spent.values())
        each = ", ".join(f"{self.spent[p]} {p.name.lower()}" for p in Priority if self.spent[p])
        line = f"{calls} call(s) bound by Discord's global limit ({each}); {self.queued} waited their turn"
        self.spent.clear()
        self.queued = 0
        return line

    def _take(self) -> float:
        """Take a token if the bucket holds one (0.0), else the seconds until it will (a token's last
        billionth, lost to rounding, is not waited for: the clock cannot move by so little)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1 - ROUNDING:
            return (1 - self._tokens) / self.rate
        self._tokens -= 1
        return 0.0

    def _first(self, priority: Priority = Priority.BACKGROUND) -> deque[asyncio.Future[None]] | None:
        """The queue of the most urgent call waiting at `priority` or above (calls given up dropped)."""
        for level in Priority:
            if level > priority:
                return None
            waiting = self._waiting[level]
            while waiting and waiting[0].done():
                waiting.popleft()
            if waiting:
                return waiting
        return None

    async def _serve(self) -> None:
        """Hand each token, as it comes, to the call whose turn it is; stop when none waits."""
        while (waiting := self._first()) is not None:
            if (pause := self._take()) > 0:
                await self._sleep(pause)
                continue
            waiting.popleft().set_result(None)
