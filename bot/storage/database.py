"""The database interface the repositories speak, with two backends: SQLite (`sqlite.py`, the embedded
default) and PostgreSQL (`postgres.py`, for several processes).

Reads of committed data go through `fetch_all`/`fetch_one`; every change runs in `write(work)`, where `work`
gets a `Connection` inside one transaction. SQL is written once with `?` placeholders; a backend whose
driver numbers its parameters rewrites them. Records are column name to value, met only by the mappers.
A database out of reach (a server down, a file locked or failing) makes every use raise RecordsUnavailable, a
refusal whose words are safe to show, and is logged once per outage by the database's `outage`.
"""

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

from bot.storage.outage import Outage

Record = Mapping[str, Any]
Dialect = Literal["sqlite", "postgresql"]
T = TypeVar("T")
NEW = 0  # the id of a domain object not stored yet: inserts do not read it


class DatabaseUnavailableError(Exception):
    """The configured database cannot be opened; the text names the setting and the cause, never a
    password (an operator's problem, said in one line)."""


class Reader(Protocol):
    """Runs queries: the database's reader sees committed data, a transaction's connection its own."""

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Record]: ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Record | None: ...


class Connection(Reader, Protocol):
    """The connection of an open write transaction."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def insert(self, table: str, values: Mapping[str, Any]) -> None:
        """Insert one row (column names come from code, never from users)."""
        ...

    async def insert_id(self, table: str, values: Mapping[str, Any]) -> int:
        """Insert one row into a table whose `id` the database assigns; the new id."""
        ...

    async def lock(self, key: int) -> None:
        """Wait until no other work holds `key` (another process's transaction; the works of a SQLite batch
        run one after another), then hold it until this work ends (a check-then-write that must not
        interleave)."""
        ...


Work = Callable[[Connection], Awaitable[T]]


async def nothing(conn: Connection) -> None:
    """A write of nothing: whether a write transaction can be had at all (the probe of an outage)."""


class Database(Reader, Protocol):
    """A reader of committed data plus write transactions, in one SQL dialect."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def outage(self) -> Outage:
        """Whether the database answers (each use is reported to it, and its failures become
        RecordsUnavailable)."""
        ...

    async def write(self, work: Work[T]) -> T:
        """Run `work` in a write transaction; its result once committed (nothing of it if it raised)."""
        ...

    async def close(self) -> None: ...
