"""The migration runner on each backend: from empty, idempotent, one transaction per file, every upgrade
keeping its rows; strict file names, dialect files in pairs."""

import asyncio
import json
import sqlite3
import sys
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.domain.shards import Shards
from bot.domain.strategies import Matchup
from bot.storage import Connection, Database, MigrationError, PostgresDatabase, SqliteDatabase, migrate
from bot.storage import matches as match_table
from bot.storage import tournaments as tournament_table
from bot.storage.database import Record
from bot.storage.matches import get_match
from bot.storage.migrations import MIGRATIONS_DIR, applied_versions, discover, statements
from bot.storage.strategies import figures_from, get_strategy
from hogengine.solver import BEST_TABLE, PERFECT
from tests.catalog import BROKEN_CONSTRAINT, tables


@pytest.fixture
async def db(tmp_path: Path, database_url: str | None) -> AsyncIterator[Database]:
    """An empty database (no migration applied) on each backend."""
    database: Database = await (
        SqliteDatabase.open(tmp_path / "data" / "hog.sqlite3")
        if database_url is None
        else PostgresDatabase.open(database_url)
    )
    yield database
    await database.close()


def up_to(folder: Path, last: int) -> Path:
    """A migrations folder holding the shipped migrations up to version `last` (every dialect's file)."""
    folder.mkdir()
    for migration in discover():
        if migration.version <= last:
            for path in migration.files:
                (folder / path.name).write_text(path.read_text())
    return folder


async def test_migrates_from_empty_and_records_the_version(db: Database) -> None:
    versions = [migration.version for migration in discover()]
    assert versions[0] == 1
    assert await migrate(db) == versions
    assert await applied_versions(db) == versions
    assert {"players", "matches", "turns", "schema_migrations"} <= await tables(db)
    assert await migrate(db) == []  # a second run applies nothing
    assert await applied_versions(db) == versions


async def test_a_broken_migration_rolls_back_alone(db: Database, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE first (id INTEGER PRIMARY KEY);\n")
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE second (id INTEGER PRIMARY KEY);\nINSERT INTO nowhere VALUES (1);\n"
    )
    with pytest.raises(MigrationError, match=r"0002_broken\.sql"):
        await migrate(db, folder)
    assert await applied_versions(db) == [1]
    assert "first" in await tables(db) and "second" not in await tables(db)

    (folder / "0002_broken.sql").write_text("CREATE TABLE second (id INTEGER PRIMARY KEY);\n")
    assert await migrate(db, folder) == [2]
    assert "second" in await tables(db)


@pytest.mark.parametrize("name", ["1_short.sql", "0001-dash.sql", "0001_Upper.sql"])
def test_misnamed_files_are_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"NNNN_name\.sql"):
        discover(tmp_path)


def test_duplicate_versions_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0001_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="version 1"):
        discover(tmp_path)


def test_a_version_is_one_portable_file_or_one_file_per_dialect(tmp_path: Path) -> None:
    (tmp_path / "0001_first.sqlite.sql").write_text("SELECT 1;")
    (tmp_path / "0001_first.postgresql.sql").write_text("SELECT 2;")
    (tmp_path / "0002_second.sql").write_text("SELECT 3;")
    first, second = discover(tmp_path)
    assert (first.name, first.paths["sqlite"].name, first.paths["postgresql"].name) == (
        "first",
        "0001_first.sqlite.sql",
        "0001_first.postgresql.sql",
    )
    portable = tmp_path / "0002_second.sql"
    assert second.paths == {"sqlite": portable, "postgresql": portable}


@pytest.mark.parametrize(
    "names",
    [
        ["0001_a.sqlite.sql"],  # PostgreSQL would have no version 1
        ["0001_a.sql", "0001_a.postgresql.sql"],  # which one does PostgreSQL run?
        ["0001_a.sqlite.sql", "0001_b.postgresql.sql"],  # one version, two names
    ],
)
def test_dialect_files_come_in_pairs(tmp_path: Path, names: list[str]) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="one portable file, or one per dialect"):
        discover(tmp_path)


def test_statements_split_where_sqlite_says() -> None:
    script = (
        "-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT ';');\n"
        "INSERT INTO t VALUES ('a;b');\n-- end\n"
    )
    assert statements(script) == [
        "-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT ';');",
        "INSERT INTO t VALUES ('a;b');",
    ]
    with pytest.raises(MigrationError, match="unfinished"):
        statements("CREATE TABLE t (x TEXT)")


