"""Repository of matches, and its mapper between a match row and the domain's Match.

Writes take the connection of an open transaction (the service owns transactions); reads take a reader. A
match update is conditional on the version the caller read, so a change based on stale data (a double
press, a second process) touches nothing and returns None.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot.domain.matches import OPEN, Match, MatchStatus, Moment, Player
from bot.domain.shards import Shards
from bot.domain.tokens import PressToken, Reach
from bot.storage.database import Connection, Reader, Record
from bot.storage.sql import among, assignments, in_shards, marks
from bot.storage.tokens import token_from
from hogengine.game import State
from hogengine.house import HouseLevel

# A match with its players' names, and the stored strategy the house bot plays and its owner's, if any.
MATCH_SELECT = (
    "SELECT m.*, p0.name AS player0_name, p1.name AS player1_name, ms.name AS strategy_name,"
    " po.name AS strategy_owner FROM matches m"
    " LEFT JOIN players p0 ON p0.id = m.player0_id LEFT JOIN players p1 ON p1.id = m.player1_id"
    " LEFT JOIN match_strategies ms ON ms.match_id = m.id"
    " LEFT JOIN strategies s ON s.id = ms.strategy_id LEFT JOIN players po ON po.id = s.owner_id"
)


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    """A game's notice as stored, and what decides the next one (see `notice_of`)."""

    live: int | None  # the live notice's message id
    decided: tuple[int, Moment] | None  # the last moment decided (announced or not): its turn and kind
    since: int  # the turn at which the moves of the one to move began
    live_token: PressToken | None = None  # the token the live notice was posted through, while usable
    attempted: bool = False  # a notice began to be posted through a token and was never recorded


def _state_columns(state: State) -> dict[str, Any]:
    """The match columns that hold an engine State: its hidden parts by name, whatever the rule set."""
    return {
        "score0": state.scores[0],
        "score1": state.scores[1],
        "mover": state.mover,
        "turn": state.turn,
        "hidden": json.dumps(state.hidden_by_name()),
    }


def _state_from(row: Record) -> State:
    state = State(
        rules=row["rules"],
        goal=row["goal"],
        scores=(row["score0"], row["score1"]),
        mover=row["mover"],
        turn=row["turn"],
    )
    return state.with_hidden(json.loads(row["hidden"]))


def _life_columns(match: Match) -> dict[str, Any]:
    """The columns a match's life changes besides its state's."""
    return {
        "status": match.status.value,
        "seed_hash": match.seed_hash,
        "seed": match.secret_seed,
        "winner": match.winner,
        "challenge_expires_at": match.challenge_expires_at,
        "turn_deadline": match.turn_deadline,
        "rematch_vote0": int(match.rematch_votes[0]),
        "rematch_vote1": int(match.rematch_votes[1]),
        "rematch_of": match.rematch_of,
        "updated_at": match.updated_at,
        "finished_at": match.finished_at,
    }


def _changed_columns(read: Match, changed: Match) -> dict[str, Any]:
    """What an update writes: the columns whose value differs from the match as read (the row holds the others
    while its version is the one read), the state's together, and the turn clock always (a board's showing
    starts it without a new version: `set_shown`). Each column left out is an index not rewritten: the
    status alone is in four."""
    before = _life_columns(read)
    columns = {
        name: value
        for name, value in _life_columns(changed).items()
        if value != before[name] or name == "turn_deadline"
    }
    return columns if changed.state == read.state else columns | _state_columns(changed.state)


def _player(row: Record, seat: int) -> Player | None:
    player_id = row[f"player{seat}_id"]
    return None if player_id is None else Player(player_id, row[f"player{seat}_name"])


