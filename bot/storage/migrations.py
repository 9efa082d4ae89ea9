"""The migration runner: applies `migrations/NNNN_name.sql` (installed as the package `bot.migrations`) in
order, each in its own transaction, on SQLite or PostgreSQL.

A migration is portable SQL, one file for both dialects; where no portable form exists, the version has one
file per dialect instead, named `NNNN_name.sqlite.sql` and `NNNN_name.postgresql.sql`. Applied versions are
rows of `schema_migrations`; a file that fails rolls back entirely and stops the run, leaving every earlier
version applied. Each transaction first takes the migration lock (SQLite's write lock; a PostgreSQL
advisory lock) and skips a version another process applied meanwhile, so processes that start together
apply each migration once. On SQLite, foreign keys are checked at each migration's commit, not per
statement, so a migration may rebuild a table.
"""

import re
import sqlite3
import time
from dataclasses import dataclass
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import get_args

from bot.domain.errors import RecordsUnavailable
from bot.storage.database import Connection, Database, Dialect
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase

# The top-level migrations/, which pyproject.toml installs as bot.migrations with its *.sql: a wheel install
# migrates exactly as the source tree does.
MIGRATIONS_DIR = Path(str(files("bot.migrations")))
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(sqlite|postgresql))?\.sql$")
SCHEMA_FILE = "schema.sql"  # the current schema, for reading (see schema.py): never applied
DIALECTS: tuple[Dialect, ...] = get_args(Dialect)
MIGRATIONS_LOCK = 0x686F67  # the lock key migrations take ("hog")


class MigrationError(Exception):
    """A migration file that is misnamed or failed to apply (an operator's problem, not a user's)."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    paths: dict[Dialect, Path]  # the file each dialect runs (one portable file serves both)

    @property
    def files(self) -> list[Path]:
        """Every file of this version (one portable file, or one per dialect)."""
        return sorted(set(self.paths.values()))


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every migration in the folder, in version order; refuses stray names, a version written twice, and a
    dialect file without its counterpart for the other dialect."""
    found: dict[int, list[tuple[str, str | None, Path]]] = {}
    for path in sorted(directory.glob("*.sql")):
        if path.name == SCHEMA_FILE:
            continue
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(
                f"Migration file {path.name} is not named NNNN_name.sql (or NNNN_name.DIALECT.sql)."
            )
        found.setdefault(int(match.group(1)), []).append((match.group(2), match.group(3), path))
    return [_migration(version, found[version]) for version in sorted(found)]


def _migration(version: int, entries: list[tuple[str, str | None, Path]]) -> Migration:
    names = {name for name, _, _ in entries}
    dialects = sorted(dialect or "" for _, dialect, _ in entries)
    if len(names) > 1 or dialects not in ([""], sorted(DIALECTS)):
        raise MigrationError(
            f"Two migration files have version {version}: give it one portable file, or one per dialect"
            f" ({', '.join(DIALECTS)})."
        )
    paths: dict[Dialect, Path] = {}
    for _, dialect, path in entries:
        for each in DIALECTS:
            if dialect in (None, each):
                paths[each] = path
    return Migration(version, names.pop(), paths)


def statements(sql: str) -> list[str]:
    """The SQL statements of a script, split where SQLite says a statement is complete."""
    result: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            result.append(pending.strip())
            pending = ""
    if any(line.strip() and not line.strip().startswith("--") for line in pending.splitlines()):
        raise MigrationError("A migration ends with an unfinished statement.")
    return result


async def applied_versions(db: Database) -> list[int]:
    rows = await db.fetch_all("SELECT version FROM schema_migrations ORDER BY version")
    return [row["version"] for row in rows]


async def _locked(dialect: Dialect, conn: Connection) -> None:
    """Take the migrations' lock for this transaction (and defer SQLite's foreign keys to its commit)."""
    await conn.lock(MIGRATIONS_LOCK)
    if dialect == "sqlite":
        await conn.execute("PRAGMA defer_foreign_keys = ON")


async def _bootstrap(dialect: Dialect, conn: Connection) -> None:
    await _locked(dialect, conn)
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
    )


async def _apply(migration: Migration, dialect: Dialect, conn: Connection) -> bool:
    """Every statement of one migration, and its version row; False if another process applied it first."""
    await _locked(dialect, conn)
    done = "SELECT 1 FROM schema_migrations WHERE version = ?"
    if await conn.fetch_one(done, (migration.version,)) is not None:
        return False
    for statement in statements(migration.paths[dialect].read_text(encoding="utf-8")):
        await conn.execute(statement)
    await conn.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, time.time()),
    )
    return True


async def migrate(db: Database, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet applied; returns the versions applied by this run."""
    migrations = discover(directory)
    if not migrations:  # an install that lost its package data would start on a database with no tables
        raise MigrationError(f"No migrations found in {directory}: the installation is incomplete.")
    try:
        await db.write(partial(_bootstrap, db.dialect))
        done = set(await applied_versions(db))
    except Exception as error:  # a file another process keeps locked past the busy timeout, say
        raise MigrationError(f"Cannot read which migrations the database has: {_why(error)}") from error
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        try:
            if await db.write(partial(_apply, migration, db.dialect)):
                applied.append(migration.version)
        except Exception as error:  # any failure of the file's SQL: say which file, keep earlier versions
            name = migration.paths[db.dialect].name
            raise MigrationError(f"Migration {name} failed: {_why(error)}") from error
    return applied


def _why(error: Exception) -> object:
    """A failure in the driver's words, for the operator (a RecordsUnavailable keeps them apart from the
    words players read)."""
    return error.reason if isinstance(error, RecordsUnavailable) else error


async def open_migrated(path: Path, url: str | None = None) -> Database:
    """Open the PostgreSQL database at `url` if given, else the SQLite file at `path` (created if needed),
    and apply every pending migration."""
    db: Database = await (SqliteDatabase.open(path) if url is None else PostgresDatabase.open(url))
    try:
        await migrate(db)
    except BaseException:
        await db.close()
        raise
    return db
