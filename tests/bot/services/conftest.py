"""Fixtures: every service, opened as the bot opens them (`Services.open`), on each backend (a real SQLite
file in tmp_path, a database of the session's real PostgreSQL server), with a clock the test moves by
hand and dice seeds from a counter (every run rolls the same games)."""

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import GameService, Match, MatchStatus, Player, Services
from bot.services.analysis import AnalysisService
from bot.services.privacy import PrivacyService
from bot.services.ratings import RatingService
from bot.services.strategies.service import StrategyService
from bot.services.tournaments.service import TournamentService
from bot.storage import Database
from hogengine.game import State
from tests.helpers import CHANNEL, GUILD, Choose, Duel, FakeClock, Gate, PlayOut, counted_seeds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(tmp_path: Path, solver_cache: Path, database_url: str | None) -> Settings:
    return Settings(
        database_path=tmp_path / "hog.sqlite3",
        database_url=database_url,
        solver_cache_path=solver_cache,
        upload_cooldown_seconds=30.0,
        upload_time_limit_seconds=5.0,
        _env_file=None,
    )


@pytest.fixture
async def services(settings: Settings, clock: FakeClock) -> AsyncIterator[Services]:
    opened = await Services.open(settings.services, clock, counted_seeds())
    yield opened
    await opened.close()


@pytest.fixture
def service(services: Services) -> GameService:
    return services.games


@pytest.fixture
def db(services: Services) -> Database:
    return services.db


@pytest.fixture
def strategies(services: Services) -> StrategyService:
    return services.strategies


@pytest.fixture
def tournaments(services: Services) -> TournamentService:
    return services.tournaments


@pytest.fixture
def ratings(services: Services) -> RatingService:
    return services.ratings


@pytest.fixture
def analysis(services: Services) -> AnalysisService:
    return services.analysis


@pytest.fixture
def privacy(services: Services) -> PrivacyService:
    return services.privacy


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


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """Every upload's sandbox run held until the test opens the gate."""
    held = Gate()
    monkeypatch.setattr("bot.services.strategies.service.check_entry", held.run)
    yield held
    held.opened.set()
