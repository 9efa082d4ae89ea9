"""migrations/schema.sql is the schema a fresh migration makes, so a newcomer can read the tables in one
file; both dialects' migrations make the same tables, columns and references; and the statuses and house
levels the database accepts are exactly the domain's."""

import re
from pathlib import Path

from bot.domain.matches import MatchStatus
from bot.storage import open_migrated
from bot.storage.migrations import MIGRATIONS_DIR, SCHEMA_FILE, discover
from bot.storage.schema import current_schema
from hogengine.house import HouseLevel
from tests.catalog import columns, references
from tests.postgres_server import PostgresServer


async def test_schema_sql_is_what_the_migrations_make() -> None:
    written = (MIGRATIONS_DIR / SCHEMA_FILE).read_text(encoding="utf-8")

    assert written == await current_schema(), "run `python -m bot.storage.schema` and commit the result"
    tables = re.findall(r"^CREATE TABLE (\w+)", written, re.MULTILINE)
    assert {"matches", "turns", "players", "strategies", "ratings", "tournaments"} <= set(tables)


def test_schema_sql_is_never_taken_for_a_migration() -> None:
    shipped = [path.name for migration in discover() for path in migration.files]
    assert SCHEMA_FILE not in shipped
    assert len(shipped) == len(list(MIGRATIONS_DIR.glob("*.sql"))) - 1


async def test_both_dialects_make_the_same_tables_columns_and_references(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    sqlite = await open_migrated(tmp_path / "hog.sqlite3")
    postgresql = await open_migrated(tmp_path / "unused.sqlite3", postgres.new_database())
    try:
        assert await columns(postgresql) == await columns(sqlite)
        assert await references(postgresql) == await references(sqlite)
        assert len(await references(sqlite)) >= 10
    finally:
        await sqlite.close()
        await postgresql.close()


async def test_the_database_accepts_exactly_the_domains_match_statuses() -> None:
    schema = await current_schema()
    (allowed,) = re.findall(r"CHECK \(\s*status IN \(([^)]*)\)", schema)

    assert re.findall(r"'(\w+)'", allowed) == [status.value for status in MatchStatus]


async def test_the_database_accepts_exactly_the_house_levels_the_engine_plays() -> None:
    """One enum: the bot stores the engine's house levels by their values, a stored strategy's included."""
    (allowed,) = re.findall(r"bot_level IN \(([^)]*)\)", await current_schema())

    assert re.findall(r"'(\w+)'", allowed) == [level.value for level in HouseLevel]
