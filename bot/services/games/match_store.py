"""The service's access to matches: per-match locks, fresh reads, and conditional saves."""

from collections.abc import Iterable
from typing import Any, NamedTuple

import aiosqlite

from bot.domain.errors import AlreadyPlaying, MatchNotFound, NotThisServersGame, StaleAction
from bot.domain.matches import Match, Player
from bot.services.clock import Clock
from bot.services.keyed_locks import KeyedLocks
from bot.storage import Database, Row
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage import turns as turn_table
from bot.storage.matches import match_from
from bot.storage.turns import turn_from


class Bound(NamedTuple):
    """The stored strategy a house-bot game plays: its id (None once deleted), name and table's bytes."""

    strategy_id: int | None
    name: str
    table_data: bytes


async def _update(conn: aiosqlite.Connection, match: Match, changes: dict[str, Any], now: float) -> Row:
    """Apply `changes` to the match if it is still at the version read (its new row); else StaleAction."""
    row = await match_table.update_match(conn, match.id, match.version, {**changes, "updated_at": now})
    if row is None:
        raise StaleAction
    return row


class MatchStore:
    """Reads a match from the database on every call; writes only if nobody changed it in between."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.lock = KeyedLocks()  # by match id, or ("channel", id) while a match is created there

    async def _row(self, match_id: int) -> Row:
        row = await match_table.get_match(self.db, match_id)
        if row is None:
            raise MatchNotFound
        return row

    async def load(self, match_id: int, *, with_last_turn: bool = True) -> Match:
        return await self.hydrate(await self._row(match_id), with_last_turn=with_last_turn)

    async def load_visible(self, match_id: int, guild_id: int, user_id: int, verb: str) -> Match:
        """The match (without its last turn) if this user may look into it from this server: a match of the
        server, or one they played in; else NotYourGame, saying who may `verb` it."""
        match = await self.load(match_id, with_last_turn=False)
        if match.guild_id != guild_id and match.seat_of(user_id) is None:
            raise NotThisServersGame(verb)
        return match

    async def load_secret(self, match_id: int) -> tuple[Match, bytes | None]:
        """The match (without its last turn) and its secret dice seed, for playing a turn."""
        row = await self._row(match_id)
        seed = row["seed"]
        return await self.hydrate(row, with_last_turn=False), None if seed is None else bytes.fromhex(seed)

    async def hydrate(self, row: Row, *, with_last_turn: bool = True) -> Match:
        """A Match from its row, with its last turn read too when asked and there is one."""
        last = None
        if with_last_turn and row["turn"] > 0:
            last = await turn_table.get_turn(self.db, row["id"], row["turn"] - 1)
        return match_from(row, last)

    async def save(
        self,
        match: Match,
        changes: dict[str, Any],
        turn: dict[str, Any] | None = None,
        vote: tuple[Match, dict[str, Any]] | None = None,
    ) -> Match:
        """Write `changes` (and append `turn`) in one transaction, with `vote`'s changes to another match
        if given, each only if its match is still as read; the match as stored afterwards."""
        now = self.clock()

        async def work(conn: aiosqlite.Connection) -> Row:
            row = await _update(conn, match, changes, now)
            if vote is not None:
                await _update(conn, *vote, now)
            if turn is not None:
                await turn_table.insert_turn(conn, turn)
            return row

        row = await self.db.write(work)
        names = {f"player{seat}_name": None if p is None else p.name for seat, p in enumerate(match.players)}
        names["strategy_name"] = match.strategy_name
        return match_from({**row, **names}, match.last_turn if turn is None else turn_from(turn))

    async def create(
        self,
        players: Iterable[Player],
        values: dict[str, Any],
        vote: tuple[Match, dict[str, Any]] | None = None,
        strategy: Bound | None = None,
    ) -> Match:
        """Record the players and insert a new match in one transaction, with `vote`'s changes to the
        match it follows on from, if given (conditional, as in `save`), and the strategy the bot plays."""
        now = self.clock()
        people = [(player.id, player.name) for player in players]

        async def work(conn: aiosqlite.Connection) -> int:
            if vote is not None:
                await _update(conn, *vote, now)
            await player_table.upsert_players(conn, people, now)
            match_id = await match_table.insert_match(conn, {**values, "created_at": now, "updated_at": now})
            if strategy is not None:
                await strategy_table.insert_match_strategy(conn, match_id, *strategy)
            return match_id

        return await self.load(await self.db.write(work))

    async def ensure_free(self, channel_id: int, players: Iterable[Player]) -> None:
        """Raise AlreadyPlaying if any of these people has an open challenge or game in the channel."""
        people = {player.id: player for player in players}
        row = await match_table.open_match_for(self.db, channel_id, people)
        if row is None:
            return
        busy = next(people[row[f"player{seat}_id"]] for seat in (0, 1) if row[f"player{seat}_id"] in people)
        raise AlreadyPlaying(busy.name)
