"""Floor 2, storage: the SQLite database, its migration runner and the repositories."""

from bot.storage.db import Database, Row
from bot.storage.migrations import MigrationError, migrate, open_migrated

__all__ = ["Database", "MigrationError", "Row", "migrate", "open_migrated"]
