"""Repository of turns (append-only), and its mapper between turn rows and the domain's TurnRecords.

A row keeps the choice and the dice rolled, which the engine replays into the full TurnResult (states
before and after included); the points and scores stored beside them are checked against it, and the
stored events are kept for readers of the database alone.
"""

import json
from collections import defaultdict
from collections.abc import Sequence

from bot.domain.matches import TurnRecord
from bot.storage.database import Connection, Reader, Record
from hogengine.game import State, resolve


class TurnReplayError(Exception):
    """Stored turns that the engine does not replay to what they recorded (an operator's problem)."""


async def insert_turn(conn: Connection, record: TurnRecord) -> None:
    """Append one turn (turns are never updated or deleted)."""
    result = record.result
    await conn.insert(
        "turns",
        {
            "match_id": record.match_id,
            "turn": result.before.turn,
            "player": result.player,
            "user_id": record.user_id,
            "choice": result.choice,
            "dice": result.dice,
            "sides": result.sides,
            "outcomes": json.dumps(list(result.outcomes)),
            "points": result.points,
            "events": json.dumps([event.to_json() for event in result.events]),
            "score0": result.after.scores[0],
            "score1": result.after.scores[1],
            "played_at": record.played_at,
        },
    )


# Turns with the rule set and goal of their match, from which they replay.
TURN_SELECT = "SELECT t.*, m.rules, m.goal FROM turns t JOIN matches m ON m.id = t.match_id"


def _replayed(rows: Sequence[Record]) -> list[TurnRecord]:
    """The turns of one match, in order, replayed by the engine from the match's start."""
    records, state = [], State(rows[0]["rules"], rows[0]["goal"]) if rows else State()
    for row in rows:
        result = resolve(state, row["choice"], tuple(json.loads(row["outcomes"])))
        stored = (row["turn"], row["points"], (row["score0"], row["score1"]))
        if stored != (state.turn, result.points, result.after.scores):
            raise TurnReplayError(f"Turn {row['turn']} of match {row['match_id']} does not replay as stored.")
        records.append(TurnRecord(row["match_id"], row["user_id"], row["played_at"], result))
        state = result.after
    return records


def by_match(rows: Sequence[Record]) -> dict[int, list[TurnRecord]]:
    """Turn rows (with their match's rules and goal, ordered by match and turn) replayed, by match id."""
    groups: dict[int, list[Record]] = defaultdict(list)
    for row in rows:
        groups[row["match_id"]].append(row)
    return {match_id: _replayed(group) for match_id, group in groups.items()}


async def get_turns(db: Reader, match_id: int) -> list[TurnRecord]:
    """Every turn of the match, in order."""
    rows = await db.fetch_all(f"{TURN_SELECT} WHERE t.match_id = ? ORDER BY t.turn", (match_id,))
    return _replayed(rows)


async def played_by(db: Reader, match_id: int, turn: int) -> int | None:
    """Who played this turn of the match (None: the house bot, or no such turn)."""
    row = await db.fetch_one("SELECT user_id FROM turns WHERE match_id = ? AND turn = ?", (match_id, turn))
    return None if row is None else row["user_id"]
