"""Tournaments of a server's stored strategies under one rule set: exact or sampled, run in a worker
thread with progress reported on the event loop, one at a time per server, standings stored."""

import random
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

from bot.domain.errors import (
    TooFewStrategies,
    TournamentNotFound,
    TournamentOvertaken,
    TournamentRunning,
    UnknownFormat,
)
from bot.domain.matches import Player
from bot.domain.shards import Shards
from bot.domain.strategies import StoredStrategy
from bot.domain.tournaments import Pairing, Standing, Tournament
from bot.services.clock import Clock
from bot.services.leases import Lease, Leases, Taking
from bot.services.privacy import DELETED_STRATEGY
from bot.services.tournaments.playing import play
from bot.services.tournaments.progress import Progress, Relay
from bot.services.tournaments.stopping import Stop
from bot.storage import Connection, Database
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage import tournaments as tournament_table
from bot.storage.database import NEW
from bot.storage.leases import LeaseKind
from hogengine.game import MAX_GOAL
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.solver import Row as Result
from hogengine.solver import Standings
from hogengine.solver.model import Progress as Step  # the solver's progress: called in its own thread

FORMATS = ("exact", "sampled")
# One at a time per server, across processes.
TOURNAMENT = Lease(LeaseKind.TOURNAMENT, TournamentRunning, TournamentOvertaken)


@dataclass(frozen=True, slots=True)
class Draw:
    """A tournament about to be played: the server, rule set, format and goal, the seed of a sampled one's
    dice (hex, as `hog tournament --seed` takes it), the entrants by name, in name order, the channel
    to show the standings in, and the taking of the server's lease it is played under."""

    guild_id: int
    rules: str
    fmt: str
    goal: int
    seed: str | None
    entrants: dict[str, StoredStrategy]
    channel_id: int | None
    taking: Taking


def run_draw(draw: Draw, progress: Step) -> Standings:
    """The solver's tournament (blocking), in the worker thread."""
    entries = [(name, entrant.table) for name, entrant in draw.entrants.items() if entrant.table is not None]
    recorded = {name: entrant.tables for name, entrant in draw.entrants.items() if entrant.tables}
    return play(draw.rules, draw.seed, entries, recorded, goal=draw.goal, progress=progress)


def _standing(place: int, row: Result, entrant: StoredStrategy, kept: set[int], known: set[int]) -> Standing:
    """A place; a strategy deleted since keeps its name, one whose owner was forgotten is renamed."""
    forgotten = entrant.owner.id not in known
    return Standing(
        place=place,
        name=DELETED_STRATEGY if forgotten else row.name,
        owner_id=None if forgotten else entrant.owner.id,
        owner_name=None,
        strategy_id=entrant.id if entrant.id in kept else None,
        points=row.wins,
        tiebreak=row.tie_break,
    )


