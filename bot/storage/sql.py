"""SQL pieces shared by the repositories: column names and statuses come from code, never from users."""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any


def assignments(values: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """`a = ?, b = ?` and its parameters."""
    return ", ".join(f"{name} = ?" for name in values), list(values.values())


def among(values: Iterable[StrEnum]) -> str:
    """An SQL list of enum values, `('a', 'b')`, to write a group of statuses into a query once."""
    return "(" + ", ".join(f"'{value.value}'" for value in values) + ")"


def marks(values: Iterable[Any]) -> str:
    """`?, ?, ?`: one placeholder per value, for an `IN (...)` list."""
    return ", ".join("?" for _ in values)


def insertion(table: str, values: Mapping[str, Any]) -> str:
    """`INSERT INTO table (a, b) VALUES (?, ?)` for these columns."""
    return f"INSERT INTO {table} ({', '.join(values)}) VALUES ({marks(values)})"
