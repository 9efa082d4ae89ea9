"""Repository of players: the people the bot knows, by platform id, with the name last seen."""

from collections.abc import Iterable
from typing import Literal

from bot.domain.matches import Player
from bot.storage.database import Connection, Reader
from bot.storage.sql import marks


async def upsert_players(conn: Connection, players: Iterable[Player], now: float) -> None:
    """Record each player, refreshing the name of someone already known; in id order, so two transactions
    recording the same people (a game and its rematch, seats swapped) never wait on each other in a cycle."""
    await conn.execute_many(
        "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
        [(player.id, player.name, now, now) for player in sorted(players, key=lambda player: player.id)],
    )


async def known_players(conn: Connection, ids: Iterable[int]) -> set[int]:
    """Which of these people are still recorded (not forgotten), read inside the caller's transaction."""
    wanted = list(ids)
    rows = await conn.fetch_all(f"SELECT id FROM players WHERE id IN ({marks(wanted)})", wanted)
    return {row["id"] for row in rows}


# The settings a person may change (their columns, all 0/1), and each one's value for someone who never did.
Setting = Literal["turn_notices", "coach"]
DEFAULTS: dict[Setting, bool] = {"turn_notices": True, "coach": False}


async def set_setting(conn: Connection, player: Player, setting: Setting, on: bool, now: float) -> None:
    """Turn one of this person's settings on or off, recording them too if they are new."""
    if setting not in DEFAULTS:
        raise ValueError(f"no such setting: {setting}")
    await conn.execute(
        f"INSERT INTO players (id, name, created_at, updated_at, {setting}) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at,"
        f" {setting} = excluded.{setting}",
        (player.id, player.name, now, now, int(on)),
    )


async def setting_of(db: Reader, player_id: int, setting: Setting) -> bool:
    """Whether this person has the setting on (its default if the bot never met them)."""
    if setting not in DEFAULTS:
        raise ValueError(f"no such setting: {setting}")
    row = await db.fetch_one(f"SELECT {setting} FROM players WHERE id = ?", (player_id,))
    return DEFAULTS[setting] if row is None else bool(row[setting])


async def known_player(db: Reader, player_id: int) -> Player | None:
    """The person as the bot last saw them (None: never met, or forgotten)."""
    row = await db.fetch_one("SELECT id, name FROM players WHERE id = ?", (player_id,))
    return None if row is None else Player(row["id"], row["name"])
