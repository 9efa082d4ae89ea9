"""The migration runner: applies `bot/migrations/NNNN_name.sql` (shipped in the package) in order, each in
its own transaction.

Applied versions are rows of `schema_migrations` (portable, unlike `PRAGMA user_version`); a file
that fails rolls back entirely and stops the run, leaving every earlier version applied. Foreign keys
are checked at each migration's commit, not per statement, so a migration may rebuild a table.
"""

import re
import sqlite3
import time
from dataclasses import dataclass
from functools import partial
from importlib.resources import files
from pathlib import Path

from bot.storage.database import Connection, Database
from bot.storage.sqlite import SqliteDatabase

# Package data (pyproject.toml ships *.sql), so a wheel install migrates exactly as the source tree does.
MIGRATIONS_DIR = Path(str(files("bot") / "migrations"))
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
SCHEMA_FILE = "schema.sql"  # the current schema, for reading (see schema.py): never applied


class MigrationError(Exception):
    """A migration file that is misnamed or failed to apply (an operator's problem, not a user's)."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every migration file in the folder, in version order; refuses stray names and duplicate versions."""
    found: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        if path.name == SCHEMA_FILE:
            continue
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"Migration file {path.name} is not named NNNN_name.sql.")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"Two migration files have version {version}.")
        found[version] = Migration(version, match.group(2), path)
    return [found[version] for version in sorted(found)]


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


async def _apply(migration: Migration, conn: Connection) -> None:
    """Every statement of one migration, and its version row (the caller's transaction holds them)."""
    await conn.execute("PRAGMA defer_foreign_keys = ON")  # until this transaction commits
    for statement in statements(migration.path.read_text(encoding="utf-8")):
        await conn.execute(statement)
    await conn.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, time.time()),
    )


async def migrate(db: Database, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet applied; returns the versions applied by this run."""
    await db.write(
        lambda conn: conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
    )
    migrations = discover(directory)
    if not migrations:  # an install that lost its package data would start on a database with no tables
        raise MigrationError(f"No migrations found in {directory}: the installation is incomplete.")
    done = set(await applied_versions(db))
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        try:
            await db.write(partial(_apply, migration))
        except sqlite3.Error as error:
            raise MigrationError(f"Migration {migration.path.name} failed: {error}") from error
        applied.append(migration.version)
    return applied


async def open_migrated(path: Path) -> SqliteDatabase:
    """Open (creating if needed) the database file and apply every pending migration."""
    db = await SqliteDatabase.open(path)
    try:
        await migrate(db)
    except BaseException:
        await db.close()
        raise
    return db
