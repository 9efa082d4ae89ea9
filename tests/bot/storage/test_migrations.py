"""The migration runner: from empty, idempotent, one transaction per file, strict file names."""

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, MigrationError, migrate
from bot.storage.migrations import MIGRATIONS_DIR, applied_versions, discover, statements


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "data" / "hog.sqlite3")
    yield database
    await database.close()


async def tables(db: Database) -> set[str]:
    rows = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row["name"] for row in rows}


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
        for statement in statements(migration.path.read_text()):
            assert sqlite3.complete_statement(statement)
            assert "PRAGMA" not in statement.upper() and "AUTOINCREMENT" not in statement.upper()
