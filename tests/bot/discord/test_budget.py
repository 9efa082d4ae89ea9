"""The budget of Discord's global rate limit, on a clock moved by hand: never more calls in a second than the
process's share, and while calls wait, a person's before a notice, a notice before the background work (a
burst of deletes or redraws never holds up a turn); the bot's HTTP client takes every call through it."""

import asyncio
from collections.abc import Iterator

import pytest

from bot.config import Settings
from bot.discord.budget import Budget, Priority, spending


class HandClock:
    """A clock that moves only when the budget sleeps: each sleep moves it on by the time asked."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


@pytest.fixture
def clock() -> Iterator[HandClock]:
    yield HandClock()


async def granted(budget: Budget, clock: HandClock, priority: Priority, log: list[tuple[str, float]]) -> None:
    await budget.spend(priority)
    log.append((priority.name, clock.now))


def most_in_a_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


async def test_calls_keep_within_the_share_and_wait_their_turn_by_priority(clock: HandClock) -> None:
    budget = Budget(25.0, clock, clock.sleep)  # a process of two, each half of 50 a second
    log: list[tuple[str, float]] = []
    asked = [Priority.BACKGROUND] * 60 + [Priority.NOTICE] * 20 + [Priority.URGENT] * 20

    await asyncio.gather(*(granted(budget, clock, priority, log) for priority in asked))

    assert most_in_a_second([at for _, at in log]) <= 0.9 * 25  # a tenth left for the network's jitter
    waited = [name for name, at in log if at > 0]  # those the burst could not take at once
    assert waited == sorted(waited, key=lambda name: Priority[name])  # the more urgent first, each in turn
    assert budget.report() == (
        "100 call(s) bound by Discord's global limit (20 urgent, 20 notice, 60 background);"
        " 98 waited their turn"
    )
    assert budget.report() is None  # counted afresh


async def test_a_burst_of_background_work_never_holds_up_a_turn(clock: HandClock) -> None:
    budget = Budget(25.0, clock, clock.sleep)
    log: list[tuple[str, float]] = []
    with spending(Priority.BACKGROUND):  # a start's catch-up: hundreds of boards to redraw
        backlog = [asyncio.create_task(granted(budget, clock, Priority.BACKGROUND, log)) for _ in range(300)]
    while len(log) < 100:
        await asyncio.sleep(0)

    asked = clock.now
    await budget.spend()  # a press's answer, outside any background work: urgent
    assert clock.now - asked <= 1 / budget.rate  # the next token is its own
    await asyncio.gather(*backlog)
    assert len(log) == 300


async def test_the_share_is_the_shards_part_of_the_limit() -> None:
    def share(**settings: object) -> float:
        return Settings(_env_file=None, **settings).rate_share  # type: ignore[call-arg]

    assert share() == 50.0
    assert share(global_rate_limit=500) == 500.0  # Discord raised it for a large bot
    assert share(shard_count=4, shard_ids="0-2") == 37.5
    assert share(shard_count=2, shard_ids="1") == 25.0
