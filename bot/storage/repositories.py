"""Repositories for players, matches and turns: plain SQL over column dictionaries.

Writes take the connection of an open transaction (the service owns transactions); reads go through
the database's reader. A match update is conditional on the version the caller read, so a change based
on stale data (a double press, a second process) touches nothing and returns None.
"""

from collections.abc import Iterable, Mapping
from typing import Any

import aiosqlite

from bot.storage.db import Database, Row
from bot.storage.rows import insert_row

OPEN_STATUSES = ("pending", "active")
# A match with the names of its players and of the stored strategy the house bot plays, if any.
MATCH_SELECT = (
    "SELECT m.*, p0.name AS player0_name, p1.name AS player1_name, ms.name AS strategy_name FROM matches m"
    " LEFT JOIN players p0 ON p0.id = m.player0_id LEFT JOIN players p1 ON p1.id = m.player1_id"
    " LEFT JOIN match_strategies ms ON ms.match_id = m.id"
)
_OPEN = "m.status IN ('pending', 'active')"


def _columns(values: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """`a = ?, b = ?` and its parameters; column names come from code, never from users."""
    return ", ".join(f"{name} = ?" for name in values), list(values.values())


async def upsert_players(conn: aiosqlite.Connection, players: Iterable[tuple[int, str]], now: float) -> None:
    """Record each (id, name), refreshing the name of someone already known."""
    await conn.executemany(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
        [(player_id, name, now, now) for player_id, name in players],
    )


async def known_players(conn: aiosqlite.Connection, ids: Iterable[int]) -> set[int]:
    """Which of these people are still recorded (not forgotten), read inside the caller's transaction."""
    wanted = list(ids)
    marks = ", ".join("?" for _ in wanted)
    rows = await conn.execute_fetchall(f"SELECT id FROM players WHERE id IN ({marks})", wanted)
    return {row[0] for row in rows}


async def insert_match(conn: aiosqlite.Connection, values: Mapping[str, Any]) -> int:
    """A new match row; returns its id."""
    return await insert_row(conn, "matches", values)


async def update_match(
    conn: aiosqlite.Connection, match_id: int, version: int, changes: Mapping[str, Any]
) -> Row | None:
    """Apply `changes` and bump the version, only if the row still has `version`: the new row, or None
    if the match moved on."""
    assignments, params = _columns(changes)
    rows = await conn.execute_fetchall(
        f"UPDATE matches SET {assignments}, version = version + 1 WHERE id = ? AND version = ? RETURNING *",
        [*params, match_id, version],
    )
    return next((dict(row) for row in rows), None)


async def set_message(conn: aiosqlite.Connection, match_id: int, channel_id: int, message_id: int) -> bool:
    """Point the match at the message showing it (presentation only: no version bump)."""
    cursor = await conn.execute(
        "UPDATE matches SET channel_id = ?, message_id = ? WHERE id = ?", (channel_id, message_id, match_id)
    )
    return cursor.rowcount == 1


async def get_match(db: Database, match_id: int) -> Row | None:
    return await db.fetch_one(f"{MATCH_SELECT} WHERE m.id = ?", (match_id,))


async def open_match_for(db: Database, channel_id: int, user_ids: Iterable[int]) -> Row | None:
    """An open match in the channel where any of these users plays (the newest, if several)."""
    ids = list(user_ids)
    marks = ", ".join("?" for _ in ids)
    return await db.fetch_one(
        f"{MATCH_SELECT} WHERE m.channel_id = ? AND {_OPEN}"
        f" AND (m.player0_id IN ({marks}) OR m.player1_id IN ({marks})) ORDER BY m.id DESC",
        (channel_id, *ids, *ids),
    )


async def due_matches(db: Database, now: float) -> list[Row]:
    """Pending challenges past their expiry and active games past their turn deadline."""
    return await db.fetch_all(
        f"{MATCH_SELECT} WHERE (m.status = 'pending' AND m.challenge_expires_at <= ?)"
        " OR (m.status = 'active' AND m.turn_deadline <= ?) ORDER BY m.id",
        (now, now),
    )


async def bot_to_move(db: Database) -> list[int]:
    """The ids of active games where the house bot is to move (no turn clock runs for it)."""
    rows = await db.fetch_all(
        "SELECT id FROM matches WHERE status = 'active' AND turn_deadline IS NULL AND bot_level IS NOT NULL"
        " AND mover = CASE WHEN player0_id IS NULL THEN 0 ELSE 1 END ORDER BY id"
    )
    return [row["id"] for row in rows]


async def rematch_of(db: Database, match_id: int) -> Row | None:
    """The match started as a rematch of this one, if any."""
    return await db.fetch_one(f"{MATCH_SELECT} WHERE m.rematch_of = ?", (match_id,))


async def insert_turn(conn: aiosqlite.Connection, values: Mapping[str, Any]) -> None:
    """Append one turn (turns are never updated or deleted)."""
    await insert_row(conn, "turns", values)


async def get_turns(db: Database, match_id: int) -> list[Row]:
    return await db.fetch_all("SELECT * FROM turns WHERE match_id = ? ORDER BY turn", (match_id,))


async def get_turn(db: Database, match_id: int, turn: int) -> Row | None:
    return await db.fetch_one("SELECT * FROM turns WHERE match_id = ? AND turn = ?", (match_id, turn))
