"""Fixtures: a GameService on a real SQLite file in tmp_path, with a clock the test moves by hand and dice
seeds from a counter (every run rolls the same games)."""

import hashlib
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import GameService, Match, MatchStatus, Player
from bot.services.games.service import Seeds
from hogengine.game import State

ALICE = Player(1001, "alice")
BOB = Player(1002, "bob")
CAROL = Player(1003, "carol")
CHANNEL = 555


class FakeClock:
    """Unix time that only moves when told to."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def counted_seeds() -> Seeds:
    """Dice seeds from a counter: the SHA-256 of b"hog-0", b"hog-1", ..."""
    counter = itertools.count()
    return lambda: hashlib.sha256(b"hog-%d" % next(counter)).digest()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(tmp_path: Path, solver_cache: Path) -> Settings:
    return Settings(database_path=tmp_path / "hog.sqlite3", solver_cache_path=solver_cache, _env_file=None)


@pytest.fixture
async def service(settings: Settings, clock: FakeClock) -> AsyncIterator[GameService]:
    svc = await GameService.open(settings, clock, counted_seeds())
    yield svc
    await svc.close()


PlayOut = Callable[..., Awaitable[Match]]


@pytest.fixture
def play_out(service: GameService) -> PlayOut:
    """Play a match to its end: people choose with `choose(state)`, the bot plays its own turns."""

    async def run(match: Match, choose: Callable[[State], int] = lambda state: 4) -> Match:
        while match.status is MatchStatus.ACTIVE:
            if match.is_bot_turn:
                played = await service.bot_turn(match.id)
                assert played is not None
            else:
                person = match.player_to_move
                assert person is not None
                played = await service.play(match.id, person.id, match.state.turn, choose(match.state))
            match = played.match
        return match

    return run
