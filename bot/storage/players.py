"""Repository of players: the people the bot knows, by platform id, with the name last seen."""

from collections.abc import Iterable

from bot.domain.matches import Player
from bot.storage.database import Connection
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


async def set_turn_notices(conn: Connection, player: Player, wanted: bool, now: float) -> None:
    """Record whether this person wants turn notices, recording them too if they are new."""
    await conn.execute(
        "INSERT INTO players (id, name, created_at, updated_at, turn_notices) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at,"
        " turn_notices = excluded.turn_notices",
        (player.id, player.name, now, now, int(wanted)),
    )
