"""The SQLite backend of the database interface: one writer that batches concurrent writes into one
transaction, and one reader.

`write(work)` queues an async function of the writer connection; the writer task runs everything
queued so far inside one `BEGIN IMMEDIATE` transaction (group commit: one commit for many turns under
load) and answers each caller after the commit. The works of a batch run side by side, so they must
not depend on each other: the service writes each match under its lock, so no two works of a batch
change the same match state. If any work fails, the batch rolls back and each work is re-run in a
transaction of its own, so one failure never takes another caller's write with it; works must
therefore act only through the connection (re-runnable). Reads use a second connection, which in WAL
mode sees only committed data and never waits for the writer. A file that cannot be used for now (locked
by another program past the busy timeout, an I/O error, read-only, full) fails a whole batch at once, as
RecordsUnavailable: running its works one by one would only wait out the lock again for each.
"""

import asyncio
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Self, TypeVar

import aiosqlite

from bot.storage.database import DatabaseUnavailableError, Record, Work
from bot.storage.outage import Outage
from bot.storage.sql import insertion

T = TypeVar("T")
# How long a write waits for another program's lock on the file: a slash command must be answered within
# Discord's 3 s, and its answer may be that the game records are out of reach.
BUSY_TIMEOUT_MS = 2000
MAX_BATCH = 256
# SQLite's primary result codes that say the file cannot be used now, not that the SQL is wrong: BUSY (locked
# past the busy timeout), READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
_OUT_OF_REACH = frozenset({5, 8, 10, 11, 13, 14, 15, 26})


def _out_of_reach(error: BaseException) -> bool:
    """Whether a failure says the file cannot be used now (an outage), not that a statement is wrong."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in _OUT_OF_REACH


async def _connect(path: Path) -> aiosqlite.Connection:
    """A connection in autocommit mode (transactions are explicit) with the project's pragmas; closed
    again if they fail (its worker thread would otherwise keep the process from ever exiting)."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        for pragma in (
            "PRAGMA journal_mode = WAL",
            f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
            "PRAGMA foreign_keys = ON",
            "PRAGMA synchronous = NORMAL",  # in WAL: durable at checkpoints, never corrupt
        ):
            async with conn.execute(pragma):
                pass
    except BaseException:
        await conn.close()
        raise
    return conn


class _Fetching:
    """Reads through one connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return [dict(row) for row in await self._conn.execute_fetchall(sql, params)]

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class SqliteConnection(_Fetching):
    """The writer connection inside a transaction, as one work of the batch sees it (the interface's
    Connection): the works of a batch share the transaction, and `lock` keeps them apart where asked."""

    def __init__(self, conn: aiosqlite.Connection, locks: dict[int, asyncio.Lock]) -> None:
        super().__init__(conn)
        self._locks = locks  # the batch's, by key
        self._held: list[asyncio.Lock] = []

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def insert(self, table: str, values: Mapping[str, Any]) -> None:
        await self.insert_id(table, values)

    async def lock(self, key: int) -> None:
        """Hold `key` until this work ends: other processes are kept out by the write transaction itself
        (BEGIN IMMEDIATE), but the works of one batch run side by side in it, so another work taking `key`
        waits for this one (each work takes one key at most: two could wait on each other)."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        if lock not in self._held:
            await lock.acquire()
            self._held.append(lock)

    def release(self) -> None:
        """Let go of every key this work held (it has ended)."""
        while self._held:
            self._held.pop().release()

    async def insert_id(self, table: str, values: Mapping[str, Any]) -> int:
        async with self._conn.execute(insertion(table, values), list(values.values())) as cursor:
            if cursor.lastrowid is None:
                raise RuntimeError(f"SQLite returned no id for the new {table} row.")
            return cursor.lastrowid


class SqliteDatabase(_Fetching):
    """The two connections and the writer task."""

    dialect: Final = "sqlite"

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        super().__init__(reader)
        self._writer = writer
        self._queue: asyncio.Queue[tuple[Work[Any], asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="hog-db-writer")
        self._closing = False
        self.outage = Outage()

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        try:
            rows = await super().fetch_all(sql, params)
        except sqlite3.Error as error:
            if not _out_of_reach(error):
                raise
            raise self.outage.failed(error) from error
        self.outage.answered()
        return rows

    @classmethod
    async def open(cls, path: Path) -> Self:
        """Open the database file, creating it and its folder if needed; DatabaseUnavailableError, naming
        HOG_DATABASE_PATH, if it cannot be (a folder that cannot be made, a file that is not SQLite's)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Tried here first: aiosqlite failing to open (a folder, say) stops its thread after the loop.
            sqlite3.connect(path).close()
            writer = await _connect(path)
        except (OSError, sqlite3.Error) as error:
            raise DatabaseUnavailableError(f"HOG_DATABASE_PATH: cannot open {path}: {error}") from None
        try:
            reader = await _connect(path)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader)

    async def close(self) -> None:
        """Finish every queued write, then close both connections; a write asked for from now is refused."""
        self._closing = True
        self._queue.put_nowait(None)
        await self._task
        await self._conn.close()
        await self._writer.close()

    async def write(self, work: Work[T]) -> T:
        """Run `work` in a write transaction (shared with other queued writes); its result once committed."""
        if self._closing or self._task.done():
            raise RuntimeError("The database is closed.")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((work, future))
        try:
            result = await future
        except sqlite3.Error as error:
            if not _out_of_reach(error):
                raise
            raise self.outage.failed(error, wrote=True) from error
        self.outage.answered(wrote=True)
        return result

    async def pragma(self, name: str) -> Any:
        """A pragma's value as the writer sees it (for checks and tests)."""
        async with self._writer.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def _write_loop(self) -> None:
        while (item := await self._queue.get()) is not None:
            batch = [item]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                following = self._queue.get_nowait()
                if following is None:
                    self._queue.put_nowait(None)  # stop after this batch
                    break
                batch.append(following)
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[Work[Any], asyncio.Future[Any]]]) -> None:
        """Run a batch in one transaction; if it fails, run each of its works alone (unless the file cannot
        be used now: then each fails with it)."""
        try:
            results = await self._transaction([work for work, _ in batch])
        except Exception as error:
            if len(batch) > 1 and not _out_of_reach(error):
                for item in batch:
                    await self._commit([item])
                return
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def _transaction(self, works: list[Work[Any]]) -> list[Any]:
        """Run the works side by side in one transaction (their statements interleave in the writer's
        queue, so a batch costs a few round trips, not a few per work); the first failure rolls back."""
        await self._writer.execute("BEGIN IMMEDIATE")
        locks: dict[int, asyncio.Lock] = {}

        async def run(work: Work[Any]) -> Any:
            conn = SqliteConnection(self._writer, locks)
            try:
                return await work(conn)
            finally:
                conn.release()

        try:
            results = await asyncio.gather(*map(run, works), return_exceptions=True)
            if failure := next((result for result in results if isinstance(result, BaseException)), None):
                raise failure
            await self._writer.commit()
        except BaseException:
            if self._writer.in_transaction:
                await self._writer.rollback()
            raise
        return results
