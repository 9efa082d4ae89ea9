"""What every bot test shares: one solver cache folder for the whole session, so each rule set is solved
once (the solver keeps solutions per process and per folder); and the fake Discord, for a bot started as
a process of its own."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hogengine.game import MAX_GOAL
from hogengine.rules import RULE_SETS
from hogengine.solver import load_or_solve
from tests.bot.discord.fake_discord import FakeDiscord
from tests.helpers import first_comes_first


@pytest.fixture(scope="session")
def solver_cache(hog_cache: Path) -> Path:
    return hog_cache


@pytest.fixture(scope="session")
def solved(solver_cache: Path, run_folder: Path) -> Path:
    """The solver cache with every rule set solved at the usual goal, once per run, before any bot needs it:
    a bot in SimCord works inside a settle of SimCord's horizon (real seconds), which a cold pig-fest solve
    on a busy machine outlasts, and a bot reading the solution from here does not."""
    with first_comes_first(run_folder, "solved"):  # the run's other workers read it once it is there
        for ruleset in RULE_SETS:
            load_or_solve(ruleset, MAX_GOAL, solver_cache)
    return solver_cache


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord on a free port of 127.0.0.1."""
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
