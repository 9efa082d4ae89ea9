"""The database on each backend: foreign keys, atomic writes, conditional updates, committed reads; and
SQLite's own set-up (WAL, busy timeout) and batched write transactions."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest

from bot.domain.matches import Match, MatchStatus, Player, TurnRecord
from bot.storage import Connection, Database, SqliteDatabase, migrate, open_migrated
from bot.storage import leases as lease_table
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage import turns as turn_table
from bot.storage.database import NEW
from bot.storage.leases import LeaseKind
from bot.storage.turns import TurnReplayError
from hogengine.game import State, resolve
from tests.catalog import BROKEN_CONSTRAINT
from tests.hang import HANG

NOW = 1_700_000_000.0


@pytest.fixture
async def db(tmp_path: Path, database_url: str | None) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "hog.sqlite3", database_url)
    yield database
    await database.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await SqliteDatabase.open(tmp_path / "hog.sqlite3")
    await migrate(database)
    yield database
    await database.close()


SEVEN = Player(7, "seven")


def a_match(*players: Player) -> Match:
    """A live game of these people (seats in order, the rest empty), not stored yet."""
    seats = (*players, None, None)[:2]
    return Match(
        id=NEW,
        rules="swine-align",
        goal=100,
        status=MatchStatus.ACTIVE,
        guild_id=None,
        channel_id=1,
        players=(seats[0], seats[1]),
        bot_level=None,
        strategy_name=None,
        state=State(),
        seed_hash=None,
        secret_seed=None,
        winner=None,
        challenge_expires_at=None,
        turn_deadline=None,
        message_id=None,
        rematch_votes=(False, False),
        rematch_of=None,
        created_at=NOW,
        updated_at=NOW,
        finished_at=None,
        version=0,
    )


async def new_match(db: Database) -> Match:
    async def work(conn: Connection) -> int:
        await player_table.upsert_players(conn, [SEVEN], NOW)
        return await match_table.insert_match(conn, a_match(SEVEN))

    match = await match_table.get_match(db, await db.write(work))
    assert match is not None
    return match


async def player_names(db: Database) -> list[str]:
    return [row["name"] for row in await db.fetch_all("SELECT name FROM players ORDER BY id")]


async def test_pragmas(sqlite_db: SqliteDatabase) -> None:
    assert await sqlite_db.pragma("journal_mode") == "wal"
    assert await sqlite_db.pragma("foreign_keys") == 1
    assert await sqlite_db.pragma("busy_timeout") == 2000


async def test_a_lookup_the_file_keeps_busy_is_made_on_the_reader(
    sqlite_db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lookup of one row runs on the loop's thread through a connection that never waits: if another
    program keeps the file busy, it is made on the reader's thread, which waits as every list read does."""
    match = await new_match(sqlite_db)
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY

    class BusyFile:
        def execute(self, *_: object) -> NoReturn:
            raise busy

    with monkeypatch.context() as held:
        held.setattr(sqlite_db, "_lookups", BusyFile())
        assert await match_table.get_match(sqlite_db, match.id) == match
    assert sqlite_db.outage.trouble is None


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(BROKEN_CONSTRAINT):
        await db.write(lambda conn: match_table.insert_match(conn, a_match(Player(404, "nobody"))))


async def test_a_failed_write_leaves_nothing(db: Database) -> None:
    async def work(conn: Connection) -> None:
        await player_table.upsert_players(conn, [Player(8, "eight")], NOW)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await db.write(work)
    assert await player_names(db) == []


async def test_concurrent_writes_share_a_transaction_but_not_a_failure(db: Database) -> None:
    """A batch with one failing write commits every other write of the batch."""

    async def failing(conn: Connection) -> None:
        await player_table.upsert_players(conn, [Player(99, "ghost")], NOW)
        raise RuntimeError("boom")

    writes = [
        db.write(lambda conn, n=n: player_table.upsert_players(conn, [Player(n, f"p{n}")], NOW))
        for n in range(5)
    ]
    outcomes = await asyncio.gather(*writes[:2], db.write(failing), *writes[2:], return_exceptions=True)
    assert [type(outcome) for outcome in outcomes] == [type(None)] * 2 + [RuntimeError] + [type(None)] * 3
    assert await player_names(db) == [f"p{n}" for n in range(5)]


async def test_updates_are_conditional_on_the_version(db: Database) -> None:
    read = await new_match(db)
    scored = replace(read, state=replace(read.state, scores=(5, 0)))
    saved = await db.write(lambda conn: match_table.update_match(conn, read, scored, NOW))
    assert saved is not None and (saved.state.scores, saved.version) == ((5, 0), 1)
    stale = replace(read, state=replace(read.state, scores=(9, 0)))
    assert await db.write(lambda conn: match_table.update_match(conn, read, stale, NOW)) is None
    stored = await match_table.get_match(db, read.id)
    assert stored is not None and (stored.state.scores, stored.version, stored.players[0]) == (
        (5, 0),
        1,
        SEVEN,
    )


