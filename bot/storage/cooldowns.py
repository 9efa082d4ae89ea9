"""Repository of upload cooldowns: when each person's cooldown started and their recent quick refusals."""

import json

from bot.domain.matches import Player
from bot.storage.database import Connection, Reader
from bot.storage.players import upsert_players


async def cooldown(db: Reader, player_id: int) -> tuple[float | None, list[float]]:
    """When the person's cooldown started (None: never), and the times of their recent quick refusals."""
    row = await db.fetch_one(
        "SELECT charged_at, quick_tries FROM upload_cooldowns WHERE player_id = ?", (player_id,)
    )
    return (None, []) if row is None else (row["charged_at"], json.loads(row["quick_tries"]))


async def save_cooldown(
    conn: Connection, player: Player, charged_at: float | None, quick_tries: list[float], now: float
) -> None:
    await upsert_players(conn, [player], now)
    await conn.execute(
        "INSERT INTO upload_cooldowns (player_id, charged_at, quick_tries) VALUES (?, ?, ?)"
        " ON CONFLICT (player_id) DO UPDATE SET charged_at = excluded.charged_at,"
        " quick_tries = excluded.quick_tries",
        (player.id, charged_at, json.dumps(quick_tries)),
    )
