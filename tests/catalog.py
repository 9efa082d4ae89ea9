"""What a migrated database holds, read from either backend's catalog: its tables, their columns and the
foreign keys between them (tests compare the two dialects' schemas and check references by these); and
what either raises for a broken constraint."""

import sqlite3

import asyncpg

from bot.storage import Database

# What each backend raises for a row that breaks a constraint (a foreign key, a unique key).
BROKEN_CONSTRAINT = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

_SQL = {
    "sqlite": {
        "tables": "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        "columns": "SELECT name FROM pragma_table_info(?)",
        "references": 'SELECT "from" AS name, "table" AS target FROM pragma_foreign_key_list(?)',
    },
    "postgresql": {
        "tables": "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        "columns": "SELECT column_name AS name FROM information_schema.columns WHERE table_name = ?",
        "references": (
            "SELECT a.attname AS name, c.confrelid::regclass::text AS target FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)"
            " WHERE c.contype = 'f' AND c.conrelid = ?::regclass"
        ),
    },
}


async def tables(db: Database) -> set[str]:
    return {row["name"] for row in await db.fetch_all(_SQL[db.dialect]["tables"])}


async def columns(db: Database) -> dict[str, set[str]]:
    """Each table's column names."""
    query = _SQL[db.dialect]["columns"]
    return {table: {row["name"] for row in await db.fetch_all(query, (table,))} for table in await tables(db)}


async def references(db: Database) -> set[tuple[str, str, str]]:
    """Every foreign key column, as (table, column, the table it points at)."""
    query = _SQL[db.dialect]["references"]
    return {
        (table, row["name"], row["target"])
        for table in await tables(db)
        for row in await db.fetch_all(query, (table,))
    }