def test_the_shipped_migrations_are_plain_statements() -> None:
    for migration in discover(MIGRATIONS_DIR):
        for statement in (text for path in migration.files for text in statements(path.read_text())):
            assert sqlite3.complete_statement(statement)
            assert "PRAGMA" not in statement.upper() and "AUTOINCREMENT" not in statement.upper()


async def test_0003_rebuilds_matches_keeping_every_row_and_reference(db: Database, tmp_path: Path) -> None:
    """A database at version 2 with games in it: the rebuilt `matches` keeps its rows and everything that
    points at them, stores the house bot's rematch votes, and accepts strategy games."""
    earlier = up_to(tmp_path / "migrations", 2)
    assert await migrate(db, earlier) == [1, 2]
    insert_match = (
        "INSERT INTO matches (id, rules, goal, status, channel_id, player0_id, player1_id, bot_level,"
        " rematch_of, winner, created_at, updated_at) VALUES (?, 'pork-chop', 100, ?, 5, ?, ?, ?, ?, ?, 1, 1)"
    )

    async def fill(conn: Connection) -> None:
        await conn.execute("INSERT INTO players VALUES (7, 'seven', 1, 1), (8, 'eight', 1, 1)")
        await conn.execute(insert_match, (1, "finished", 7, None, "easy", None, 0))
        await conn.execute(insert_match, (2, "active", None, 7, "perfect", 1, None))
        await conn.execute(insert_match, (3, "forfeit", 7, 8, None, None, 1))
        await conn.execute("INSERT INTO turns VALUES (1, 0, 0, 7, 3, 3, 6, '[1, 2, 3]', 1, '[]', 1, 0, 1)")
        await conn.execute("INSERT INTO rating_history VALUES (3, 8, 'pork-chop', 25, 8, 27, 7, 1)")
        await conn.execute("INSERT INTO match_strategies VALUES (1, NULL, 'fours', ?)", (b"\x04",))

    await db.write(fill)
    before = await db.fetch_all("SELECT * FROM matches ORDER BY id")

    assert await migrate(db, up_to(tmp_path / "with_0003", 3)) == [3]

    after = await db.fetch_all("SELECT * FROM matches ORDER BY id")
    for old, new in zip(before, after, strict=True):
        assert {key for key in old if old[key] != new[key]} <= {"rematch_vote0", "rematch_vote1"}
        assert new["guild_id"] is None
    assert [(row["rematch_vote0"], row["rematch_vote1"]) for row in after] == [(0, 1), (1, 0), (0, 0)]
    if db.dialect == "sqlite":  # the rebuilt table is pointed at again (PostgreSQL altered it in place)
        assert await db.fetch_all("PRAGMA foreign_key_check") == []
    assert len(await db.fetch_all("SELECT * FROM turns WHERE match_id = 1")) == 1
    strategy_game = (
        "INSERT INTO matches (id, rules, goal, status, guild_id, channel_id, player0_id, bot_level,"
        " created_at, updated_at) VALUES (4, 'swine-align', 100, 'active', 9, 5, 7, 'strategy', 2, 2)"
    )
    await db.write(lambda conn: conn.execute(strategy_game))
    with pytest.raises(BROKEN_CONSTRAINT, match=r"(?i)foreign key"):  # references are still enforced
        await db.write(lambda conn: conn.execute("UPDATE turns SET match_id = 99"))


