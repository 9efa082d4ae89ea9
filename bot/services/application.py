"""Every service of the application on one database, opened and closed together."""

import asyncio
import time
from dataclasses import dataclass

from bot.config import Settings
from bot.services.analysis import AnalysisService
from bot.services.clock import Clock
from bot.services.games.service import GameService, Seeds, Timeouts
from bot.services.privacy import PrivacyService
from bot.services.ratings import RatingService
from bot.services.solver import Solver
from bot.services.strategies.service import StrategyService, UploadLimits
from bot.services.tournaments.service import TournamentService
from bot.storage import Database, open_migrated
from hogengine.dice import new_seed


def timeouts(settings: Settings) -> Timeouts:
    """How long challenges and turns wait, as the settings say."""
    return Timeouts(settings.challenge_timeout_seconds, settings.turn_timeout_seconds)


def upload_limits(settings: Settings) -> UploadLimits:
    """How uploads are rationed, as the settings say."""
    return UploadLimits(
        cooldown_seconds=settings.upload_cooldown_seconds,
        workers=settings.upload_workers,
        waiting=settings.upload_max_waiting,
        time_limit=settings.upload_time_limit_seconds,
        per_person=settings.strategies_per_person,
    )


@dataclass(frozen=True)
class Services:
    """Games, strategies, tournaments, ratings, analysis and privacy, sharing one Database."""

    db: Database
    games: GameService
    strategies: StrategyService
    tournaments: TournamentService
    ratings: RatingService
    analysis: AnalysisService
    privacy: PrivacyService

    @classmethod
    async def open(cls, settings: Settings, clock: Clock = time.time, seeds: Seeds = new_seed) -> "Services":
        """Open (creating if needed) and migrate the database, and build every service on it."""
        db = await open_migrated(settings.database_path, settings.database_url)
        solver = Solver(settings.solver_cache_dir)
        return cls(
            db,
            GameService(db, timeouts(settings), clock, solver, seeds, shards=settings.shards),
            StrategyService(db, clock, upload_limits(settings), solver),
            TournamentService(db, clock, shards=settings.shards),
            RatingService(db, clock),
            AnalysisService(db, solver, clock),
            PrivacyService(db, clock),
        )

    def stop(self) -> None:
        """Cut the long work short (the bot is stopping): uploads in the sandbox raise UploadStopped, a
        tournament computing raises TournamentStopped; nothing of either is stored."""
        self.strategies.stop()
        self.tournaments.stop()

    async def close(self) -> None:
        """Stop the long work, let the pools wind down (off the event loop), then close the database."""
        await asyncio.gather(
            asyncio.to_thread(self.strategies.close), asyncio.to_thread(self.tournaments.close)
        )
        await self.db.close()
