"""Floor 2, storage: the database interface, its SQLite and PostgreSQL backends, the migration runner, and
the repositories."""

from bot.storage.database import Connection, Database, DatabaseUnavailableError
from bot.storage.migrations import MigrationError, migrate, open_migrated
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase

__all__ = [
    "Connection",
    "Database",
    "DatabaseUnavailableError",
    "MigrationError",
    "PostgresDatabase",
    "SqliteDatabase",
    "migrate",
    "open_migrated",
]
