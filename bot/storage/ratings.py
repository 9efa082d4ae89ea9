"""Repository of ratings and their history, and the reads of matches and turns behind stats and history.

Matches and turns are only read here (their schema belongs to the game service). Writes take the
connection of an open transaction.
"""

import aiosqlite

from bot.domain.matches import PLAYED
from bot.storage.db import Database, Row
from bot.storage.matches import MATCH_SELECT
from bot.storage.sql import among

_RATING_SELECT = (
    "SELECT r.player_id, p.name AS player_name, r.rules, r.mu, r.sigma, r.games FROM ratings r"
    " JOIN players p ON p.id = r.player_id"
)


async def unrated_matches(db: Database) -> list[Row]:
    """Played games between two people, each of whom moved at least once, with a winner and no rating yet,
    in the order they ended."""
    moved = "EXISTS (SELECT 1 FROM turns t WHERE t.match_id = m.id AND t.player = {})"
    return await db.fetch_all(
        "SELECT m.id, m.rules, m.player0_id, m.player1_id, m.winner FROM matches m"
        f" WHERE m.status IN {among(PLAYED)} AND m.bot_level IS NULL AND m.winner IS NOT NULL"
        " AND m.player0_id IS NOT NULL AND m.player1_id IS NOT NULL"
        f" AND {moved.format(0)} AND {moved.format(1)}"
        " AND NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.match_id = m.id)"
        " ORDER BY m.finished_at, m.id"
    )


async def is_rated(conn: aiosqlite.Connection, match_id: int) -> bool:
    rows = await conn.execute_fetchall("SELECT 1 FROM rating_history WHERE match_id = ?", (match_id,))
    return bool(rows)


async def rating(conn: aiosqlite.Connection, player_id: int, rules: str) -> tuple[float, float] | None:
    """(mu, sigma) of a player under a rule set, read inside the caller's transaction."""
    rows = await conn.execute_fetchall(
        "SELECT mu, sigma FROM ratings WHERE player_id = ? AND rules = ?", (player_id, rules)
    )
    return next(((row[0], row[1]) for row in rows), None)


async def save_rating(
    conn: aiosqlite.Connection,
    match_id: int,
    player_id: int,
    rules: str,
    *,
    before: tuple[float, float],
    after: tuple[float, float],
    now: float,
) -> None:
    """Store a player's new rating after a match, and the change in the history."""
    await conn.execute(
        "INSERT INTO ratings (player_id, rules, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (player_id, rules) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + 1, updated_at = excluded.updated_at",
        (player_id, rules, *after, now),
    )
    await conn.execute(
        "INSERT INTO rating_history (match_id, player_id, rules, mu_before, sigma_before, mu_after,"
        " sigma_after, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, player_id, rules, *before, *after, now),
    )


async def leaderboard(db: Database, rules: str, limit: int, guild_id: int | None = None) -> list[Row]:
    """The best ratings under a rule set, by mu - 3 sigma; with `guild_id`, of the players who played a
    rated game under these rules on that server."""
    here = (
        ""
        if guild_id is None
        else " AND EXISTS (SELECT 1 FROM rating_history h JOIN matches m ON m.id = h.match_id"
        " WHERE h.player_id = r.player_id AND h.rules = r.rules AND m.guild_id = ?)"
    )
    return await db.fetch_all(
        f"{_RATING_SELECT} WHERE r.rules = ?{here} ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC LIMIT ?",
        (rules, limit) if guild_id is None else (rules, guild_id, limit),
    )


async def ratings_of(db: Database, player_id: int) -> list[Row]:
    return await db.fetch_all(f"{_RATING_SELECT} WHERE r.player_id = ? ORDER BY r.rules", (player_id,))


async def rating_history(db: Database, player_id: int) -> list[Row]:
    return await db.fetch_all(
        "SELECT * FROM rating_history WHERE player_id = ? ORDER BY rated_at, match_id", (player_id,)
    )


async def played_matches(db: Database, player_id: int, guild_id: int, limit: int | None = None) -> list[Row]:
    """A player's played games on one server (newest first), with player names and the stored strategy's
    name if any."""
    return await db.fetch_all(
        f"{MATCH_SELECT} WHERE m.status IN {among(PLAYED)} AND (m.player0_id = ? OR m.player1_id = ?)"
        f" AND m.guild_id = ? ORDER BY m.finished_at DESC, m.id DESC{'' if limit is None else ' LIMIT ?'}",
        (player_id, player_id, guild_id) if limit is None else (player_id, player_id, guild_id, limit),
    )


async def turns_of(db: Database, player_id: int) -> list[Row]:
    """Every turn a player made."""
    return await db.fetch_all("SELECT * FROM turns WHERE user_id = ? ORDER BY match_id, turn", (player_id,))
