"""Floor 2, storage: the database interface, its SQLite backend and migration runner, and the repositories."""

from bot.storage.database import Connection, Database
from bot.storage.migrations import MigrationError, migrate, open_migrated
from bot.storage.sqlite import SqliteDatabase

__all__ = ["Connection", "Database", "MigrationError", "SqliteDatabase", "migrate", "open_migrated"]
