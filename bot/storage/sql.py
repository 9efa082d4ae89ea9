"""SQL pieces shared by the repositories: column names and statuses come from code, never from users."""

from collections.abc import Iterable, Mapping
from enum import StrEnum
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


def assignments(values: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """`a = ?, b = ?` and its parameters."""
    return ", ".join(f"{name} = ?" for name in values), list(values.values())


def among(values: Iterable[StrEnum]) -> str:
    """An SQL list of enum values, `('a', 'b')`, to write a group of statuses into a query once."""
    return "(" + ", ".join(f"'{value.value}'" for value in values) + ")"
