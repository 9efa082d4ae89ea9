"""migrations/schema.sql is the schema a fresh migration makes, so a newcomer can read the tables in one
file; and the statuses the database accepts are exactly the domain's."""

import re

from bot.domain.matches import MatchStatus
from bot.storage.migrations import MIGRATIONS_DIR, SCHEMA_FILE, discover
from bot.storage.schema import current_schema


async def test_schema_sql_is_what_the_migrations_make() -> None:
    written = (MIGRATIONS_DIR / SCHEMA_FILE).read_text(encoding="utf-8")

    assert written == await current_schema(), "run `python -m bot.storage.schema` and commit the result"
    tables = re.findall(r"^CREATE TABLE (\w+)", written, re.MULTILINE)
    assert {"matches", "turns", "players", "strategies", "ratings", "tournaments"} <= set(tables)


def test_schema_sql_is_never_taken_for_a_migration() -> None:
    assert SCHEMA_FILE not in [migration.path.name for migration in discover()]
    assert len(discover()) == len(list(MIGRATIONS_DIR.glob("*.sql"))) - 1


async def test_the_database_accepts_exactly_the_domains_match_statuses() -> None:
    schema = await current_schema()
    (allowed,) = re.findall(r"status IN \(([^)]*)\)", schema)

    assert re.findall(r"'(\w+)'", allowed) == [status.value for status in MatchStatus]
