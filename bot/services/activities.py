"""The tables of Discord Activity instances: which game each shows, who waits at one for a friend, and the
games started there (on the game service, so each is a match its channel's board shows like any other).

One table per instance: before a game, one person may wait at it for a friend, who takes the other seat (the
game starts at once), or play the house; everyone else in the instance watches. A table shows its latest
game until another starts there (a rematch, wherever voted for, follows on). Every change of a table is
conditional on the version read (TableChanged), so bot processes sharing the database agree."""

from dataclasses import replace

from bot.domain.activities import Instance, Table
from bot.domain.errors import (
    GameOnAtTable,
    NobodyWaiting,
    NotAServerChannel,
    OwnTable,
    TableChanged,
)
from bot.domain.matches import Match, Player
from bot.services.clock import Clock
from bot.services.games.service import GameService
from bot.services.keyed_locks import KeyedLocks
from bot.storage import Connection, Database
from bot.storage import activities as table_store
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage.activities import Stamp, TableRow
from hogengine.game import new_game


class ActivityService:
    """Every change of an Activity's table; each call re-reads the table from the database."""

    def __init__(self, db: Database, games: GameService, clock: Clock) -> None:
        self._db = db
        self._games = games
        self._clock = clock
        self._lock = KeyedLocks()  # by instance id: one change of a table at a time in this process

    async def join(self, instance: Instance, person: Player) -> Table:
        """`person`, listed by Discord in this running instance, opens it: the instance is recorded the first
        time, and a table showing no open game shows the game `person` has open in its channel, if any (one
        launched from its board). Raises NotAServerChannel in a direct message."""
        if instance.guild_id is None:
            raise NotAServerChannel
        async with self._lock(instance.id):
            await self._record(instance.id, instance.guild_id, instance.channel_id)
            table = await self._current(instance.id)
            if table.playing:
                return table
            mine = await self._games.open_match_in_channel(table.channel_id, person.id)
            return table if mine is None else await self._show(table, mine)

    async def launched(self, instance_id: str, guild_id: int, channel_id: int, match_id: int | None) -> None:
        """An instance launched from a command or a board (the board of `match_id`) in this channel: it is
        recorded, and shows that board's game unless it shows an open game already."""
        async with self._lock(instance_id):
            await self._record(instance_id, guild_id, channel_id)
            table = await self._current(instance_id)
            if match_id is None or table.playing:
                return
            match = await self._games.get(match_id)
            if match.channel_id == channel_id and match.status.is_open:
                await self._show(table, match)

    async def table(self, instance_id: str) -> Table:
        """The table as it is now (a closed game followed by its rematch, once one started)."""
        async with self._lock(instance_id):
            return await self._current(instance_id)

    async def host(self, instance_id: str, person: Player, rules: str, goal: int) -> Table:
        """`person` waits at the table for a friend to take the other seat, for a game of these rules and
        goal (checked now: UnknownRules, BadState). Raises GameOnAtTable while a game is on."""
        start = new_game(rules, goal)
        async with self._lock(instance_id):
            table = await self._current(instance_id)
            if table.playing:
                raise GameOnAtTable
            row, now = await self._row(instance_id), self._clock()

            async def wait(conn: Connection) -> bool:
                await player_table.upsert_players(conn, [person], now)
                return await table_store.change(
                    conn, row, now, host_id=person.id, rules=start.rules, goal=start.goal
                )

            return await self._changed(instance_id, await self._db.write(wait))

    async def stand_up(self, instance_id: str, person: Player) -> Table:
        """The person waiting at the table stops waiting (nothing, for anyone else)."""
        async with self._lock(instance_id):
            row = await self._row(instance_id)
            if row.host is None or row.host.id != person.id:
                return await self._current(instance_id)
            now = self._clock()
            done = await self._db.write(lambda conn: table_store.change(conn, row, now, host_id=None))
            return await self._changed(instance_id, done)

    async def sit(self, instance_id: str, person: Player) -> Table:
        """`person` takes the seat across from the one waiting at the table: the game starts at once (the
        one waiting moves first). Raises NobodyWaiting, OwnTable, GameOnAtTable, or the game service's
        refusals (AlreadyPlaying: either already plays in this channel)."""
        async with self._lock(instance_id):
            table = await self._current(instance_id)
            if table.playing:
                raise GameOnAtTable
            if table.host is None or table.rules is None or table.goal is None:
                raise NobodyWaiting
            if table.host.id == person.id:
                raise OwnTable
            games = self._games
            challenge = await games.challenge(
                table.channel_id, table.host, person, False, table.rules, table.goal, guild_id=table.guild_id
            )
            return await self._started(table, await games.accept(challenge.id, person.id))

    async def versus_house(
        self, instance_id: str, person: Player, rules: str, goal: int, level: str
    ) -> Table:
        """`person` plays the house at this level, at once (they take seat 0 and move first; anyone waiting
        at the table for a friend stops waiting)."""
        async with self._lock(instance_id):
            table = await self._current(instance_id)
            if table.playing:
                raise GameOnAtTable
            match = await self._games.vs_bot(
                table.channel_id, person, rules, goal, level, guild_id=table.guild_id
            )
            return await self._started(table, match)

    async def rematch(self, instance_id: str, person: Player) -> Table:
        """`person` votes for a rematch of the table's game; once both sides did, the table shows it."""
        async with self._lock(instance_id):
            table = await self._current(instance_id)
            if table.match is None:
                raise NobodyWaiting
            rematch = await self._games.rematch(table.match.id, person.id)
            return table if rematch is None else await self._show(table, rematch)

    async def stamps(self, instance_ids: list[str]) -> dict[str, Stamp]:
        """How up to date each of these instances is (see Stamp), to find those changed elsewhere."""
        return await table_store.stamps(self._db, instance_ids)

    async def _record(self, instance_id: str, guild_id: int, channel_id: int) -> None:
        now = self._clock()
        await self._db.write(lambda conn: table_store.add(conn, instance_id, guild_id, channel_id, now))

    async def _row(self, instance_id: str) -> TableRow:
        row = await table_store.get(self._db, instance_id)
        if row is None:
            raise TableChanged  # an instance is recorded before anything else is asked of it
        return row

    async def _current(self, instance_id: str) -> Table:
        """The table with its match as stored; a closed match whose rematch started is left for that one."""
        row = await self._row(instance_id)
        match = None if row.match_id is None else await self._games.get(row.match_id)
        table = Table(
            row.instance_id,
            row.guild_id,
            row.channel_id,
            match,
            row.host,
            row.rules,
            row.goal,
            row.version,
        )
        if match is None or match.status.is_open:
            return table
        rematch = await match_table.rematch_of(self._db, match.id)
        if rematch is None:
            return table
        try:
            return await self._show(table, rematch)
        except TableChanged:  # shown by someone else at the same moment: as they left it
            return await self._current(instance_id)

    async def _show(self, table: Table, match: Match) -> Table:
        """The table showing `match` now (nobody waits at it any more)."""
        now = self._clock()
        read = await self._row(table.instance_id)
        if read.version != table.version:
            raise TableChanged
        done = await self._db.write(
            lambda conn: table_store.change(conn, read, now, match_id=match.id, host_id=None)
        )
        if not done:
            raise TableChanged
        return replace(table, match=match, host=None, version=table.version + 1)

    async def _started(self, table: Table, match: Match) -> Table:
        """The table showing the game just started at it; if the table changed meanwhile (another bot
        process started a game there first), the new game is called off and TableChanged raised."""
        try:
            return await self._show(table, match)
        except TableChanged:
            await self._games.call_off(match.id)
            raise

    async def _changed(self, instance_id: str, done: bool) -> Table:
        if not done:
            raise TableChanged
        return await self._current(instance_id)
