"""Repository of uploaded strategies and of the strategy a house-bot game plays, with their mappers.

Writes take the connection of an open transaction; reads take a reader. Listings leave out the
10,000-byte table; `with_table` reads add it. A table is stored as its 10,000 int8 choices, row by row; a
strategy that answers at random stores every table recorded of it so, one after another, its table first.
"""

import json

import numpy as np

from bot.domain.matches import Player
from bot.domain.strategies import BotStrategy, Matchup, StoredStrategy
from bot.storage.database import Connection, Reader, Record
from bot.storage.sql import marks
from hogengine.strategies import SIZE, Table

_COLUMNS = (
    "s.id, s.guild_id, s.owner_id, p.name AS owner_name, s.name, s.team_name, s.rules, s.source_kind,"
    " s.source_hash, s.table_hash, s.active, s.figures, s.cpu_seconds, s.created_at, s.replaced_at"
)
_FROM = " FROM strategies s JOIN players p ON p.id = s.owner_id"


def table_bytes(table: Table) -> bytes:
    """The 10,000 choices as int8 bytes, row by row (what is stored and hashed)."""
    return np.ascontiguousarray(table, dtype=np.int8).tobytes()


def _tables_from(data: bytes) -> tuple[Table, ...]:
    """The tables stored one after another: one, or a random strategy's recorded tables."""
    return tuple(table.copy() for table in np.frombuffer(data, dtype=np.int8).reshape(-1, SIZE, SIZE))


def _figures_json(figures: tuple[Matchup, ...]) -> str:
    return json.dumps([[m.opponent, m.first, m.second, m.average] for m in figures])


def figures_from(text: str | None) -> tuple[Matchup, ...]:
    """Stored figures (JSON text) as Matchups."""
    return tuple(Matchup(*item) for item in json.loads(text)) if text else ()


def _strategy_from(row: Record) -> StoredStrategy:
    """A StoredStrategy from its row (with the table if the row carries it)."""
    tables = _tables_from(row["table_data"]) if "table_data" in row else ()
    return StoredStrategy(
        id=row["id"],
        guild_id=row["guild_id"],
        owner=Player(row["owner_id"], row["owner_name"]),
        name=row["name"],
        team_name=row["team_name"],
        rules=row["rules"],
        source_kind=row["source_kind"],
        source_hash=row["source_hash"],
        table_hash=row["table_hash"],
        active=bool(row["active"]),
        figures=figures_from(row["figures"]),
        cpu_seconds=row["cpu_seconds"],
        created_at=row["created_at"],
        replaced_at=row["replaced_at"],
        table=tables[0] if tables else None,
        tables=tables if len(tables) > 1 else (),
    )


async def _select(
    db: Reader, where: str, params: list[object], with_table: bool = False
) -> list[StoredStrategy]:
    table = ", s.table_data" if with_table else ""
    rows = await db.fetch_all(f"SELECT {_COLUMNS}{table}{_FROM} WHERE {where}", params)
    return [_strategy_from(row) for row in rows]


async def _first(
    db: Reader, where: str, params: list[object], with_table: bool = False
) -> StoredStrategy | None:
    return next(iter(await _select(db, where, params, with_table)), None)


async def insert_strategy(conn: Connection, strategy: StoredStrategy) -> int:
    """Store a new strategy version with its table (its `id` is not read); returns its id."""
    if strategy.table is None:
        raise ValueError("A strategy is stored with its table.")
    return await conn.insert_id(
        "strategies",
        {
            "guild_id": strategy.guild_id,
            "owner_id": strategy.owner.id,
            "name": strategy.name,
            "name_key": strategy.name.casefold(),
            "team_name": strategy.team_name,
            "rules": strategy.rules,
            "source_kind": strategy.source_kind,
            "table_data": b"".join(map(table_bytes, strategy.tables or (strategy.table,))),
            "source_hash": strategy.source_hash,
            "table_hash": strategy.table_hash,
            "active": int(strategy.active),
            "figures": _figures_json(strategy.figures),
            "cpu_seconds": strategy.cpu_seconds,
            "created_at": strategy.created_at,
            "replaced_at": strategy.replaced_at,
        },
    )


async def retire_strategy(conn: Connection, strategy_id: int, now: float) -> bool:
    """Mark an active version as replaced (kept as history); False if it was no longer active."""
    updated = await conn.execute(
        "UPDATE strategies SET active = 0, replaced_at = ? WHERE id = ? AND active = 1", (now, strategy_id)
    )
    return updated == 1


async def active_by_name(
    db: Reader, guild_id: int, name: str, with_table: bool = False
) -> StoredStrategy | None:
    """The active strategy of that name (any case) on a server; through a transaction's connection, as
    that transaction sees it."""
    return await _first(
        db, "s.guild_id = ? AND s.name_key = ? AND s.active = 1", [guild_id, name.casefold()], with_table
    )