async def test_0005_keeps_every_hidden_part_under_its_declared_name(db: Database, tmp_path: Path) -> None:
    """A database at version 4 with a Pork Chop spent and Pig Fest streaks and exchanges: after 0005 the
    one generic column holds them by the names the rule sets declare, and the matches load as before."""
    assert await migrate(db, up_to(tmp_path / "migrations", 4)) == [1, 2, 3, 4]
    insert = (
        "INSERT INTO matches (id, rules, goal, status, channel_id, player0_id, player1_id, chop_used0,"
        " chop_used1, streak0, streak1, exchanges, created_at, updated_at)"
        " VALUES (?, ?, 100, 'active', 5, 7, 8, ?, ?, ?, ?, ?, 1, 1)"
    )

    async def fill(conn: Connection) -> None:
        await conn.execute("INSERT INTO players VALUES (7, 'seven', 1, 1), (8, 'eight', 1, 1)")
        await conn.execute(insert, (1, "pork-chop", 0, 1, 0, 0, 0))
        await conn.execute(insert, (2, "pig-fest", 0, 0, 3, 1, 5))
        await conn.execute(insert, (3, "swine-align", 0, 0, 0, 0, 0))

    await db.write(fill)
    assert 5 in await migrate(db)

    rows = await db.fetch_all("SELECT * FROM matches ORDER BY id")
    assert not {"chop_used0", "chop_used1", "streak0", "streak1", "exchanges"} & set(rows[0])
    states = [match.state for match in [await get_match(db, n) for n in (1, 2, 3)] if match is not None]
    assert states[0].hidden_by_name() == {"pork_chop": (0, 1)}
    assert states[1].hidden_by_name() == {"streak": (3, 1), "exchanges": 5}
    assert states[2].hidden_by_name() == {}


async def test_0006_names_the_figures_perfect_and_best_table(db: Database, tmp_path: Path) -> None:
    """Figures stored under the old keys ("optimal": the perfect player, "perfect": the best score-only
    table) read under the new ones, each opponent's numbers unchanged."""
    await migrate(db, up_to(tmp_path / "migrations", 5))
    old = [["always_roll(4)", 0.7, 0.6, 0.65], ["optimal", 0.4, 0.3, 0.35], ["perfect", 0.5, 0.4, 0.45]]
    insert = (
        "INSERT INTO strategies (id, guild_id, owner_id, name, name_key, rules, source_kind, table_data,"
        " source_hash, table_hash, figures, created_at) VALUES (1, 9, 7, 'mine', 'mine', 'pork-chop', 'py',"
        " ?, 'a', 'b', ?, 1)"
    )

    async def fill(conn: Connection) -> None:
        await conn.execute("INSERT INTO players VALUES (7, 'seven', 1, 1)")
        await conn.execute(insert, (b"\x00", json.dumps(old)))

    await db.write(fill)
    assert 6 in await migrate(db)
    row = await db.fetch_one("SELECT figures FROM strategies WHERE id = 1")
    assert row is not None
    assert figures_from(row["figures"]) == (
        Matchup("always_roll(4)", 0.7, 0.6, 0.65),
        Matchup(PERFECT, 0.4, 0.3, 0.35),
        Matchup(BEST_TABLE, 0.5, 0.4, 0.45),
    )


async def test_0007_gives_strategies_stored_before_no_team_name(db: Database, tmp_path: Path) -> None:
    """A strategy stored at version 6 loads after 0007 as it did, without a TEAM_NAME: its one table is all
    there is of it."""
    await migrate(db, up_to(tmp_path / "migrations", 6))
    insert = (
        "INSERT INTO strategies (id, guild_id, owner_id, name, name_key, rules, source_kind, table_data,"
        " source_hash, table_hash, created_at) VALUES (1, 9, 7, 'mine', 'mine', 'pig-fest', 'py', ?, 'a',"
        " 'b', 1)"
    )

    async def fill(conn: Connection) -> None:
        await conn.execute("INSERT INTO players VALUES (7, 'seven', 1, 1)")
        await conn.execute(insert, (bytes([4]) * 10_000,))

    await db.write(fill)
    assert await migrate(db, up_to(tmp_path / "with_0007", 7)) == [7]
    stored = await get_strategy(db, 1, with_table=True)
    assert stored is not None and (stored.name, stored.team_name, stored.tables) == ("mine", None, ())
    assert stored.table is not None and stored.table.tolist() == [[4] * 100] * 100


MIGRATE_AND_SAY = """
import asyncio, json, sys
from pathlib import Path
from bot.storage import PostgresDatabase, SqliteDatabase, migrate

async def main():
    url = sys.argv[2] or None
    db = await (SqliteDatabase.open(Path(sys.argv[1])) if url is None else PostgresDatabase.open(url))
    try:
        print(json.dumps(await migrate(db)))
    finally:
        await db.close()

asyncio.run(main())
"""


