"""The SQLite backend of the database interface: one writer that batches concurrent writes into one
transaction, one reader of lists and one of single rows.

`write(work)` queues an async function of the writer connection; the writer task runs everything
queued so far inside one `BEGIN IMMEDIATE` transaction (group commit: one commit for many turns under
load), one work after another, and answers each caller after the commit. Inside the transaction a work's
statements run at once on the event loop's thread: the transaction already holds the file's write lock, so
none of them waits for another program, and a statement on cached pages takes microseconds, less than a
hand-off to a thread; what may wait (BEGIN for another program's lock past the busy timeout, COMMIT for the
disk) runs on the writer's own thread. If any work fails, the batch rolls back and each work is re-run in a
transaction of its own, so one failure never takes another caller's write with it; works must
therefore act only through the connection (re-runnable). Reads use a second connection, which in WAL
mode sees only committed data and never waits for the writer. A file that cannot be used for now (locked
by another program past the busy timeout, an I/O error, read-only, full) fails a whole batch at once, as
RecordsUnavailable: running its works one by one would only wait out the lock again for each. A lookup
of one row (`fetch_one`) runs at once on the loop's thread too, through a third connection that never waits:
it steps over a few cached pages, less than a hand-off to the reader's thread, which it takes only if another
program holds the file busy (and where every list is read, as a list may be long).
"""

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, Self, TypeVar, cast

import aiosqlite

from bot.storage.database import DatabaseUnavailableError, Record, Work
from bot.storage.outage import Outage
from bot.storage.sql import insertion

T = TypeVar("T")
# How long a write waits for another program's lock on the file: a slash command must be answered within
# Discord's 3 s, and its answer may be that the game records are out of reach.
BUSY_TIMEOUT_MS = 2000
SQLITE_BUSY = 5
MAX_BATCH = 256
# SQLite's primary result codes that say the file cannot be used now, not that the SQL is wrong: BUSY (locked
# past the busy timeout), READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
_OUT_OF_REACH = frozenset({SQLITE_BUSY, 8, 10, 11, 13, 14, 15, 26})


def _code(error: BaseException) -> int | None:
    """SQLite's primary result code of a failure, if it is SQLite's."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(error, sqlite3.Error) and code is not None else None


def _out_of_reach(error: BaseException) -> bool:
    """Whether a failure says the file cannot be used now (an outage), not that a statement is wrong."""
    return _code(error) in _OUT_OF_REACH


PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = NORMAL",  # in WAL: durable at checkpoints, never corrupt
)


class _Row(dict[str, Any]):
    """A row as column name to value, made by the connection's row factory: sqlite3.Row finds each column by
    comparing names, so copying one into a dict cost more than the query."""

    def __init__(self, cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> None:
        super().__init__(zip([column[0] for column in cursor.description], row, strict=True))


async def _connect(path: Path) -> aiosqlite.Connection:
    """The reading connection, in autocommit mode with the project's pragmas; closed again if they fail (its
    worker thread would otherwise keep the process from ever exiting)."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = _Row
        for pragma in PRAGMAS:
            async with conn.execute(pragma):
                pass
    except BaseException:
        await conn.close()
        raise
    return conn


