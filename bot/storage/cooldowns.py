"""Repository of upload cooldowns: per person and rule set, when the last upload that kept the sandbox busy
was checked, and for how long it kept it busy."""

from bot.domain.matches import Player
from bot.storage.database import Connection, Reader
from bot.storage.players import upsert_players


async def cooldown(db: Reader, player_id: int, rules: str) -> tuple[float, float] | None:
    """When the person's last costly upload under these rules was charged, and its CPU seconds (None:
    none)."""
    row = await db.fetch_one(
        "SELECT charged_at, cpu_seconds FROM upload_cooldowns WHERE player_id = ? AND rules = ?",
        (player_id, rules),
    )
    return None if row is None else (row["charged_at"], row["cpu_seconds"])


async def save_cooldown(
    conn: Connection, player: Player, rules: str, charged_at: float, cpu_seconds: float
) -> None:
    await upsert_players(conn, [player], charged_at)
    await conn.execute(
        "INSERT INTO upload_cooldowns (player_id, rules, charged_at, cpu_seconds) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (player_id, rules) DO UPDATE SET charged_at = excluded.charged_at,"
        " cpu_seconds = excluded.cpu_seconds",
        (player.id, rules, charged_at, cpu_seconds),
    )
