"""What every bot test shares: one solver cache folder for the whole session, so each rule set is solved
once (the solver keeps solutions per process and per folder); and the fake Discord, for a bot started as
a process of its own."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.discord.fake_discord import FakeDiscord


@pytest.fixture(scope="session")
def solver_cache(hog_cache: Path) -> Path:
    return hog_cache


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord on a free port of 127.0.0.1."""
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
