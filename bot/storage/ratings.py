"""Repository of ratings and their history, and the reads of matches and turns behind stats and history.

Matches and turns are only read here, through their own mappers. Writes take the connection of an open
transaction.
"""

from bot.domain.matches import PLAYED, Match, Player, TurnRecord
from bot.domain.ratings import Rating, RatingChange, shown_rating
from bot.storage.database import Connection, Reader, Record
from bot.storage.matches import MATCH_SELECT, match_from
from bot.storage.sql import among
from bot.storage.turns import TURN_SELECT, by_match

# Rated games won: the rating history's matches under these rules whose winner sat in the player's seat.
_WINS = (
    "(SELECT COUNT(*) FROM rating_history h JOIN matches m ON m.id = h.match_id"
    " WHERE h.player_id = r.player_id AND h.rules = r.rules"
    " AND ((m.winner = 0 AND m.player0_id = r.player_id) OR (m.winner = 1 AND m.player1_id = r.player_id)))"
)
_RATING_SELECT = (
    f"SELECT r.player_id, p.name AS player_name, r.rules, r.mu, r.sigma, r.games, {_WINS} AS wins"
    " FROM ratings r JOIN players p ON p.id = r.player_id"
)
_PLAYED_BY = f"m.status IN {among(PLAYED)} AND (m.player0_id = ? OR m.player1_id = ?) AND m.guild_id = ?"


def _rating(row: Record) -> Rating:
    player = Player(row["player_id"], row["player_name"])
    return Rating(player, row["rules"], row["mu"], row["sigma"], row["games"], row["wins"])


def _change(row: Record) -> RatingChange:
    before = shown_rating(row["mu_before"], row["sigma_before"])
    after = shown_rating(row["mu_after"], row["sigma_after"])
    return RatingChange(row["match_id"], row["rules"], before, after, row["rated_at"])


async def unrated_matches(db: Reader) -> list[Match]:
    """Played games between two people, each of whom moved at least once, with a winner and no rating yet,
    in the order they ended."""
    moved = "EXISTS (SELECT 1 FROM turns t WHERE t.match_id = m.id AND t.player = {})"
    rows = await db.fetch_all(
        f"{MATCH_SELECT} WHERE m.status IN {among(PLAYED)} AND m.bot_level IS NULL AND m.winner IS NOT NULL"
        " AND m.player0_id IS NOT NULL AND m.player1_id IS NOT NULL"
        f" AND {moved.format(0)} AND {moved.format(1)}"
        " AND NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.match_id = m.id)"
        " ORDER BY m.finished_at, m.id"
    )
    return [match_from(row) for row in rows]


RATING_LOCK = 0x72617465  # the lock key of rating games ("rate")


async def lock_ratings(conn: Connection) -> None:
    """Hold the ratings until this transaction ends: a game is rated once, each player's rating read and
    written by one process at a time."""
    await conn.lock(RATING_LOCK)


async def is_rated(conn: Connection, match_id: int) -> bool:
    return await conn.fetch_one("SELECT 1 FROM rating_history WHERE match_id = ?", (match_id,)) is not None


async def rating(conn: Connection, player_id: int, rules: str) -> tuple[float, float] | None:
    """(mu, sigma) of a player under a rule set, read inside the caller's transaction."""
    row = await conn.fetch_one(
        "SELECT mu, sigma FROM ratings WHERE player_id = ? AND rules = ?", (player_id, rules)
    )
    return None if row is None else (row["mu"], row["sigma"])


async def save_rating(
    conn: Connection,
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


async def leaderboard(db: Reader, rules: str, limit: int, guild_id: int | None = None) -> list[Rating]:
    """The best ratings under a rule set, by mu - 3 sigma (shown_rating's order, its ties kept apart);
    with `guild_id`, of the players who played a rated game under these rules on that server."""
    here = (
        ""
        if guild_id is None
        else " AND EXISTS (SELECT 1 FROM rating_history h JOIN matches m ON m.id = h.match_id"
        " WHERE h.player_id = r.player_id AND h.rules = r.rules AND m.guild_id = ?)"
    )
    rows = await db.fetch_all(
        f"{_RATING_SELECT} WHERE r.rules = ?{here} ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC LIMIT ?",
        (rules, limit) if guild_id is None else (rules, guild_id, limit),
    )
    return [_rating(row) for row in rows]


async def ratings_of(db: Reader, player_id: int) -> list[Rating]:
    rows = await db.fetch_all(f"{_RATING_SELECT} WHERE r.player_id = ? ORDER BY r.rules", (player_id,))
    return [_rating(row) for row in rows]


async def rating_history(db: Reader, player_id: int) -> list[RatingChange]:
    rows = await db.fetch_all(
        "SELECT * FROM rating_history WHERE player_id = ? ORDER BY rated_at, match_id", (player_id,)
    )
    return [_change(row) for row in rows]


async def played_matches(db: Reader, player_id: int, guild_id: int, limit: int | None = None) -> list[Match]:
    """A player's played games on one server (newest first), with player names and the stored strategy's
    name if any."""
    rows = await db.fetch_all(
        f"{MATCH_SELECT} WHERE {_PLAYED_BY} ORDER BY m.finished_at DESC, m.id DESC"
        f"{'' if limit is None else ' LIMIT ?'}",
        (player_id, player_id, guild_id) if limit is None else (player_id, player_id, guild_id, limit),
    )
    return [match_from(row) for row in rows]


async def played_turns(db: Reader, player_id: int, guild_id: int) -> dict[int, list[TurnRecord]]:
    """Every turn (both sides') of a player's played games on one server, by match id, replayed."""
    rows = await db.fetch_all(
        f"{TURN_SELECT} WHERE {_PLAYED_BY} ORDER BY t.match_id, t.turn", (player_id, player_id, guild_id)
    )
    return by_match(rows)
