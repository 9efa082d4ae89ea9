"""SQL pieces shared by the repositories: column names and statuses come from code, never from users."""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from bot.domain.shards import Shards


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


def in_shards(shards: Shards | None, guild: str = "guild_id") -> str:
    """` AND <the guild's shard> IN (...)`, keeping the rows of these shards' servers (Discord's rule, see
    Shards; no server: shard 0); nothing when a process runs every shard."""
    if shards is None:
        return ""
    shard = f"(COALESCE({guild}, 0) / {1 << 22}) % {shards.count}"
    return f" AND {shard} IN ({', '.join(str(shard_id) for shard_id in sorted(shards.ids))})"
