"""Tournaments of a server's stored strategies under one rule set: exact or sampled, run in a worker
thread with progress reported on the event loop, one at a time per server, standings stored."""

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.services.contest_errors import TournamentRefused
from bot.services.contest_models import Standing, StoredStrategy, Tournament
from bot.services.models import Player
from bot.services.privacy import DELETED_STRATEGY
from bot.services.store import Clock
from bot.services.strategies import strategy_from
from bot.storage import Database, Row, strategy_repo
from bot.storage import contest_repo as repo
from bot.storage import repositories as players_repo
from hogengine.game import MAX_GOAL
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.solver import Row as Result
from hogengine.solver import Standings, tournament_exact, tournament_sampled
from hogengine.strategies import Table

FORMATS = ("exact", "sampled")
# Called on the event loop with (done, total) while a tournament runs; only the latest count is kept.
Progress = Callable[[int, int], Awaitable[None]]
log = logging.getLogger(__name__)


class _Relay:
    """Carries progress from the worker thread to an async callback on the loop, dropping stale counts."""

    def __init__(self, callback: Progress) -> None:
        self._loop = asyncio.get_running_loop()
        self._callback = callback
        self._latest: tuple[int, int] | None = None
        self._ready = asyncio.Event()
        self._finished = False
        self._pump = asyncio.create_task(self._deliver())

    def __call__(self, done: int, total: int) -> None:
        """Called in the worker thread."""
        self._loop.call_soon_threadsafe(self._post, (done, total))

    def _post(self, value: tuple[int, int]) -> None:
        self._latest = value
        self._ready.set()

    async def _deliver(self) -> None:
        """Deliver counts until closed, the last one included; a failing callback is only logged."""
        while not (self._finished and self._latest is None):
            await self._ready.wait()
            self._ready.clear()
            value, self._latest = self._latest, None
            if value is not None:
                try:
                    await self._callback(*value)
                except Exception:
                    log.exception("A tournament progress callback failed")

    async def close(self) -> None:
        """Deliver what is left, then stop."""
        self._finished = True
        self._ready.set()
        await self._pump


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a tournament plays: rule set, format, goal, and the seed of a sampled one's dice."""

    rules: str
    fmt: str
    goal: int
    seed: int


def _run(plan: _Plan, entries: list[tuple[str, Table]], progress: _Relay | None) -> Standings:
    """The solver's tournament (blocking), in the worker thread."""
    if plan.fmt == "exact":
        return tournament_exact(plan.rules, entries, plan.goal, progress)
    return tournament_sampled(plan.rules, entries, random.Random(plan.seed), plan.goal, progress=progress)


def _standing(
    place: int, row: Result, entrant: StoredStrategy, kept: set[int], known: set[int]
) -> dict[str, Any]:
    """A standings row; a strategy deleted since keeps its name, one whose owner was forgotten is renamed."""
    forgotten = entrant.owner.id not in known
    return {
        "place": place,
        "strategy_id": entrant.id if entrant.id in kept else None,
        "owner_id": None if forgotten else entrant.owner.id,
        "name": DELETED_STRATEGY if forgotten else row.name,
        "points": row.wins,
        "tiebreak": row.tie_break,
    }


def _tournament(row: Row, standings: list[Row]) -> Tournament:
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        rules=row["rules"],
        goal=row["goal"],
        format=row["format"],
        started_by=row["started_by"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        standings=tuple(
            Standing(
                s["place"],
                s["name"],
                s["owner_id"],
                s["owner_name"],
                s["strategy_id"],
                s["points"],
                s["tiebreak"],
            )
            for s in standings
        ),
    )


class ContestService:
    """Runs and remembers tournaments; one worker thread, so one tournament computes at a time."""

    def __init__(self, db: Database, clock: Clock = time.time, seeds: random.Random | None = None) -> None:
        self._db = db
        self._clock = clock
        self._seeds = seeds or random.Random()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="hog-tournament")
        self._running: set[int] = set()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    async def run(
        self,
        guild_id: int,
        started_by: Player,
        rules: str = DEFAULT_RULES,
        fmt: str = "exact",
        *,
        progress: Progress | None = None,
        goal: int = MAX_GOAL,
    ) -> Tournament:
        """Every active strategy of the server for these rules plays every other; the stored result.

        Raises TournamentRefused (unknown format, fewer than two strategies, one already running here).
        """
        if fmt not in FORMATS:
            raise TournamentRefused(f"Unknown format '{fmt[:20]}': choose {' or '.join(FORMATS)}.")
        ruleset = get_rules(rules)
        if guild_id in self._running:
            raise TournamentRefused("A tournament is already running on this server.")
        self._running.add(guild_id)
        try:
            plan = _Plan(ruleset.id, fmt, goal, self._seeds.getrandbits(64))
            return await self._play(guild_id, started_by, plan, progress)
        finally:
            self._running.discard(guild_id)

    async def _play(
        self, guild_id: int, started_by: Player, plan: _Plan, progress: Progress | None
    ) -> Tournament:
        rows = await strategy_repo.active_strategies(self._db, guild_id, plan.rules, with_table=True)
        entrants = {strategy.name: strategy for strategy in map(strategy_from, rows)}
        if len(entrants) < 2:
            raise TournamentRefused(
                f"A tournament needs at least two {plan.rules} strategies on this server."
            )
        started = self._clock()
        await self._db.write(
            lambda conn: players_repo.upsert_players(conn, [(started_by.id, started_by.name)], started)
        )
        relay = None if progress is None else _Relay(progress)
        tables = [(name, strategy.table) for name, strategy in entrants.items() if strategy.table is not None]
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._pool, _run, plan, tables, relay)
        finally:
            if relay is not None:
                await relay.close()
        values = {
            "guild_id": guild_id,
            "rules": plan.rules,
            "goal": plan.goal,
            "format": plan.fmt,
            "created_at": started,
            "finished_at": self._clock(),
        }

        async def work(conn: aiosqlite.Connection) -> int:
            # Strategies deleted and owners forgotten while it ran keep their place, without the link.
            kept = await strategy_repo.stored_ids(conn, [entrant.id for entrant in entrants.values()])
            people = {started_by.id, *(entrant.owner.id for entrant in entrants.values())}
            known = await players_repo.known_players(conn, people)
            standings = [
                _standing(place, row, entrants[row.name], kept, known)
                for place, row in enumerate(result.rows, start=1)
            ]
            starter = started_by.id if started_by.id in known else None
            return await repo.insert_tournament(conn, {**values, "started_by": starter}, standings)

        return await self.get(await self._db.write(work))

    async def get(self, tournament_id: int) -> Tournament:
        """A stored tournament with its standings."""
        row = await repo.get_tournament(self._db, tournament_id)
        if row is None:
            raise TournamentRefused("That tournament no longer exists.")
        return _tournament(row, await repo.standings(self._db, tournament_id))

    async def latest(self, guild_id: int, rules: str | None = None) -> Tournament | None:
        """The server's most recent tournament (under one rule set, if given)."""
        row = await repo.latest_tournament(self._db, guild_id, None if rules is None else get_rules(rules).id)
        return None if row is None else _tournament(row, await repo.standings(self._db, row["id"]))
