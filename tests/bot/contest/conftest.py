"""Fixtures: the contest services beside the game service (`service`, `play_out`, `clock` from the game
service's tests) on one real SQLite file in tmp_path, each through its own connections."""

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import numpy as np
import pytest

from bot.config import Settings
from bot.services import GameService, Match, Player, Tournament, Upload
from bot.services.analysis import AnalysisService
from bot.services.privacy import PrivacyService
from bot.services.ratings import RatingService
from bot.services.solver import Solver
from bot.services.strategies.service import StrategyService, UploadLimits
from bot.services.tournaments.progress import Progress
from bot.services.tournaments.service import TournamentService
from bot.storage import Database
from hogengine.game import State
from hogengine.strategies import Table, always_roll, course_table, table_from_function
from tests.bot.services.conftest import FakeClock, PlayOut, clock, play_out, service, settings

__all__ = ["clock", "play_out", "service", "settings"]  # fixtures shared with the game service's tests

ALICE = Player(1001, "alice")
BOB = Player(1002, "bob")
CAROL = Player(1003, "carol")
GUILD = 777
CHANNEL = 555
ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"
Choose = Callable[[State], int]
Duel = Callable[..., Awaitable[Match]]


def entries() -> list[tuple[str, Table]]:
    """Four swine-align tournament entries: always 4, always 6, the course strategy, and a mixed table."""
    mixed = np.where(np.arange(100)[:, None] > np.arange(100)[None, :], 3, 7).astype(np.int8)
    return [
        ("fours", table_from_function(always_roll(4), "swine-align")),
        ("sixes", table_from_function(always_roll(6), "swine-align")),
        ("course", course_table("swine-align")),
        ("mixed", mixed),
    ]


async def upload_file(
    strategies: StrategyService, guild_id: int, owner: Player, filename: str, data: bytes, **options: Any
) -> Upload:
    """`admit` then `evaluate`, as the bot does with a file it downloaded."""
    ticket = await strategies.admit(guild_id, owner, filename, len(data), **options)
    return await strategies.evaluate(ticket, data)


async def run_tournament(
    contests: TournamentService,
    guild_id: int,
    started_by: Player,
    rules: str = "swine-align",
    fmt: str = "exact",
    *,
    progress: Progress | None = None,
) -> Tournament:
    """`reserve` then `play`, as `/hog tournament` does."""
    async with contests.reserve(guild_id, rules, fmt) as draw:
        return await contests.play(draw, started_by, progress)


@pytest.fixture
async def db(service: GameService, settings: Settings) -> AsyncIterator[Database]:
    """A second connection pair to the game service's database (already migrated by it)."""
    database = await Database.open(settings.database_path)
    yield database
    await database.close()


@pytest.fixture
def solver(settings: Settings) -> Solver:
    return Solver(settings.solver_cache_dir)


@pytest.fixture
def strategies(db: Database, clock: FakeClock, solver: Solver) -> Iterator[StrategyService]:
    limits = UploadLimits(cooldown_seconds=30.0, time_limit=5.0)
    strategy_service = StrategyService(db, clock, limits, solver)
    yield strategy_service
    strategy_service.close()


@pytest.fixture
def contests(db: Database, clock: FakeClock) -> Iterator[TournamentService]:
    contest_service = TournamentService(db, clock, random.Random(7))
    yield contest_service
    contest_service.close()


@pytest.fixture
def ratings(db: Database, clock: FakeClock) -> RatingService:
    return RatingService(db, clock)


@pytest.fixture
def analysis(db: Database, clock: FakeClock, solver: Solver) -> AnalysisService:
    return AnalysisService(db, solver, clock)


@pytest.fixture
def privacy(db: Database, clock: FakeClock) -> PrivacyService:
    return PrivacyService(db, clock)


@pytest.fixture
def duel(service: GameService, play_out: PlayOut, clock: FakeClock) -> Duel:
    """A challenge between two people on GUILD, accepted and played to its end."""

    async def run(
        first: Player, second: Player, rules: str = "swine-align", choose: Choose = lambda s: 4
    ) -> Match:
        clock.advance(60)
        match = await service.challenge(CHANNEL, first, second, rules=rules, guild_id=GUILD)
        match = await service.accept(match.id, second.id)
        return await play_out(match, choose)

    return run
