"""Repository of what course staff set and students link on a server: its staff role, and each person's
course id (shown only in staff exports; forget-me deletes it). Writes take a transaction's connection."""

from collections.abc import Iterable

from bot.storage.database import Connection, Reader
from bot.storage.sql import marks


async def staff_role(db: Reader, guild_id: int) -> int | None:
    """The server's staff role, if a manager set one."""
    row = await db.fetch_one("SELECT role_id FROM guild_staff WHERE guild_id = ?", (guild_id,))
    return None if row is None else int(row["role_id"])


async def set_staff_role(
    conn: Connection, guild_id: int, role_id: int | None, set_by: int, now: float
) -> None:
    """Make `role_id` the server's staff role (None: none)."""
    if role_id is None:
        await conn.execute("DELETE FROM guild_staff WHERE guild_id = ?", (guild_id,))
        return
    await conn.execute(
        "INSERT INTO guild_staff (guild_id, role_id, set_by, set_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id, set_by = excluded.set_by,"
        " set_at = excluded.set_at",
        (guild_id, role_id, set_by, now),
    )


async def link(conn: Connection, guild_id: int, player_id: int, course_id: str, now: float) -> None:
    """Link a course id to the person on this server (replacing the one linked before); the person is
    recorded already."""
    await conn.execute(
        "INSERT INTO course_ids (guild_id, player_id, course_id, linked_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, player_id) DO UPDATE SET course_id = excluded.course_id,"
        " linked_at = excluded.linked_at",
        (guild_id, player_id, course_id, now),
    )


async def course_ids(db: Reader, guild_id: int, player_ids: Iterable[int]) -> dict[int, str]:
    """The course ids these people linked on this server, by person (those who linked none are left out)."""
    wanted = list(player_ids)
    if not wanted:
        return {}
    rows = await db.fetch_all(
        f"SELECT player_id, course_id FROM course_ids WHERE guild_id = ? AND player_id IN ({marks(wanted)})",
        (guild_id, *wanted),
    )
    return {row["player_id"]: row["course_id"] for row in rows}