async def get_strategy(db: Reader, strategy_id: int, with_table: bool = False) -> StoredStrategy | None:
    return await _first(db, "s.id = ?", [strategy_id], with_table)


async def active_strategies(
    db: Reader,
    guild_id: int,
    rules: str | None = None,
    owner_id: int | None = None,
    with_table: bool = False,
) -> list[StoredStrategy]:
    """A server's active strategies, optionally of one rule set or one owner, oldest first."""
    where, params = ["s.guild_id = ?", "s.active = 1"], list[object]([guild_id])
    for column, value in (("s.rules", rules), ("s.owner_id", owner_id)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    return await _select(db, f"{' AND '.join(where)} ORDER BY s.id", params, with_table)


async def active_at(
    db: Reader, guild_id: int, rules: str, when: float, with_table: bool = False
) -> list[StoredStrategy]:
    """A server's strategies of one rule set as they were at `when`: each name's version then active (one
    uploaded by then and not yet replaced), oldest first; strategies deleted since are gone."""
    return await _select(
        db,
        "s.guild_id = ? AND s.rules = ? AND s.created_at <= ?"
        " AND (s.replaced_at IS NULL OR s.replaced_at > ?) ORDER BY s.id",
        [guild_id, rules, when, when],
        with_table,
    )


async def versions(db: Reader, guild_id: int, name: str) -> list[StoredStrategy]:
    """Every version of a name (any case) on a server (the active one last)."""
    return await _select(
        db, "s.guild_id = ? AND s.name_key = ? ORDER BY s.active, s.id", [guild_id, name.casefold()]
    )


async def same_table(
    db: Reader, rules: str, table_hash: str, guild_id: int | None = None, excluding: int | None = None
) -> StoredStrategy | None:
    """A strategy with this very table under these rules: with figures anywhere, or active on a server."""
    if guild_id is None:
        return await _first(
            db,
            "s.rules = ? AND s.table_hash = ? AND s.figures IS NOT NULL ORDER BY s.id",
            [rules, table_hash],
        )
    return await _first(
        db,
        "s.rules = ? AND s.table_hash = ? AND s.guild_id = ? AND s.active = 1 AND s.id <> ? ORDER BY s.id",
        [rules, table_hash, guild_id, -1 if excluding is None else excluding],
    )


async def _unlink(conn: Connection, ids: list[int], renamed: str | None) -> None:
    """Drop references to these strategy versions from tournaments and bot games (renaming them there)."""
    name = ", name = ?" if renamed is not None else ""
    extra = [renamed] if renamed is not None else []
    for table in ("tournament_standings", "match_strategies"):
        await conn.execute(
            f"UPDATE {table} SET strategy_id = NULL{name} WHERE strategy_id IN ({marks(ids)})", [*extra, *ids]
        )


async def delete_strategies(conn: Connection, ids: list[int], renamed: str | None = None) -> int:
    """Delete these strategy versions; past standings and games keep their name (or `renamed`)."""
    if not ids:
        return 0
    await _unlink(conn, ids, renamed)
    return await conn.execute(f"DELETE FROM strategies WHERE id IN ({marks(ids)})", ids)


async def _ids(conn: Connection, where: str, params: list[object]) -> list[int]:
    return [row["id"] for row in await conn.fetch_all(f"SELECT id FROM strategies WHERE {where}", params)]


async def stored_ids(conn: Connection, ids: list[int]) -> set[int]:
    """Which of these strategy versions are still stored, read inside the caller's transaction."""
    return set(await _ids(conn, f"id IN ({marks(ids)})", list(ids)))


async def version_ids(conn: Connection, guild_id: int, name: str) -> list[int]:
    """Every version of a name (any case) on a server, read inside the caller's transaction."""
    return await _ids(conn, "guild_id = ? AND name_key = ?", [guild_id, name.casefold()])


async def owned_ids(conn: Connection, owner_id: int) -> list[int]:
    """Every strategy version of this owner on every server, read inside the caller's transaction."""
    return await _ids(conn, "owner_id = ?", [owner_id])


async def insert_bot_strategy(conn: Connection, match_id: int, strategy: BotStrategy) -> None:
    """Record which stored strategy a house-bot game plays, with a copy of its table."""
    await conn.execute(
        "INSERT INTO match_strategies (match_id, strategy_id, name, table_data) VALUES (?, ?, ?, ?)",
        (match_id, strategy.strategy_id, strategy.name, table_bytes(strategy.table)),
    )


async def bot_strategy(db: Reader, match_id: int) -> BotStrategy | None:
    """The stored strategy a house-bot game plays, if it plays one."""
    row = await db.fetch_one("SELECT * FROM match_strategies WHERE match_id = ?", (match_id,))
    if row is None:
        return None
    (table,) = _tables_from(row["table_data"])
    return BotStrategy(row["strategy_id"], row["name"], table)
