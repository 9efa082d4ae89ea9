"""Moving a bot from its SQLite file to PostgreSQL (`python -m bot --copy-to URL`): every row of every
table, ids kept, in one transaction, into a migrated PostgreSQL database that holds no rows yet.

The tables are read off SQLite's catalog and copied parents first (by their foreign keys), each in
primary-key order, so a rematch follows the game it repeats; the identity sequences then continue after
the largest copied id. Both databases are migrated first (the target only once it is known to hold no
rows), so both have the same tables and columns.
"""

from collections.abc import AsyncIterator, Callable
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

from bot.storage.database import Connection, Record
from bot.storage.migrations import applied_versions, migrate
from bot.storage.postgres import PostgresDatabase
from bot.storage.sql import insertion, marks
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


async def _key(source: SqliteDatabase, table: str) -> list[str]:
    """The table's primary-key columns, to read its rows in order, a batch after the last key read."""
    rows = await source.fetch_all("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (table,))
    if not rows:
        raise CopyRefusedError(f"The table {table} has no primary key to read it by.")
    return [row["name"] for row in rows]


async def _batches(source: SqliteDatabase, table: str) -> AsyncIterator[list[Record]]:
    """The table's rows in key order, BATCH at a time; each batch starts after the last key read (so a
    deep batch costs what the first does, as an OFFSET would not)."""
    key = await _key(source, table)
    columns = ", ".join(key)
    after: list[Any] = []
    while True:
        where = f" WHERE ({columns}) > ({marks(key)})" if after else ""
        batch = await source.fetch_all(
            f"SELECT * FROM {table}{where} ORDER BY {columns} LIMIT ?", [*after, BATCH]
        )
        if not batch:
            return
        yield batch
        after = [batch[-1][name] for name in key]


async def _holds_rows(target: PostgresDatabase) -> str | None:
    """A table of the target that holds rows, if any (before the target is migrated, so a refused copy
    writes nothing there)."""
    for row in await target.fetch_all(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        " AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY table_name"
    ):
        if await target.fetch_one(f'SELECT 1 FROM "{row["table_name"]}" LIMIT 1') is not None:
            return str(row["table_name"])
    return None


async def _copy_rows(source: SqliteDatabase, target: PostgresDatabase, report: Report) -> int:
    """Copy every row into the migrated, empty target in one transaction; the number of rows copied."""
    if await applied_versions(source) != await applied_versions(target):
        raise CopyRefusedError("The two databases are at different migration versions.")
    tables = await _tables(source)

    async def work(conn: Connection) -> int:
        copied = 0
        for table in tables:
            rows = 0
            async for batch in _batches(source, table):
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
    """Bring the SQLite file up to date (as the bot does at start), refuse a PostgreSQL database that holds
    rows before writing anything there, migrate it, copy, and close both; rows copied."""
    source = await SqliteDatabase.open(path)
    try:
        await migrate(source)
        target = await PostgresDatabase.open(url)
        try:
            if (held := await _holds_rows(target)) is not None:
                raise CopyRefusedError(f"The target already holds {held}: copy only into an empty database.")
            await migrate(target)
            return await _copy_rows(source, target, report)
        finally:
            await target.close()
    finally:
        await source.close()
