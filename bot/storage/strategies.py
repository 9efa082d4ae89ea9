"""Repository of uploaded strategies and of the strategy a house-bot game plays: plain SQL.

Writes take the connection of an open transaction; reads go through the database's reader. Listings
leave out the 10,000-byte table; `with_table` reads add it.
"""

from collections.abc import Mapping
from typing import Any

import aiosqlite

from bot.storage.db import Database, Row
from bot.storage.sql import insert_row

_COLUMNS = (
    "s.id, s.guild_id, s.owner_id, p.name AS owner_name, s.name, s.name_key, s.rules, s.source_kind,"
    " s.source_hash, s.table_hash, s.active, s.figures, s.cpu_seconds, s.created_at, s.replaced_at"
)
_FROM = " FROM strategies s JOIN players p ON p.id = s.owner_id"


def _select(with_table: bool) -> str:
    return f"SELECT {_COLUMNS}{', s.table_data' if with_table else ''}{_FROM}"


async def insert_strategy(conn: aiosqlite.Connection, values: Mapping[str, Any]) -> int:
    """A new active strategy version; returns its id."""
    return await insert_row(conn, "strategies", values)


async def retire_strategy(conn: aiosqlite.Connection, strategy_id: int, now: float) -> bool:
    """Mark an active version as replaced (kept as history); False if it was no longer active."""
    cursor = await conn.execute(
        "UPDATE strategies SET active = 0, replaced_at = ? WHERE id = ? AND active = 1", (now, strategy_id)
    )
    return cursor.rowcount == 1


async def active_by_name(db: Database, guild_id: int, name_key: str, with_table: bool = False) -> Row | None:
    return await db.fetch_one(
        f"{_select(with_table)} WHERE s.guild_id = ? AND s.name_key = ? AND s.active = 1",
        (guild_id, name_key),
    )


async def get_strategy(db: Database, strategy_id: int, with_table: bool = False) -> Row | None:
    return await db.fetch_one(f"{_select(with_table)} WHERE s.id = ?", (strategy_id,))


async def active_strategies(
    db: Database,
    guild_id: int,
    rules: str | None = None,
    owner_id: int | None = None,
    with_table: bool = False,
) -> list[Row]:
    """A server's active strategies, optionally of one rule set or one owner, oldest first."""
    where, params = ["s.guild_id = ?", "s.active = 1"], list[object]([guild_id])
    for column, value in (("s.rules", rules), ("s.owner_id", owner_id)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    return await db.fetch_all(f"{_select(with_table)} WHERE {' AND '.join(where)} ORDER BY s.id", params)


async def versions(db: Database, guild_id: int, name_key: str) -> list[Row]:
    """Every version of a name on a server (the active one last)."""
    return await db.fetch_all(
        f"{_select(False)} WHERE s.guild_id = ? AND s.name_key = ? ORDER BY s.active, s.id",
        (guild_id, name_key),
    )


async def same_table(
    db: Database, rules: str, table_hash: str, guild_id: int | None = None, excluding: int | None = None
) -> Row | None:
    """A strategy with this very table under these rules: with figures anywhere, or active on a server."""
    if guild_id is None:
        return await db.fetch_one(
            f"{_select(False)} WHERE s.rules = ? AND s.table_hash = ? AND s.figures IS NOT NULL"
            " ORDER BY s.id",
            (rules, table_hash),
        )
    return await db.fetch_one(
        f"{_select(False)} WHERE s.rules = ? AND s.table_hash = ? AND s.guild_id = ? AND s.active = 1"
        " AND s.id <> ? ORDER BY s.id",
        (rules, table_hash, guild_id, -1 if excluding is None else excluding),
    )


async def active_owner(conn: aiosqlite.Connection, guild_id: int, name_key: str) -> tuple[int, int] | None:
    """(id, owner id) of the active strategy of that name, read inside the caller's transaction."""
    rows = await conn.execute_fetchall(
        "SELECT id, owner_id FROM strategies WHERE guild_id = ? AND name_key = ? AND active = 1",
        (guild_id, name_key),
    )
    return next(((row[0], row[1]) for row in rows), None)


async def _unlink(conn: aiosqlite.Connection, ids: list[int], renamed: str | None) -> None:
    """Drop references to these strategy versions from tournaments and bot games (renaming them there)."""
    marks = ", ".join("?" for _ in ids)
    name = ", name = ?" if renamed is not None else ""
    extra = [renamed] if renamed is not None else []
    for table in ("tournament_standings", "match_strategies"):
        await conn.execute(
            f"UPDATE {table} SET strategy_id = NULL{name} WHERE strategy_id IN ({marks})", [*extra, *ids]
        )


async def delete_strategies(conn: aiosqlite.Connection, ids: list[int], renamed: str | None = None) -> int:
    """Delete these strategy versions; past standings and games keep their name (or `renamed`)."""
    if not ids:
        return 0
    await _unlink(conn, ids, renamed)
    marks = ", ".join("?" for _ in ids)
    cursor = await conn.execute(f"DELETE FROM strategies WHERE id IN ({marks})", ids)
    return cursor.rowcount


async def stored_ids(conn: aiosqlite.Connection, ids: list[int]) -> set[int]:
    """Which of these strategy versions are still stored, read inside the caller's transaction."""
    marks = ", ".join("?" for _ in ids)
    rows = await conn.execute_fetchall(f"SELECT id FROM strategies WHERE id IN ({marks})", ids)
    return {row[0] for row in rows}


async def version_ids(conn: aiosqlite.Connection, guild_id: int, name_key: str) -> list[int]:
    """Every version of a name on a server, read inside the caller's transaction."""
    rows = await conn.execute_fetchall(
        "SELECT id FROM strategies WHERE guild_id = ? AND name_key = ?", (guild_id, name_key)
    )
    return [row[0] for row in rows]


async def owned_ids(conn: aiosqlite.Connection, owner_id: int) -> list[int]:
    """Every strategy version of this owner on every server, read inside the caller's transaction."""
    rows = await conn.execute_fetchall("SELECT id FROM strategies WHERE owner_id = ?", (owner_id,))
    return [row[0] for row in rows]


async def active_names(conn: aiosqlite.Connection, guild_id: int, owner_id: int, rules: str) -> list[str]:
    """The names of an owner's active strategies on a server under a rule set, inside the transaction."""
    rows = await conn.execute_fetchall(
        "SELECT name FROM strategies WHERE guild_id = ? AND owner_id = ? AND rules = ? AND active = 1"
        " ORDER BY id",
        (guild_id, owner_id, rules),
    )
    return [row[0] for row in rows]


async def insert_match_strategy(
    conn: aiosqlite.Connection, match_id: int, strategy_id: int | None, name: str, table_data: bytes
) -> None:
    """Record which stored strategy a house-bot game plays, with a copy of its table."""
    await conn.execute(
        "INSERT INTO match_strategies (match_id, strategy_id, name, table_data) VALUES (?, ?, ?, ?)",
        (match_id, strategy_id, name, table_data),
    )


async def match_strategy(db: Database, match_id: int) -> Row | None:
    return await db.fetch_one("SELECT * FROM match_strategies WHERE match_id = ?", (match_id,))
