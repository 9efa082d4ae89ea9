"""A stopping bot tells whoever awaits a tournament at once that nothing was stored, though the worker thread
is in the middle of a step (seconds on a busy machine) and gives up only at its next one."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.domain.errors import TournamentStopped
from bot.services.tournaments.stopping import Stop
from tests.hang import HANG


async def test_the_awaiter_hears_the_stop_while_the_thread_is_mid_step() -> None:
    stop = Stop()
    step_begun, step_may_end, step_ended = threading.Event(), threading.Event(), threading.Event()

    def steps() -> str:
        step_begun.set()
        step_may_end.wait(HANG)  # a step that lasts until the test lets it end
        step_ended.set()
        stop.check()
        return "standings"

    with ThreadPoolExecutor(1) as pool:
        running = asyncio.create_task(stop.run(pool, steps))
        await asyncio.to_thread(step_begun.wait, HANG)
        stop.set()
        with pytest.raises(TournamentStopped):
            await running
        assert not step_ended.is_set()  # heard while the step still runs
        step_may_end.set()  # the thread ends its step, then gives up


async def test_a_tournament_after_the_stop_never_starts() -> None:
    stop, started = Stop(), threading.Event()
    stop.set()
    with ThreadPoolExecutor(1) as pool, pytest.raises(TournamentStopped):
        await stop.run(pool, started.set)
    assert not started.is_set()


async def test_without_a_stop_the_result_comes_back() -> None:
    with ThreadPoolExecutor(1) as pool:
        assert await Stop().run(pool, lambda: 42) == 42
