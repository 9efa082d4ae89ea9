"""The SQLite database: one writer connection (transactions, one at a time) and one reader (WAL).

Writers take `transaction()`, which holds an asyncio lock and a `BEGIN IMMEDIATE` transaction, so
statements of concurrent coroutines never mix. Readers use `fetch_all`/`fetch_one` on a second
connection, which in WAL mode sees only committed data and never waits for the writer.
"""

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

Row = dict[str, Any]
BUSY_TIMEOUT_MS = 5000


async def _connect(path: Path) -> aiosqlite.Connection:
    """A connection in autocommit mode (transactions are explicit) with the project's pragmas."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    for pragma in (
        "PRAGMA journal_mode = WAL",
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
        "PRAGMA foreign_keys = ON",
        "PRAGMA synchronous = NORMAL",  # in WAL: durable at checkpoints, never corrupt
    ):
        await conn.execute(pragma)
    return conn


class Database:
    """The two connections and the writer lock."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path) -> Self:
        """Open the database file, creating it and its folder if needed."""
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path)
        try:
            reader = await _connect(path)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader)

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer inside `BEGIN IMMEDIATE`; commits on success, rolls back on any exception."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                await self._writer.rollback()
                raise
            await self._writer.commit()

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows = await self._reader.execute_fetchall(sql, params)
        return [dict(row) for row in rows]

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def pragma(self, name: str) -> Any:
        """A pragma's value as the writer sees it (for checks and tests)."""
        async with self._writer.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]
