"""Between domain objects and table rows: Match and TurnRecord from rows, engine results to columns."""

import json
from typing import Any

from bot.services.models import BotLevel, Match, MatchStatus, Player, TurnRecord
from bot.storage import Row
from hogengine.events import Event, EventKind
from hogengine.game import State, TurnResult


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
    """A Match from its row (joined with player and strategy names, see `repositories.MATCH_SELECT`); the
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
