"""Repository of matches, and its mapper between a match row and the domain's Match.

Writes take the connection of an open transaction (the service owns transactions); reads go through the
database's reader. A match update is conditional on the version the caller read, so a change based on
stale data (a double press, a second process) touches nothing and returns None.
"""

import json
from collections.abc import Iterable, Mapping
from typing import Any

import aiosqlite

from bot.domain.matches import OPEN, BotLevel, Match, MatchStatus, Player, TurnRecord
from bot.storage.db import Database, Row
from bot.storage.sql import among, assignments, insert_row
from hogengine.game import State

# A match with the names of its players and of the stored strategy the house bot plays, if any.
MATCH_SELECT = (
    "SELECT m.*, p0.name AS player0_name, p1.name AS player1_name, ms.name AS strategy_name FROM matches m"
    " LEFT JOIN players p0 ON p0.id = m.player0_id LEFT JOIN players p1 ON p1.id = m.player1_id"
    " LEFT JOIN match_strategies ms ON ms.match_id = m.id"
)


def state_columns(state: State) -> dict[str, Any]:
    """The match columns that hold an engine State: its hidden parts by name, whatever the rule set."""
    return {
        "score0": state.scores[0],
        "score1": state.scores[1],
        "mover": state.mover,
        "turn": state.turn,
        "hidden": json.dumps(state.hidden_by_name()),
    }


def state_from(row: Row) -> State:
    state = State(
        rules=row["rules"],
        goal=row["goal"],
        scores=(row["score0"], row["score1"]),
        mover=row["mover"],
        turn=row["turn"],
    )
    return state.with_hidden(json.loads(row["hidden"]))


def _player(row: Row, seat: int) -> Player | None:
    player_id = row[f"player{seat}_id"]
    return None if player_id is None else Player(player_id, row[f"player{seat}_name"])


def match_from(row: Row, last_turn: TurnRecord | None = None) -> Match:
    """A Match from its row (joined with player and strategy names, see `MATCH_SELECT`); the
    seed shows only once the match is closed."""
    status = MatchStatus(row["status"])
    level = row["bot_level"]
    return Match(
        id=row["id"],
        rules=row["rules"],
        goal=row["goal"],
        status=status,
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(_player(row, 0), _player(row, 1)),
        bot_level=None if level is None else BotLevel(level),
        strategy_name=row["strategy_name"],
        state=state_from(row),
        seed_hash=row["seed_hash"],
        seed=None if status.is_open else row["seed"],
        winner=row["winner"],
        challenge_expires_at=row["challenge_expires_at"],
        turn_deadline=row["turn_deadline"],
        message_id=row["message_id"],
        rematch_votes=(bool(row["rematch_vote0"]), bool(row["rematch_vote1"])),
        rematch_of=row["rematch_of"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        version=row["version"],
        last_turn=last_turn,
    )


async def insert_match(conn: aiosqlite.Connection, values: Mapping[str, Any]) -> int:
    """A new match row; returns its id."""
    return await insert_row(conn, "matches", values)


async def update_match(
    conn: aiosqlite.Connection, match_id: int, version: int, changes: Mapping[str, Any]
) -> Row | None:
    """Apply `changes` and bump the version, only if the row still has `version`: the new row, or None
    if the match moved on."""
    assigned, params = assignments(changes)
    rows = await conn.execute_fetchall(
        f"UPDATE matches SET {assigned}, version = version + 1 WHERE id = ? AND version = ? RETURNING *",
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
        f"{MATCH_SELECT} WHERE m.channel_id = ? AND m.status IN {among(OPEN)}"
        f" AND (m.player0_id IN ({marks}) OR m.player1_id IN ({marks})) ORDER BY m.id DESC",
        (channel_id, *ids, *ids),
    )


async def due_matches(db: Database, now: float) -> list[Row]:
    """Pending challenges past their expiry and active games past their turn deadline."""
    return await db.fetch_all(
        f"{MATCH_SELECT} WHERE (m.status = ? AND m.challenge_expires_at <= ?)"
        " OR (m.status = ? AND m.turn_deadline <= ?) ORDER BY m.id",
        (MatchStatus.PENDING.value, now, MatchStatus.ACTIVE.value, now),
    )


async def bot_to_move(db: Database) -> list[int]:
    """The ids of active games where the house bot is to move (no turn clock runs for it)."""
    rows = await db.fetch_all(
        "SELECT id FROM matches WHERE status = ? AND turn_deadline IS NULL AND bot_level IS NOT NULL"
        " AND mover = CASE WHEN player0_id IS NULL THEN 0 ELSE 1 END ORDER BY id",
        (MatchStatus.ACTIVE.value,),
    )
    return [row["id"] for row in rows]


async def rematch_of(db: Database, match_id: int) -> Row | None:
    """The match started as a rematch of this one, if any."""
    return await db.fetch_one(f"{MATCH_SELECT} WHERE m.rematch_of = ?", (match_id,))
