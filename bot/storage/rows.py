"""Row inserts shared by the repositories: column names come from code, never from users."""

from collections.abc import Mapping
from typing import Any

import aiosqlite


async def insert_row(conn: aiosqlite.Connection, table: str, values: Mapping[str, Any]) -> int:
    """Insert one row inside the caller's transaction; returns its row id."""
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = await conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(values.values()))
    if cursor.lastrowid is None:
        raise RuntimeError(f"SQLite returned no id for the new {table} row.")
    return cursor.lastrowid
