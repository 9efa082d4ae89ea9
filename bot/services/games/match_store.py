"""The game service's access to matches: per-match locks, fresh reads, and conditional saves."""

from collections.abc import Callable, Iterable
from dataclasses import replace

from bot.domain.errors import AlreadyPlaying, MatchNotFound, NotThisServersGame, StaleAction
from bot.domain.matches import Match, Player, TurnRecord
from bot.domain.strategies import BotStrategy
from bot.services.clock import Clock
from bot.services.keyed_locks import KeyedLocks
from bot.storage import Connection, Database
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage import turns as turn_table

Change = tuple[Match, Match]  # a match as read, and as it is to be stored
Watcher = Callable[[Match], None]  # told of each match as stored, once its change is committed


async def _update(conn: Connection, change: Change, now: float) -> Match:
    """Store the change if the match is still at the version read (the match as stored); else StaleAction."""
    read, changed = change
    saved = await match_table.update_match(conn, read, changed, now)
    if saved is None:
        raise StaleAction
    return saved


class MatchStore:
    """Reads a match from the database on every call; writes only if nobody changed it in between."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.lock = KeyedLocks()  # by match id, or ("channel", id) while a match is created there
        self.watchers: list[Watcher] = []

    async def load(self, match_id: int) -> Match:
        match = await match_table.get_match(self.db, match_id)
        if match is None:
            raise MatchNotFound
        return match

    async def load_visible(self, match_id: int, guild_id: int, user_id: int, verb: str) -> Match:
        """The match if this user may look into it from this server: a match of the server, or one they
        played in; else NotThisServersGame, saying who may `verb` it."""
        match = await self.load(match_id)
        if match.guild_id != guild_id and match.seat_of(user_id) is None:
            raise NotThisServersGame(verb)
        return match

    async def save(
        self, read: Match, changed: Match, turn: TurnRecord | None = None, vote: Change | None = None
    ) -> Match:
        """Store `changed` (and append `turn`) in one transaction, with `vote`'s change to another match if
        given, each only if its match is still as read; the match as stored afterwards."""
        now = self.clock()

        async def work(conn: Connection) -> Match:
            saved = await _update(conn, (read, changed), now)
            if vote is not None:
                await _update(conn, vote, now)
            if turn is not None:
                await turn_table.insert_turn(conn, turn)
            return saved

        return self._told(await self.db.write(work))

    async def create(
        self, match: Match, vote: Change | None = None, strategy: BotStrategy | None = None
    ) -> Match:
        """Record the players and insert a new match in one transaction, with `vote`'s change to the match
        it follows on from, if given (conditional, as in `save`), and the strategy the bot plays."""
        now = self.clock()
        people = [player for player in match.players if player is not None]

        async def work(conn: Connection) -> int:
            if vote is not None:
                await _update(conn, vote, now)
            await player_table.upsert_players(conn, people, now)
            match_id = await match_table.insert_match(conn, replace(match, created_at=now, updated_at=now))
            if strategy is not None:
                await strategy_table.insert_bot_strategy(conn, match_id, strategy)
            return match_id

        return self._told(await self.load(await self.db.write(work)))

    def _told(self, match: Match) -> Match:
        """`match`, once every watcher was told of it."""
        for watcher in self.watchers:
            watcher(match)
        return match

    async def ensure_free(self, channel_id: int, players: Iterable[Player], asker_id: int) -> None:
        """Raise AlreadyPlaying if any of these people has an open challenge or game in the channel (told
        as "you" to the one who asked)."""
        people = {player.id: player for player in players}
        match = await match_table.open_match_for(self.db, channel_id, people)
        if match is None:
            return
        busy = next(people[p.id] for p in match.players if p is not None and p.id in people)
        raise AlreadyPlaying(None if busy.id == asker_id else busy.name)
