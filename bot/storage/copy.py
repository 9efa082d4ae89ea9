"""Moving a bot from its SQLite file to PostgreSQL (`python -m bot --copy-to URL`): every row of every
table, ids kept, in one transaction, into a migrated PostgreSQL database that holds no rows yet.

The tables are read off SQLite's catalog and copied parents first (by their foreign keys), each in
primary-key order, so a rematch follows the game it repeats; the identity sequences then continue after
the largest copied id. Both databases are migrated first, so both have the same tables and columns.
"""

from collections.abc import Callable
from graphlib import TopologicalSorter
from pathlib import Path

from bot.storage.database import Connection
from bot.storage.migrations import applied_versions, migrate
from bot.storage.postgres import PostgresDatabase
from bot.storage.sql import insertion
from bot.storage.sqlite import SqliteDatabase

BATCH = 1000  # rows per round trip
Report = Callable[[str, int], None]  # (table, rows copied)


class CopyRefusedError(Exception):
    """The copy cannot be made safely (the target already holds data); nothing was written."""


async def _tables(source: SqliteDatabase) -> list[str]:
    """Every table, each after the tables its foreign keys point at."""
    names = [
        row["name"]
        for row in await source.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND name <> 'schema_migrations' ORDER BY name"
        )
    ]
    parents = {
        name: {
            row["table"]
            for row in await source.fetch_all('SELECT "table" FROM pragma_foreign_key_list(?)', (name,))
        }
        - {name}
        for name in names
    }
    return list(TopologicalSorter(parents).static_order())


async def _key(source: SqliteDatabase, table: str) -> str:
    """The table's primary-key columns, to read its rows in a stable order."""
    rows = await source.fetch_all("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (table,))
    return ", ".join(row["name"] for row in rows) or "rowid"


async def copy_database(source: SqliteDatabase, target: PostgresDatabase, report: Report) -> int:
    """Copy every row; the number of rows copied. CopyRefusedError if the target is not empty or is at
    another migration version."""
    if await applied_versions(source) != await applied_versions(target):
        raise CopyRefusedError("The two databases are at different migration versions.")
    tables = await _tables(source)
    for table in tables:
        if await target.fetch_one(f"SELECT 1 FROM {table} LIMIT 1") is not None:
            raise CopyRefusedError(f"The target already holds {table}: copy only into a new, empty database.")

    async def work(conn: Connection) -> int:
        copied = 0
        for table in tables:
            read, rows = f"SELECT * FROM {table} ORDER BY {await _key(source, table)} LIMIT ? OFFSET ?", 0
            while batch := await source.fetch_all(read, (BATCH, rows)):
                await conn.execute_many(insertion(table, batch[0]), [list(row.values()) for row in batch])
                rows += len(batch)
            await _continue_ids(conn, table)
            report(table, rows)
            copied += rows
        return copied

    return await target.write(work)


async def _continue_ids(conn: Connection, table: str) -> None:
    """Let the table's identity column, if it has one, go on after the largest copied id."""
    sequence = await conn.fetch_one(
        "SELECT pg_get_serial_sequence(table_name, column_name) AS name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND table_name = ? AND column_name = 'id'",
        (table,),
    )
    if sequence is not None and sequence["name"] is not None:
        await conn.execute(
            f"SELECT setval(?, COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)", (sequence["name"],)
        )


async def copy_file_to(path: Path, url: str, report: Report) -> int:
    """Open (and migrate) the SQLite file and the PostgreSQL database, copy, close both; rows copied."""
    source = await SqliteDatabase.open(path)
    try:
        await migrate(source)
        target = await PostgresDatabase.open(url)
        try:
            await migrate(target)
            return await copy_database(source, target, report)
        finally:
            await target.close()
    finally:
        await source.close()
