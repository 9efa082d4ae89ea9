"""The database: WAL, foreign keys, busy timeout; transactions; conditional match updates."""

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, migrate
from bot.storage import repositories as repo

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


async def new_match(db: Database) -> int:
    async with db.transaction() as conn:
        await repo.upsert_players(conn, [(7, "seven")], NOW)
        return await repo.insert_match(conn, match_values())


async def test_pragmas(db: Database) -> None:
    assert await db.pragma("journal_mode") == "wal"
    assert await db.pragma("foreign_keys") == 1
    assert await db.pragma("busy_timeout") == 5000


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await repo.insert_match(conn, match_values(player0_id=404))


async def test_a_failed_transaction_leaves_nothing(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await repo.upsert_players(conn, [(8, "eight")], NOW)
            raise RuntimeError("boom")
    assert await db.fetch_all("SELECT * FROM players") == []


async def test_updates_are_conditional_on_the_version(db: Database) -> None:
    match_id = await new_match(db)
    async with db.transaction() as conn:
        assert await repo.update_match(conn, match_id, 0, {"score0": 5})
        assert not await repo.update_match(conn, match_id, 0, {"score0": 9})
    row = await repo.get_match(db, match_id)
    assert row is not None and (row["score0"], row["version"], row["player0_name"]) == (5, 1, "seven")


async def test_turns_are_unique_per_match_and_number(db: Database) -> None:
    match_id = await new_match(db)
    turn = {
        "match_id": match_id,
        "turn": 0,
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
    async with db.transaction() as conn:
        await repo.insert_turn(conn, turn)
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await repo.insert_turn(conn, turn)
    assert len(await repo.get_turns(db, match_id)) == 1


async def test_reader_sees_only_committed_data(db: Database) -> None:
    async with db.transaction() as conn:
        await repo.upsert_players(conn, [(9, "nine")], NOW)
        assert await db.fetch_all("SELECT * FROM players") == []
    assert [row["name"] for row in await db.fetch_all("SELECT * FROM players")] == ["nine"]