async def test_processes_starting_together_apply_each_migration_once(
    tmp_path: Path, database_url: str | None
) -> None:
    """Three bot processes start at once on one new database: every version is applied by exactly one."""
    script = [sys.executable, "-c", MIGRATE_AND_SAY, str(tmp_path / "hog.sqlite3"), database_url or ""]
    runs = [await asyncio.create_subprocess_exec(*script, stdout=PIPE, stderr=PIPE) for _ in range(3)]
    outputs = [await run.communicate() for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], [err.decode() for _, err in outputs]
    applied = [version for out, _ in outputs for version in json.loads(out)]
    assert sorted(applied) == [migration.version for migration in discover()]


async def test_0008_takes_every_message_stored_before_as_shown(db: Database, tmp_path: Path) -> None:
    """Nothing says what an older message shows: after 0008 none of them is redrawn at the next start (a
    deployment must not edit every old board), and new rows start unshown."""
    await migrate(db, up_to(tmp_path / "migrations", 7))
    insert = (
        "INSERT INTO matches (id, rules, goal, status, channel_id, message_id, player0_id, player1_id,"
        " version, created_at, updated_at) VALUES (?, 'swine-align', 100, ?, 5, ?, 7, 8, ?, 1, 1)"
    )

    async def fill(conn: Connection) -> None:
        await conn.execute("INSERT INTO players VALUES (7, 'seven', 1, 1), (8, 'eight', 1, 1)")
        await conn.execute(insert, (1, "finished", 50, 9))
        await conn.execute(insert, (2, "active", 51, 4))
        await conn.execute(insert, (3, "cancelled", None, 1))  # called off: it never had a message
        await conn.execute(
            "INSERT INTO tournaments (guild_id, rules, goal, format, created_at, finished_at)"
            " VALUES (9, 'swine-align', 100, 'exact', 1, 2)"
        )

    await db.write(fill)
    assert await migrate(db, up_to(tmp_path / "with_0008", 8)) == [8]

    rows = await db.fetch_all("SELECT id, shown_version FROM matches ORDER BY id")
    assert [(row["id"], row["shown_version"]) for row in rows] == [(1, 9), (2, 4), (3, None)]
    await migrate(db, MIGRATIONS_DIR)  # the repositories read today's tables
    assert await match_table.unshown(db, 10.0, None) == []
    assert await tournament_table.unshown(db, None) == []
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO tournaments (guild_id, rules, goal, format, created_at, finished_at, channel_id)"
            " VALUES (9, 'swine-align', 100, 'exact', 3, 4, 5)"
        )
    )
    assert [tournament.channel_id for tournament in await tournament_table.unshown(db, None)] == [5]


async def many_finished_games(conn: Connection) -> None:
    await conn.execute(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (7, 'seven', 1, 1), (8, 'eight', 1, 1)"
    )
    await conn.execute_many(
        "INSERT INTO matches (id, rules, goal, status, channel_id, message_id, player0_id, player1_id,"
        " version, shown_version, created_at, updated_at) VALUES (?, 'swine-align', 100, 'finished', 5, ?, 7,"
        " 8, 3, 3, 1, 1)",
        [(n, 1000 + n) for n in range(1, 2001)],
    )


class Explaining:
    """A Reader that answers every query with nothing, keeping the query plan SQLite makes for it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.plan: list[str] = []

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        self.plan += [row["detail"] for row in await self.db.fetch_all(f"EXPLAIN QUERY PLAN {sql}", params)]
        return []

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        await self.fetch_all(sql, params)
        return None


async def test_finding_what_lags_reads_indexes_only(tmp_path: Path) -> None:
    """The start-up looks for unshown messages among every game ever played (of its shards, when the bot
    runs as several processes), and the clock for lagging boards at every tick: no full scan of a table,
    in the embedded SQLite's query plan."""
    db = await SqliteDatabase.open(tmp_path / "hog.sqlite3")
    try:
        await migrate(db)
        await db.write(many_finished_games)
        await db.fetch_all("ANALYZE")  # statistics that say "status" hardly narrows anything down
        explained = Explaining(db)
        await match_table.unshown(explained, 1.0, Shards(2, frozenset({1})))
        await tournament_table.unshown(explained, Shards(2, frozenset({1})))
        await match_table.lagging(explained, Shards(2, frozenset({1})))
    finally:
        await db.close()
    reads = [step for step in explained.plan if step.startswith(("SCAN", "SEARCH"))]
    assert len(reads) == 4 and all(" USING " in step and "INDEX" in step for step in reads), explained.plan
