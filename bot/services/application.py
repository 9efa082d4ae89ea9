"""Every service of the application on one database, opened and closed together."""

import asyncio
import contextlib
import time
from dataclasses import dataclass

from bot.domain.errors import RecordsUnavailable
from bot.domain.settings import ServiceSettings
from bot.services.activities import ActivityService
from bot.services.analysis import AnalysisService
from bot.services.clock import Clock
from bot.services.contests.service import ContestService
from bot.services.games.service import GameService, Seeds
from bot.services.privacy import PrivacyService
from bot.services.ratings import RatingService
from bot.services.solver import Solver
from bot.services.strategies.service import StrategyService
from bot.services.tournaments.service import TournamentService
from bot.storage import Database, open_migrated
from bot.storage.database import nothing
from hogengine.dice import new_seed


@dataclass(frozen=True)
class Services:
    """Games, strategies, tournaments, contests, ratings, analysis, privacy and the Activity's tables,
    sharing one Database."""

    db: Database
    games: GameService
    strategies: StrategyService
    tournaments: TournamentService
    ratings: RatingService
    analysis: AnalysisService
    privacy: PrivacyService
    contests: ContestService
    activities: ActivityService

    @classmethod
    async def open(
        cls, settings: ServiceSettings, clock: Clock = time.time, seeds: Seeds = new_seed
    ) -> "Services":
        """Open (creating if needed) and migrate the database, and build every service on it."""
        db = await open_migrated(settings.database_path, settings.database_url)
        solver = Solver(settings.solver_cache_dir)
        games = GameService(db, settings.timeouts, clock, solver, seeds, shards=settings.shards)
        return cls(
            db,
            games,
            StrategyService(db, clock, settings.upload_limits, solver),
            TournamentService(db, clock, shards=settings.shards),
            RatingService(db, clock),
            AnalysisService(db, solver, clock),
            PrivacyService(db, clock),
            ContestService(db, clock, shards=settings.shards),
            ActivityService(db, games, clock),
        )

    async def records_trouble(self) -> str | None:
        """What keeps the game records out of reach, in one line, or None. While they are out of reach, each
        call tries them again (a write of nothing), so the outage is seen to end even while nobody plays."""
        if self.db.outage.trouble is not None:
            with contextlib.suppress(RecordsUnavailable):
                await self.db.write(nothing)
        trouble = self.db.outage.trouble
        await self.games.hold_clocks(trouble is not None)
        return trouble

    def stop(self) -> None:
        """Cut the long work short (the bot is stopping): uploads in the sandbox raise UploadStopped, a
        tournament computing raises TournamentStopped; nothing of either is stored."""
        self.strategies.stop()
        self.tournaments.stop()
        self.contests.stop()

    async def close(self) -> None:
        """Stop the long work, let the pools wind down (off the event loop), then close the database."""
        await asyncio.gather(
            asyncio.to_thread(self.strategies.close),
            asyncio.to_thread(self.tournaments.close),
            asyncio.to_thread(self.contests.close),
        )
        await self.db.close()
