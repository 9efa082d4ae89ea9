"""Repository of players: the people the bot knows, by platform id, with the name last seen."""

from collections.abc import Iterable

import aiosqlite


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