def _connect_on_thread(path: Path, pragmas: Sequence[str] = PRAGMAS) -> sqlite3.Connection:
    """A connection made on the writer's thread, usable from the event loop's thread too (one thread at a
    time: see the module), in autocommit mode (transactions are explicit) with these pragmas."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = _Row
        for pragma in pragmas:
            conn.execute(pragma)
    except BaseException:
        conn.close()
        raise
    return conn


class _Fetching:
    """Reads through one connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return cast(list[Record], await self._conn.execute_fetchall(sql, params))  # rows made by _Row

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class SqliteConnection:
    """The writer connection inside the batch's transaction, as one work of the batch sees it (the
    interface's Connection): each statement runs at once, on the caller's thread."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return cast(list[Record], self._conn.execute(sql, params).fetchall())  # rows made by _Row

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        rows = await self.fetch_all(sql, params)  # every row fetched: the statement is done before COMMIT
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    async def insert(self, table: str, values: Mapping[str, Any]) -> None:
        self._conn.execute(insertion(table, values), list(values.values()))

    async def lock(self, key: int) -> None:
        """Nothing to wait for: other processes are kept out by the write transaction itself (BEGIN
        IMMEDIATE), and the works of a batch run one after another."""

    async def insert_id(self, table: str, values: Mapping[str, Any]) -> int:
        cursor = self._conn.execute(insertion(table, values), list(values.values()))
        if cursor.lastrowid is None:
            raise RuntimeError(f"SQLite returned no id for the new {table} row.")
        return cursor.lastrowid


class SqliteDatabase(_Fetching):
    """The three connections (writer, reader, lookups), the writer's thread and the writer task."""

    dialect: Final = "sqlite"

    def __init__(
        self,
        writer: sqlite3.Connection,
        lookups: sqlite3.Connection,
        thread: ThreadPoolExecutor,
        reader: aiosqlite.Connection,
    ) -> None:
        super().__init__(reader)
        self._writer = writer
        self._lookups = lookups
        # The writer's: BEGIN, COMMIT, ROLLBACK and closing may wait, so they never run on the loop.
        self._thread = thread
        self._queue: asyncio.Queue[tuple[Work[Any], asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="hog-db-writer")
        self._closing = False
        self._closed = False  # reads are refused from then on, as writes are from `_closing`
        self.outage = Outage()

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        if self._closed:
            raise RuntimeError("The database is closed.")
        try:
            rows = await super().fetch_all(sql, params)
        except sqlite3.Error as error:
            if not _out_of_reach(error):
                raise
            raise self.outage.failed(error) from error
        self.outage.answered()
        return rows

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        """The first row, looked up at once on the loop's thread (on the reader's if the file is busy)."""
        if self._closed:
            raise RuntimeError("The database is closed.")
        try:
            cursor = self._lookups.execute(sql, params)
            try:
                row: Record | None = cursor.fetchone()
            finally:
                cursor.close()  # the statement done: the connection holds no snapshot of the file
        except sqlite3.Error as error:
            if _code(error) == SQLITE_BUSY:
                return await super().fetch_one(sql, params)
            if not _out_of_reach(error):
                raise
            raise self.outage.failed(error) from error
        self.outage.answered()
        return row

    @classmethod
    async def open(cls, path: Path) -> Self:
        """Open the database file, creating it and its folder if needed; DatabaseUnavailableError, naming
        HOG_DATABASE_PATH, if it cannot be (a folder that cannot be made, a file that is not SQLite's)."""
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hog-db-writer")
        loop = asyncio.get_running_loop()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            writer = await loop.run_in_executor(thread, _connect_on_thread, path)
        except (OSError, sqlite3.Error) as error:
            thread.shutdown()
            raise DatabaseUnavailableError(f"HOG_DATABASE_PATH: cannot open {path}: {error}") from None
        opened = [writer]
        try:
            opened.append(
                await loop.run_in_executor(thread, _connect_on_thread, path, ["PRAGMA busy_timeout = 0"])
            )
            reader = await _connect(path)
        except BaseException:
            for conn in opened:
                await loop.run_in_executor(thread, conn.close)
            thread.shutdown()
            raise
        return cls(writer, opened[1], thread, reader)

    async def close(self) -> None:
        """Finish every queued write, then close both connections; a write asked for from now is refused."""
        self._closing = True
        self._queue.put_nowait(None)
        await self._task
        self._closed = True
        await self._conn.close()
        await self._in_thread(self._lookups.close)
        await self._in_thread(self._writer.close)
        self._thread.shutdown()

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
        row = await self.write(lambda conn: conn.fetch_one(f"PRAGMA {name}"))  # in turn with the batches
        return None if row is None else next(iter(row.values()))

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """`call` on the writer's thread: the writer task's one way to wait (the works use it in between)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

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
        """Run the works one after another in one transaction; the first failure rolls back."""
        await self._in_thread(lambda: self._writer.execute("BEGIN IMMEDIATE"))
        try:
            conn = SqliteConnection(self._writer)
            results = [await work(conn) for work in works]
            await self._in_thread(self._writer.commit)
        except BaseException:
            if self._writer.in_transaction:
                await self._in_thread(self._writer.rollback)
            raise
        return results
