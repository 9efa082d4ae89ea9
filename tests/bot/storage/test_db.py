"""The database: WAL, foreign keys, busy timeout; batched write transactions; conditional updates."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Database, migrate
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage import turns as turn_table

NOW = 1_700_000_000.0


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "hog.sqlite3")
    await migrate(database)
    yield database
    await database.close()


def match_values(**extra: object) -> dict[str, object]:
    return {
        "rules": "swine-align",
        "goal": 100,
        "status": "active",
        "channel_id": 1,
        "player0_id": 7,
        "created_at": NOW,
        "updated_at": NOW,
        **extra,
    }


def turn_values(match_id: int, turn: int) -> dict[str, object]:
    return {
        "match_id": match_id,
        "turn": turn,
        "player": 0,
        "user_id": 7,
        "choice": 2,
        "dice": 2,
        "sides": 6,
        "outcomes": "[3, 4]",
        "points": 7,
        "events": "[]",
        "score0": 7,
        "score1": 0,
        "played_at": NOW,
    }


async def new_match(db: Database) -> int:
    async def work(conn: aiosqlite.Connection) -> int:
        await player_table.upsert_players(conn, [(7, "seven")], NOW)
        return await match_table.insert_match(conn, match_values())

    return await db.write(work)


async def player_names(db: Database) -> list[str]:
    return [row["name"] for row in await db.fetch_all("SELECT name FROM players ORDER BY id")]


async def test_pragmas(db: Database) -> None:
    assert await db.pragma("journal_mode") == "wal"
    assert await db.pragma("foreign_keys") == 1
    assert await db.pragma("busy_timeout") == 5000


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await db.write(lambda conn: match_table.insert_match(conn, match_values(player0_id=404)))


async def test_a_failed_write_leaves_nothing(db: Database) -> None:
    async def work(conn: aiosqlite.Connection) -> None:
        await player_table.upsert_players(conn, [(8, "eight")], NOW)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await db.write(work)
    assert await player_names(db) == []


async def test_concurrent_writes_share_a_transaction_but_not_a_failure(db: Database) -> None:
    """A batch with one failing write commits every other write of the batch."""

    async def failing(conn: aiosqlite.Connection) -> None:
        await player_table.upsert_players(conn, [(99, "ghost")], NOW)
        raise RuntimeError("boom")

    writes = [
        db.write(lambda conn, n=n: player_table.upsert_players(conn, [(n, f"p{n}")], NOW)) for n in range(5)
    ]
    outcomes = await asyncio.gather(*writes[:2], db.write(failing), *writes[2:], return_exceptions=True)
    assert [type(outcome) for outcome in outcomes] == [type(None)] * 2 + [RuntimeError] + [type(None)] * 3
    assert await player_names(db) == [f"p{n}" for n in range(5)]


async def test_updates_are_conditional_on_the_version(db: Database) -> None:
    match_id = await new_match(db)
    row = await db.write(lambda conn: match_table.update_match(conn, match_id, 0, {"score0": 5}))
    assert row is not None and (row["score0"], row["version"]) == (5, 1)
    assert await db.write(lambda conn: match_table.update_match(conn, match_id, 0, {"score0": 9})) is None
    stored = await match_table.get_match(db, match_id)
    assert stored is not None and (stored["score0"], stored["version"], stored["player0_name"]) == (
        5,
        1,
        "seven",
    )


async def test_turns_are_unique_per_match_and_number(db: Database) -> None:
    match_id = await new_match(db)
    await db.write(lambda conn: turn_table.insert_turn(conn, turn_values(match_id, 0)))
    with pytest.raises(sqlite3.IntegrityError):
        await db.write(lambda conn: turn_table.insert_turn(conn, turn_values(match_id, 0)))
    assert len(await turn_table.get_turns(db, match_id)) == 1


async def test_reader_sees_only_committed_data(db: Database) -> None:
    seen: list[list[str]] = []

    async def work(conn: aiosqlite.Connection) -> None:
        await player_table.upsert_players(conn, [(9, "nine")], NOW)
        seen.append(await player_names(db))

    await db.write(work)
    assert seen == [[]]
    assert await player_names(db) == ["nine"]


async def test_close_finishes_queued_writes(tmp_path: Path) -> None:
    database = await Database.open(tmp_path / "hog.sqlite3")
    await migrate(database)
    pending = asyncio.ensure_future(
        database.write(lambda conn: player_table.upsert_players(conn, [(1, "a")], NOW))
    )
    await asyncio.sleep(0)
    await database.close()
    await pending
    with pytest.raises(RuntimeError, match="closed"):
        await database.write(lambda conn: player_table.upsert_players(conn, [(2, "b")], NOW))
