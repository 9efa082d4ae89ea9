"""The PostgreSQL backend of the database interface (asyncpg), for bots that outgrow one process.

Every `write(work)` runs in a transaction of its own on a pooled connection (READ COMMITTED): several
processes share the server, and a match update conditional on the version read is the guard against a
second process's change (its UPDATE waits for the first to commit, then finds the version gone). Reads
take any pooled connection and see committed data. The repositories' `?` placeholders are numbered
(`$1`, `$2`, ...) for asyncpg once per statement text. A server out of reach (stopped, restarting, refusing
connections, gone read-only) fails each use as RecordsUnavailable: at once, or after CONNECT_SECONDS if a
new connection gets no answer at all, or after PATIENCE_SECONDS + PROBE_SECONDS if the server has gone
silent on connections already open (see `PostgresDatabase._use`); the pool connects again by itself once
the server is back.
"""

import asyncio
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, Self, TypeVar
from urllib.parse import urlsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.database import DatabaseUnavailableError, Record, Work
from bot.storage.outage import Outage
from bot.storage.sql import insertion

T = TypeVar("T")
POOL_SIZE = 10  # connections per process: two shard processes stay far below the server's 100
# How long a new connection may take: a press waiting for one must still be answered within Discord's 3 s.
CONNECT_SECONDS = 2.0
# A server that answers nothing (stopped by SIGSTOP, a network that drops every packet) is not waited for up
# to the statement timeout: once a use has had no answer for PATIENCE_SECONDS, a connection of its own asks
# whether the server answers at all, within PROBE_SECONDS. Both together stay under Discord's 3 s, so a
# gesture that meets a silent server is still answered in words.
PATIENCE_SECONDS = 0.5
PROBE_SECONDS = 1.5
STATEMENT_SECONDS = 60.0  # a statement of a server that answers, however slowly
CLOSE_SECONDS = 10.0  # for the connections in use to be released when the pool closes
ATTEMPTS = 3  # runs of a write PostgreSQL aborts to break a deadlock
# What says the server cannot be used now, not that a statement is wrong: the network (refused, reset, timed
# out: OSError), a connection lost or refused by the server (class 08), the server shutting down or starting
# up, out of connections or disk (class 53), or a standby that only reads (after a failover).
_OUT_OF_REACH = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.InsufficientResourcesError,
    asyncpg.ReadOnlySQLTransactionError,
)


def _out_of_reach(error: Exception) -> bool:
    """Whether a failure says the server cannot be used now: one of the above, or a connection the server
    closed while it was in use (asyncpg says so only in words)."""
    closed = isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error)
    return closed or isinstance(error, _OUT_OF_REACH)


# A quoted literal or identifier (kept as written), or a placeholder to number.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The statement with each `?` outside quotes replaced by `$1`, `$2`, ... in order."""
    count = 0

    def number(token: re.Match[str]) -> str:
        nonlocal count
        if token.group() != "?":
            return token.group()
        count += 1
        return f"${count}"

    return _TOKEN.sub(number, sql)


def redacted(url: str) -> str:
    """Where the URL points (scheme, host, port, database) without its user, password or query: safe to
    print in messages and logs whatever the URL holds, an unescaped `@` or `/` in a password included."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2].partition('?')[0].partition('#')[0]}"


async def _as_it_is(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: the bot keeps nothing in a session past its transaction
    (its advisory locks are the transaction's; it sets, listens to and leaves open nothing), so asyncpg's
    default reset would only cost a query on every release, a read's and a write's alike."""