class TournamentService:
    """Runs and remembers tournaments; one worker thread, so one tournament computes at a time."""

    def __init__(
        self,
        db: Database,
        clock: Clock = time.time,
        seeds: random.Random | None = None,
        *,
        shards: Shards | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._shards = shards  # only these shards' standings are shown at start (None: all)
        self._seeds = seeds or random.Random()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="hog-tournament")
        self._leases = Leases(db, clock)
        self._stop = Stop()

    def stop(self) -> None:
        """Stop the tournament computing and any started later: each raises TournamentStopped (the bot is
        stopping; nothing of it is stored)."""
        self._stop.set()

    def close(self) -> None:
        """Stop the tournament computing, then the pool."""
        self.stop()
        self._pool.shutdown(wait=True, cancel_futures=True)

    @asynccontextmanager
    async def reserve(
        self,
        guild_id: int,
        rules: str = DEFAULT_RULES,
        fmt: str = "exact",
        *,
        goal: int = MAX_GOAL,
        channel_id: int | None = None,
    ) -> AsyncIterator[Draw]:
        """Hold the server's one tournament while the block runs, its entrants drawn: so every refusal
        comes before anything is shown or computed. Its standings are to be shown in `channel_id` (see
        `unshown`).

        Raises TournamentRefused (unknown format, one already running here, fewer than two strategies).
        """
        if fmt not in FORMATS:
            raise UnknownFormat(fmt, FORMATS)
        ruleset = get_rules(rules)
        async with self._leases.held(TOURNAMENT, guild_id) as taking:
            found = await strategy_table.active_strategies(self._db, guild_id, ruleset.id, with_table=True)
            strategies = sorted(found, key=lambda strategy: strategy.name)
            if len(strategies) < 2:
                raise TooFewStrategies(ruleset.id)
            seed = None if fmt == "exact" else f"{self._seeds.getrandbits(64):016x}"
            entrants = {strategy.name: strategy for strategy in strategies}
            yield Draw(guild_id, ruleset.id, fmt, goal, seed, entrants, channel_id, taking)

    async def play(self, draw: Draw, started_by: Player, progress: Progress | None = None) -> Tournament:
        """Every drawn strategy plays every other; the stored result (also when an entrant was deleted or
        its owner forgotten meanwhile), not shown yet. Raises TournamentStopped if `stop` came first, or
        TournamentOvertaken if the server's lease went to another tournament meanwhile (nothing stored)."""
        started = self._clock()
        await self._db.write(lambda conn: player_table.upsert_players(conn, [started_by], started))
        relay = None if progress is None else Relay(progress)

        def step(done: int, total: int) -> None:  # in the worker thread, after every step of the solver
            self._stop.check()
            if relay is not None:
                relay(done, total)

        try:
            result = await self._stop.run(self._pool, partial(run_draw, draw, step))
        finally:
            if relay is not None:
                await relay.close()
        entrants, finished = draw.entrants, self._clock()

        async def work(conn: Connection) -> int:
            await draw.taking.confirm(conn)
            # Strategies deleted and owners forgotten while it ran keep their place, without the link.
            kept = await strategy_table.stored_ids(conn, [entrant.id for entrant in entrants.values()])
            people = {started_by.id, *(entrant.owner.id for entrant in entrants.values())}
            known = await player_table.known_players(conn, people)
            standings = tuple(
                _standing(place, row, entrants[row.name], kept, known)
                for place, row in enumerate(result.rows, start=1)
            )
            places = {row.name: place for place, row in enumerate(result.rows, start=1)}
            pairings = tuple(
                Pairing(places[match.a], places[match.b], match.a_result, match.b_result)
                for match in result.matches
            )
            starter = started_by.id if started_by.id in known else None
            tournament = Tournament(
                NEW,
                draw.guild_id,
                draw.rules,
                draw.goal,
                draw.fmt,
                draw.seed,
                starter,
                started,
                finished,
                standings,
                channel_id=draw.channel_id,
                pairings=pairings,
            )
            return await tournament_table.insert_tournament(conn, tournament)

        return await self.get(await self._db.write(work))

    async def get(self, tournament_id: int) -> Tournament:
        """A stored tournament with its standings."""
        tournament = await tournament_table.get_tournament(self._db, tournament_id)
        if tournament is None:
            raise TournamentNotFound
        return tournament

    async def shown(self, tournament_id: int) -> None:
        """Remember that the tournament's standings were shown (see `unshown`)."""
        await self._db.write(lambda conn: tournament_table.set_shown(conn, tournament_id))

    async def unshown(self) -> list[Tournament]:
        """The tournaments of this process's shards stored but never shown, to show at start (a crash
        between storing and showing)."""
        return await tournament_table.unshown(self._db, self._shards)

    async def latest(self, guild_id: int, rules: str | None = None) -> Tournament | None:
        """The server's most recent tournament (under one rule set, if given)."""
        return await tournament_table.latest_tournament(
            self._db, guild_id, None if rules is None else get_rules(rules).id
        )