async def test_an_update_writes_what_changed_and_always_the_turn_clock(db: Database) -> None:
    """An update writes only the columns that changed since the read, but the turn clock always: a board
    shown meanwhile starts it without a new version, and the turn played from the read must stop it."""
    read = await new_match(db)
    await db.write(lambda conn: match_table.set_shown(conn, replace(read, turn_deadline=NOW + 60)))
    played = replace(read, state=replace(read.state, scores=(5, 0), turn=1))
    saved = await db.write(lambda conn: match_table.update_match(conn, read, played, NOW + 1))
    assert saved is not None and saved.turn_deadline is None
    assert await match_table.get_match(db, read.id) == replace(played, updated_at=NOW + 1, version=1)


async def test_turns_are_unique_per_match_and_number(db: Database) -> None:
    match = await new_match(db)
    turn = TurnRecord(match.id, SEVEN.id, NOW, resolve(match.state, 2, (3, 4)))
    await db.write(lambda conn: turn_table.insert_turn(conn, turn))
    with pytest.raises(BROKEN_CONSTRAINT):
        await db.write(lambda conn: turn_table.insert_turn(conn, turn))
    assert await turn_table.get_turns(db, match.id) == [turn]


async def test_turns_that_do_not_replay_as_stored_are_refused(db: Database) -> None:
    """A turn row edited behind the bot's back (7 points where the dice make 5) is caught when read."""
    match = await new_match(db)
    turn = TurnRecord(match.id, SEVEN.id, NOW, resolve(match.state, 2, (2, 3)))
    await db.write(lambda conn: turn_table.insert_turn(conn, turn))
    await db.write(lambda conn: conn.execute("UPDATE turns SET points = 7, score0 = 7"))
    with pytest.raises(TurnReplayError, match=f"Turn 0 of match {match.id}"):
        await turn_table.get_turns(db, match.id)


async def test_reader_sees_only_committed_data(db: Database) -> None:
    seen: list[list[str]] = []

    async def work(conn: Connection) -> None:
        await player_table.upsert_players(conn, [Player(9, "nine")], NOW)
        seen.append(await player_names(db))

    await db.write(work)
    assert seen == [[]]
    assert await player_names(db) == ["nine"]


async def test_close_finishes_queued_writes(tmp_path: Path, database_url: str | None) -> None:
    database = await open_migrated(tmp_path / "hog.sqlite3", database_url)
    pending = asyncio.ensure_future(
        database.write(lambda conn: player_table.upsert_players(conn, [Player(1, "a")], NOW))
    )
    await asyncio.sleep(0)
    await database.close()
    await pending
    with pytest.raises(RuntimeError, match="closed"):
        await database.write(lambda conn: player_table.upsert_players(conn, [Player(2, "b")], NOW))


async def test_a_write_asked_for_while_the_database_closes_is_refused(
    tmp_path: Path, database_url: str | None
) -> None:
    """Whatever is in flight when close() starts is finished; a write asked for after it is refused at once
    (on SQLite it once waited for ever, queued behind the writer's stop)."""
    database = await open_migrated(tmp_path / "hog.sqlite3", database_url)
    started = asyncio.Event()

    async def slow(conn: Connection) -> None:
        started.set()
        await asyncio.sleep(0.2)
        await player_table.upsert_players(conn, [Player(1, "a")], NOW)

    in_flight = asyncio.ensure_future(database.write(slow))
    await started.wait()
    closing = asyncio.ensure_future(database.close())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="closed"):
        await asyncio.wait_for(
            database.write(lambda conn: player_table.upsert_players(conn, [Player(2, "b")], NOW)), HANG
        )
    await in_flight
    await closing


async def test_works_that_race_for_one_lease_take_it_once(db: Database) -> None:
    """Three uploads take the one place the upload queue has left, at once (on SQLite, in one batch): one is
    taken and two are refused as full, since each taking's count and insert hold the lease lock (they once
    interleaved on SQLite, and all three were taken)."""

    def taking(holder_id: int) -> Callable[[Connection], Awaitable[bool | None]]:
        return lambda conn: lease_table.take(
            conn, LeaseKind.UPLOAD, holder_id, f"token-{holder_id}", NOW + 60, now=NOW, limit=1
        )

    outcomes = await asyncio.gather(*(db.write(taking(holder_id)) for holder_id in (41, 42, 43)))
    assert sorted(outcomes, key=str) == [None, None, True]
    assert (await lease_table.held(db, LeaseKind.UPLOAD, 41, NOW))[1] == 1  # one lease is held