def _changed(status: str) -> int:
    """Rows changed, from asyncpg's command tag (`UPDATE 3`, `INSERT 0 1`, `DELETE 0`)."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


async def _fetch_all(conn: PoolConnectionProxy, sql: str, params: Sequence[Any]) -> list[Record]:
    return [dict(row) for row in await conn.fetch(numbered(sql), *params)]


async def _fetch_one(conn: PoolConnectionProxy, sql: str, params: Sequence[Any]) -> Record | None:
    row = await conn.fetchrow(numbered(sql), *params)
    return None if row is None else dict(row)


class PostgresConnection:
    """A pooled connection inside a transaction, as the interface's Connection."""

    def __init__(self, conn: PoolConnectionProxy) -> None:
        self._runner = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return await _fetch_all(self._runner, sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        return await _fetch_one(self._runner, sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self._runner.execute(numbered(sql), *params))

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._runner.executemany(numbered(sql), rows)

    async def insert(self, table: str, values: Mapping[str, Any]) -> None:
        await self.execute(insertion(table, values), list(values.values()))

    async def lock(self, key: int) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(?)", (key,))

    async def insert_id(self, table: str, values: Mapping[str, Any]) -> int:
        row = await self.fetch_one(f"{insertion(table, values)} RETURNING id", list(values.values()))
        if row is None:
            raise RuntimeError(f"PostgreSQL returned no id for the new {table} row.")
        return int(row["id"])


class PostgresDatabase:
    """A connection pool on one PostgreSQL database."""

    dialect: Final = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._probe: asyncio.Task[bool] | None = None
        self.outage = Outage()

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]:
        return await self._read(lambda conn: _fetch_all(conn, sql, params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None:
        return await self._read(lambda conn: _fetch_one(conn, sql, params))

    async def _read(self, reading: Callable[[PoolConnectionProxy], Awaitable[T]]) -> T:
        """A read's result, told to the outage (RecordsUnavailable if the server is out of reach)."""
        try:
            result = await self._use(reading)
        except Exception as error:
            if not _out_of_reach(error):
                raise
            raise self.outage.failed(error) from error
        self.outage.answered()
        return result

    async def _use(self, work: Callable[[PoolConnectionProxy], Awaitable[T]]) -> T:
        """`work` on a pooled connection, watched for a silent server: once it has had no answer for
        PATIENCE_SECONDS, the server is asked on a connection of its own whether it answers at all. If it
        does not, the use's connection is closed (or, while the use still waits for one, the wait is ended)
        and the use fails with TimeoutError, which says the server is out of reach; if it does, the server
        is only slow, and the use goes on."""
        loop = asyncio.get_running_loop()
        held: list[PoolConnectionProxy] = []
        silenced = ended = False
        try:
            async with asyncio.timeout(None) as waiting:

                def heard(answers: asyncio.Task[bool]) -> None:
                    nonlocal silenced
                    if ended or answers.cancelled() or answers.result():
                        return
                    silenced = True
                    if held:
                        held[0].terminate()  # its statement fails at once, however it was waiting
                    else:
                        waiting.reschedule(loop.time())  # no connection yet: the wait for one ends now

                watch = loop.call_later(PATIENCE_SECONDS, lambda: self._answers().add_done_callback(heard))
                try:
                    async with self._pool.acquire() as conn:
                        held.append(conn)
                        return await work(conn)
                finally:
                    ended = True
                    watch.cancel()
        except Exception as error:
            if silenced:
                raise TimeoutError(f"no answer from the server within {_SILENT:g} s") from error
            raise

    def _answers(self) -> asyncio.Task[bool]:
        """Whether the server answers a connection of its own within PROBE_SECONDS (one question at a time,
        shared by every use that waits meanwhile)."""
        if self._probe is None or self._probe.done():
            self._probe = asyncio.ensure_future(_answers(self._url))
        return self._probe

    @classmethod
    async def open(cls, url: str) -> Self:
        """Connect to the database at `url`; DatabaseUnavailableError naming HOG_DATABASE_URL if it cannot."""
        # No floor of idle connections (min_size=0): while the server is out of reach, asyncpg would log a
        # traceback each time it failed to restore one. The first connection is made here instead.
        pool = asyncpg.create_pool(
            url,
            min_size=0,
            max_size=POOL_SIZE,
            timeout=CONNECT_SECONDS,
            command_timeout=STATEMENT_SECONDS,
            reset=_as_it_is,
        )
        try:
            await pool
            async with pool.acquire():
                pass
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            pool.terminate()
            reason = _reason(error, tls="ssl" in urlsplit(url).query)
            raise DatabaseUnavailableError(
                f"HOG_DATABASE_URL: cannot open {redacted(url)}: {reason}"
            ) from None
        return cls(pool, url)

    async def write(self, work: Work[T]) -> T:
        """Run `work` in a transaction of its own; its result once committed. A transaction PostgreSQL
        chose to abort (a deadlock between two writers) is run again: works act only through the
        connection, so running one again is safe."""
        if self._pool.is_closing():
            raise RuntimeError("The database is closed.")
        attempt = 1
        while True:
            try:
                result = await self._use(lambda conn: _transaction(conn, work))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == ATTEMPTS:
                    raise
                attempt += 1
            except Exception as error:
                if not _out_of_reach(error):
                    raise
                raise self.outage.failed(error, wrote=True) from error
            else:
                self.outage.answered(wrote=True)
                return result

    async def close(self) -> None:
        """Wait for the connections in use to be released (bounded), then close the pool."""
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()


_SILENT = PATIENCE_SECONDS + PROBE_SECONDS


async def _transaction(conn: PoolConnectionProxy, work: Work[T]) -> T:
    async with conn.transaction():
        return await work(PostgresConnection(conn))


async def _answers(url: str) -> bool:
    """Whether the server at `url` answers a new connection within PROBE_SECONDS: with its handshake, or any
    refusal in its own words; a connection that gets nothing back, or none at all, is no answer."""
    try:
        conn = await asyncpg.connect(url, timeout=PROBE_SECONDS)
    except asyncpg.PostgresError:
        return True
    except (OSError, asyncpg.InterfaceError):  # TimeoutError is an OSError
        return False
    conn.terminate()
    return True


def _reason(error: Exception, tls: bool = False) -> str:
    """What went wrong, in the words an operator acts on (`tls`: the URL sets ssl parameters)."""
    if isinstance(error, socket.gaierror):
        return "the host name is not known"
    if isinstance(error, ConnectionRefusedError):
        return "the server refused the connection (is PostgreSQL running there?)"
    if isinstance(error, TimeoutError):
        return f"no answer within {CONNECT_SECONDS:.0f} s"
    if isinstance(error, asyncpg.ClientConfigurationError) and tls:  # a certificate file, a bad sslmode
        return f"the TLS settings cannot be used: {str(error).splitlines()[0]}"
    if isinstance(error, ValueError):  # the driver's own words may quote a piece of the password
        return "the URL cannot be read (check its parameters; percent-encode @ / : ? # in user or password)"
    return str(error).splitlines()[0] if str(error) else type(error).__name__