def match_from(row: Record) -> Match:
    """A Match from its row, joined with player and strategy names (see `MATCH_SELECT`)."""
    level = row["bot_level"]
    return Match(
        id=row["id"],
        rules=row["rules"],
        goal=row["goal"],
        status=MatchStatus(row["status"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(_player(row, 0), _player(row, 1)),
        bot_level=None if level is None else HouseLevel(level),
        strategy_name=row["strategy_name"],
        strategy_owner=row["strategy_owner"],
        state=_state_from(row),
        seed_hash=row["seed_hash"],
        secret_seed=row["seed"],
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
    )


async def insert_match(conn: Connection, match: Match) -> int:
    """Store a new match (its `id` and `version` are not read); returns its id."""
    players = match.players
    return await conn.insert_id(
        "matches",
        {
            "rules": match.rules,
            "goal": match.goal,
            "guild_id": match.guild_id,
            "channel_id": match.channel_id,
            "message_id": match.message_id,
            "player0_id": None if players[0] is None else players[0].id,
            "player1_id": None if players[1] is None else players[1].id,
            "bot_level": None if match.bot_level is None else match.bot_level.value,
            "created_at": match.created_at,
            **_life_columns(match),
            **_state_columns(match.state),
        },
    )


async def update_match(conn: Connection, read: Match, changed: Match, now: float) -> Match | None:
    """Store `changed` (the match as `read`, moved on) as updated `now` and bump the version, only if the row
    still has the version read: the match as stored now, or None if it moved on meanwhile. The message
    showing the match is read back: it may have moved without a version bump (`set_message`)."""
    assigned, params = assignments(_changed_columns(read, changed) | {"updated_at": now})
    row = await conn.fetch_one(
        f"UPDATE matches SET {assigned}, version = version + 1 WHERE id = ? AND version = ?"
        " RETURNING channel_id, message_id, version",
        [*params, read.id, read.version],
    )
    if row is None:
        return None
    return replace(
        changed,
        updated_at=now,
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        version=row["version"],
    )


# Where a match's message lags behind it: a change stored but not yet shown.
LAGS = "shown_version < version"
# Starts the turn clock a message shows (parameters: the version shown, its deadline), unless the match moved
# on since or its clock already runs: a turn's clock runs from when its board was shown.
_START_CLOCK = "turn_deadline = CASE WHEN version = ? AND turn_deadline IS NULL THEN ? ELSE turn_deadline END"


async def set_message(conn: Connection, shown: Match, channel_id: int, message_id: int) -> bool:
    """Point the match at the message showing it as `shown` (presentation only: no version bump), and start
    the turn clock that message shows."""
    updated = await conn.execute(
        f"UPDATE matches SET channel_id = ?, message_id = ?, shown_version = ?, {_START_CLOCK} WHERE id = ?",
        (channel_id, message_id, shown.version, shown.version, shown.turn_deadline, shown.id),
    )
    return updated == 1


async def set_shown(conn: Connection, shown: Match) -> None:
    """Record that the match's message shows it as `shown` (an older version never replaces a newer one),
    and start the turn clock that message shows."""
    await conn.execute(
        "UPDATE matches SET shown_version = CASE WHEN shown_version < ? THEN ? ELSE shown_version END,"
        f" {_START_CLOCK} WHERE id = ?",
        (shown.version, shown.version, shown.version, shown.turn_deadline, shown.id),
    )


async def unshown(db: Reader, created_before: float, shards: Shards | None) -> list[int]:
    """The ids of matches whose message lags behind them, and of open ones created before `created_before`
    that no message shows yet, of the servers of these shards (the partial index `matches_unshown` keeps
    the first part cheap)."""
    ours = in_shards(shards)
    rows = await db.fetch_all(
        f"SELECT id FROM matches WHERE {LAGS}{ours} UNION SELECT id FROM matches"
        f" WHERE message_id IS NULL AND status IN {among(OPEN)} AND created_at < ?{ours} ORDER BY id",
        (created_before,),
    )
    return [row["id"] for row in rows]


async def lagging(db: Reader, shards: Shards | None) -> list[int]:
    """The ids of matches whose message lags behind them, of the servers of these shards."""
    rows = await db.fetch_all(f"SELECT id FROM matches WHERE {LAGS}{in_shards(shards)} ORDER BY id")
    return [row["id"] for row in rows]


async def notice_of(db: Reader, match_id: int, state: State, now: float) -> NoticeRecord:
    """The game's live notice (and the token it was posted through, if usable at `now`), the last moment
    decided, whether a notice's posting is unaccounted for, and the turn at which the moves of the one to
    move in `state` began (after the other seat's last turn before it)."""
    row = await db.fetch_one(
        "SELECT m.notice_id, m.notice_turn, m.notice_kind, m.notice_attempt, (SELECT MAX(t.turn) FROM turns t"
        " WHERE t.match_id = m.id AND t.player <> ? AND t.turn < ?) AS other, p.token, p.message_id,"
        " p.original, p.usable_until FROM matches m LEFT JOIN press_tokens p ON p.match_id = m.id"
        " AND p.reaches = ? AND p.message_id = m.notice_id AND p.usable_until > ? WHERE m.id = ?",
        (state.mover, state.turn, Reach.NOTICE.value, now, match_id),
    )
    if row is None:
        return NoticeRecord(None, None, 0)
    since = 0 if row["other"] is None else row["other"] + 1
    turn = row["notice_turn"]
    decided = None if turn is None else (turn, Moment(row["notice_kind"]))
    attempted = row["notice_attempt"] is not None
    return NoticeRecord(row["notice_id"], decided, since, token_from(row), attempted)


async def set_notice(
    conn: Connection, match_id: int, message_id: int | None, turn: int, moment: Moment
) -> None:
    """Record the game's live notice (None: none) and the moment decided: its turn and kind; no posting of a
    notice is unaccounted for any more."""
    await conn.execute(
        "UPDATE matches SET notice_id = ?, notice_turn = ?, notice_kind = ?, notice_attempt = NULL"
        " WHERE id = ?",
        (message_id, turn, moment.value, match_id),
    )


async def set_notice_attempt(conn: Connection, match_id: int, now: float) -> None:
    """Record that a notice begins to be posted through a token at `now` (until `set_notice`), unless one
    already is: the first such posting is the one whose outcome is unknown."""
    await conn.execute(
        "UPDATE matches SET notice_attempt = COALESCE(notice_attempt, ?) WHERE id = ?", (now, match_id)
    )


async def running_out(db: Reader, now: float, warning: float, shards: Shards | None) -> list[int]:
    """The ids of active games (of these shards' servers) whose board shows a person's turn that ends within
    `warning` seconds and that was not yet said to be running out (`Moment.HURRY` about the turn now)."""
    rows = await db.fetch_all(
        "SELECT id FROM matches WHERE status = ? AND turn_deadline > ? AND turn_deadline <= ?"
        " AND shown_version = version AND (notice_turn IS NULL OR notice_turn < turn"
        f" OR (notice_turn = turn AND notice_kind < ?)){in_shards(shards)} ORDER BY id",
        (MatchStatus.ACTIVE.value, now, now + warning, Moment.HURRY.value),
    )
    return [row["id"] for row in rows]


async def open_matches_of(db: Reader, guild_id: int, user_id: int) -> list[Match]:
    """This person's open challenges and games on a server, in every channel, newest first."""
    rows = await db.fetch_all(
        f"{MATCH_SELECT} WHERE m.guild_id = ? AND m.status IN {among(OPEN)}"
        " AND (m.player0_id = ? OR m.player1_id = ?) ORDER BY m.id DESC",
        (guild_id, user_id, user_id),
    )
    return [match_from(row) for row in rows]


async def get_match(db: Reader, match_id: int) -> Match | None:
    row = await db.fetch_one(f"{MATCH_SELECT} WHERE m.id = ?", (match_id,))
    return None if row is None else match_from(row)


async def open_match_for(db: Reader, channel_id: int, user_ids: Iterable[int]) -> Match | None:
    """An open match in the channel where any of these users plays (the newest, if several)."""
    ids = list(user_ids)
    row = await db.fetch_one(
        f"{MATCH_SELECT} WHERE m.channel_id = ? AND m.status IN {among(OPEN)}"
        f" AND (m.player0_id IN ({marks(ids)}) OR m.player1_id IN ({marks(ids)})) ORDER BY m.id DESC",
        (channel_id, *ids, *ids),
    )
    return None if row is None else match_from(row)


async def due_matches(db: Reader, now: float, shards: Shards | None) -> list[int]:
    """The ids of pending challenges past their expiry and active games past their turn deadline (of the
    servers of these shards)."""
    rows = await db.fetch_all(
        "SELECT id FROM matches WHERE ((status = ? AND challenge_expires_at <= ?)"
        f" OR (status = ? AND turn_deadline <= ?)){in_shards(shards)} ORDER BY id",
        (MatchStatus.PENDING.value, now, MatchStatus.ACTIVE.value, now),
    )
    return [row["id"] for row in rows]


async def delay_clocks(conn: Connection, seconds: float, now: float, shards: Shards | None) -> None:
    """Put every running clock (a turn's, a challenge's) of these shards' servers back by `seconds`, each
    such match a version newer so its message is drawn again with the new time."""
    for status, clock in (
        (MatchStatus.ACTIVE, "turn_deadline"),
        (MatchStatus.PENDING, "challenge_expires_at"),
    ):
        await conn.execute(
            f"UPDATE matches SET {clock} = {clock} + ?, version = version + 1, updated_at = ?"
            f" WHERE status = ? AND {clock} IS NOT NULL{in_shards(shards)}",
            (seconds, now, status.value),
        )


async def bot_to_move(db: Reader, shards: Shards | None) -> list[int]:
    """The ids of active games where the house bot is to move (no turn clock runs for it), of the servers
    of these shards."""
    rows = await db.fetch_all(
        "SELECT id FROM matches WHERE status = ? AND turn_deadline IS NULL AND bot_level IS NOT NULL"
        f"{in_shards(shards)}"
        " AND mover = CASE WHEN player0_id IS NULL THEN 0 ELSE 1 END ORDER BY id",
        (MatchStatus.ACTIVE.value,),
    )
    return [row["id"] for row in rows]


async def rematch_of(db: Reader, match_id: int) -> Match | None:
    """The match started as a rematch of this one, if any."""
    row = await db.fetch_one(f"{MATCH_SELECT} WHERE m.rematch_of = ?", (match_id,))
    return None if row is None else match_from(row)
