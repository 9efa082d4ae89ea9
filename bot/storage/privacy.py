"""Repository side of forget-me: a user's records re-pointed to an anonymous player, their row removed.

Every table that names a player is listed here; a new one must be added (tests check none is missed).
"""

from bot.domain.matches import OPEN
from bot.storage.database import Connection, Reader
from bot.storage.sql import among

# (table, column) holding a player id that is kept, re-pointed to the anonymous player.
REPOINTED = (
    ("matches", "player0_id"),
    ("matches", "player1_id"),
    ("turns", "user_id"),
    ("rating_history", "player_id"),
)
# (table, column) holding a player id that is cleared.
CLEARED = (
    ("tournaments", "started_by"),
    ("tournament_standings", "owner_id"),
    ("activity_instances", "host_id"),
)
# (table, column) whose rows go with the player (strategies are deleted before, by the strategy repo).
DELETED = (
    ("ratings", "player_id"),
    ("strategies", "owner_id"),
    ("upload_cooldowns", "player_id"),
    ("course_ids", "player_id"),
)


async def open_match_ids(db: Reader, player_id: int) -> list[int]:
    """The player's pending or active matches."""
    rows = await db.fetch_all(
        f"SELECT id FROM matches WHERE status IN {among(OPEN)} AND (player0_id = ? OR player1_id = ?)",
        (player_id, player_id),
    )
    return [row["id"] for row in rows]


async def anonymise(
    conn: Connection, player_id: int, anonymous_id: int, anonymous_name: str, now: float
) -> int:
    """Move the player's records to a new anonymous player, drop their ratings and their player row;
    returns how many matches were re-pointed (nothing happens to a player never recorded)."""
    if await conn.fetch_one("SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
        return 0
    await conn.execute(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
        (anonymous_id, anonymous_name, now, now),
    )
    counted = await conn.fetch_one(
        "SELECT COUNT(*) AS n FROM matches WHERE player0_id = ? OR player1_id = ?", (player_id, player_id)
    )
    for table, column in REPOINTED:
        await conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (anonymous_id, player_id))
    for table, column in CLEARED:
        await conn.execute(f"UPDATE {table} SET {column} = NULL WHERE {column} = ?", (player_id,))
    for table, column in DELETED:
        await conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (player_id,))
    await conn.execute("DELETE FROM players WHERE id = ?", (player_id,))
    return 0 if counted is None else int(counted["n"])
