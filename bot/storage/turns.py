"""Repository of turns (append-only), and its mapper between a turn row and the domain's TurnRecord."""

import json
from collections.abc import Mapping
from typing import Any

import aiosqlite

from bot.domain.matches import TurnRecord
from bot.storage.db import Database, Row
from bot.storage.sql import insert_row
from hogengine.events import Event, EventKind
from hogengine.game import TurnResult


def turn_columns(match_id: int, user_id: int | None, result: TurnResult, now: float) -> dict[str, Any]:
    """The turns row of a played turn."""
    return {
        "match_id": match_id,
        "turn": result.before.turn,
        "player": result.player,
        "user_id": user_id,
        "choice": result.choice,
        "dice": result.dice,
        "sides": result.sides,
        "outcomes": json.dumps(list(result.outcomes)),
        "points": result.points,
        "events": json.dumps([event.to_json() for event in result.events]),
        "score0": result.after.scores[0],
        "score1": result.after.scores[1],
        "played_at": now,
    }


def _event(data: dict[str, Any]) -> Event:
    return Event(EventKind(data["kind"]), data["player"], data["value"], data.get("note", ""))


def turn_from(row: Row) -> TurnRecord:
    return TurnRecord(
        match_id=row["match_id"],
        turn=row["turn"],
        player=row["player"],
        user_id=row["user_id"],
        choice=row["choice"],
        dice=row["dice"],
        sides=row["sides"],
        outcomes=tuple(json.loads(row["outcomes"])),
        points=row["points"],
        events=tuple(_event(data) for data in json.loads(row["events"])),
        scores_after=(row["score0"], row["score1"]),
        played_at=row["played_at"],
    )


async def insert_turn(conn: aiosqlite.Connection, values: Mapping[str, Any]) -> None:
    """Append one turn (turns are never updated or deleted)."""
    await insert_row(conn, "turns", values)


async def get_turns(db: Database, match_id: int) -> list[TurnRecord]:
    """Every turn of the match, in order."""
    rows = await db.fetch_all("SELECT * FROM turns WHERE match_id = ? ORDER BY turn", (match_id,))
    return [turn_from(row) for row in rows]


async def get_turn(db: Database, match_id: int, turn: int) -> TurnRecord | None:
    row = await db.fetch_one("SELECT * FROM turns WHERE match_id = ? AND turn = ?", (match_id, turn))
    return None if row is None else turn_from(row)
