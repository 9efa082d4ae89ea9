"""The replay contract of DESIGN.md: a recorded game in, every turn re-played by the engine out.

A record is `{"rules", "goal", "score", "mover", "turns": [{"choice", "rolls"}, ...]}` (goal 100,
score [0, 0] and mover 0 by default), and optionally `"players"`, the two seats' names. With a hex `"seed"`
the rolls are re-derived by commit-reveal (rolls given anyway must match; an optional `"commitment"` must be
the seed's SHA-256). Every problem is a HogError; once turns are involved its message starts with the turn
it concerns, numbered as people count them from 1 ("turn 3: ...").
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from hogengine.dice import commitment, seeded_rolls
from hogengine.errors import HogError
from hogengine.game import MAX_GOAL, State, TurnResult, dice_for, new_game, resolve, turn_number
from hogengine.rules import DEFAULT_RULES
from hogengine.text import NumberTooLong, RepeatedKey, is_whole, listed, read_at_most, read_json, shown

RECORD_KEYS = {"rules", "goal", "score", "mover", "turns", "seed", "commitment", "players"}
MAX_NAME = 100  # characters of a seat's name in a record: far above any Discord name
TURN_KEYS = {"choice", "rolls"}
HEX = re.compile(r"[0-9a-fA-F]+")  # bytes.fromhex alone would also take spaces
MAX_RECORD_BYTES = 256 * 1024  # far above any game: a long game's record is a few dozen KiB
# What a tournament's record (`hog tournament --record`) says it is: given where a game's is expected,
# it is named, with the command that plays it again.
TOURNAMENT_RECORD = "hog tournament record"


class BadReplay(HogError):  # noqa: N818 - named like the engine's errors
    """A game record that is not in the replay contract's shape."""


@dataclass(frozen=True)
class Turn:
    """One recorded turn: the choice, and its rolls unless a seed supplies them."""

    choice: int
    rolls: tuple[int, ...] | None


@dataclass(frozen=True)
class GameRecord:
    """A checked game record, ready to be re-played."""

    start: State
    turns: tuple[Turn, ...]
    seed: bytes | None = None
    players: tuple[str, str] | None = None  # the seats' names, when the record gives them


def parse_seed(text: object) -> bytes:
    """A commit-reveal seed from its hex text, exactly as revealed: hex digits only, two per byte."""
    if not isinstance(text, str) or not HEX.fullmatch(text) or len(text) % 2:
        raise BadReplay("The seed must be a non-empty string of hex digits (two per byte).")
    return bytes.fromhex(text)


def _turn(index: int, data: object, seeded: bool) -> Turn:
    """One recorded turn (the state's count `index`), checked strictly; errors name the turn."""
    where = f"turn {turn_number(index)}"
    if not isinstance(data, dict):
        raise BadReplay(f'{where}: a turn is an object like {{"choice": 3, "rolls": [2, 4, 1]}}.')
    if extra := sorted(set(data) - TURN_KEYS):
        raise BadReplay(f"{where}: unexpected key(s) {listed(extra)}.")
    if "choice" not in data:
        raise BadReplay(f'{where}: missing "choice".')
    if not is_whole(data["choice"]):
        raise BadReplay(f"{where}: the choice must be a whole number, not {shown(data['choice'])}.")
    rolls = data.get("rolls")
    if rolls is None and not seeded:
        raise BadReplay(f'{where}: missing "rolls" (or give the game\'s "seed").')
    if rolls is not None and (not isinstance(rolls, list) or not all(is_whole(roll) for roll in rolls)):
        raise BadReplay(f"{where}: the rolls must be a list of whole numbers.")
    return Turn(data["choice"], None if rolls is None else tuple(rolls))


def parse_record(data: object) -> GameRecord:
    """Check a decoded JSON record strictly (types, keys, the seed's commitment) and build its start."""
    if not isinstance(data, dict):
        raise BadReplay('The record must be a JSON object with "rules" and "turns".')
    if data.get("record") == TOURNAMENT_RECORD:
        raise BadReplay(
            "This is a tournament record, not a game record: `hog tournament --replay FILE` plays it again."
        )
    if extra := sorted(set(data) - RECORD_KEYS):
        raise BadReplay(f"Unexpected key(s) {listed(extra)}; known: {', '.join(sorted(RECORD_KEYS))}.")
    if missing := [key for key in ("rules", "turns") if key not in data]:
        raise BadReplay(f"Missing key(s) {', '.join(map(repr, missing))}.")
    rules, goal = data["rules"], data.get("goal", MAX_GOAL)
    score, mover = data.get("score", [0, 0]), data.get("mover", 0)
    if not isinstance(rules, str):
        raise BadReplay(f'"rules" must be a rule set id such as "{DEFAULT_RULES}".')
    if not is_whole(goal):
        raise BadReplay('"goal" must be a whole number.')
    if not isinstance(score, list) or len(score) != 2 or not all(map(is_whole, score)):
        raise BadReplay('"score" must be a list of two whole numbers.')
    if not is_whole(mover):
        raise BadReplay('"mover" must be 0 or 1.')
    seed = parse_seed(data["seed"]) if "seed" in data else None
    if "commitment" in data:
        if seed is None:
            raise BadReplay('A "commitment" can only be checked with the game\'s "seed".')
        if not isinstance(data["commitment"], str) or data["commitment"].lower() != commitment(seed):
            raise BadReplay("The seed does not match the commitment: its SHA-256 is different.")
    turns = data["turns"]
    if not isinstance(turns, list):
        raise BadReplay('"turns" must be a list of turns (it may be empty).')
    start = new_game(rules, goal, (score[0], score[1]), mover)
    played = tuple(_turn(start.turn + i, t, seed is not None) for i, t in enumerate(turns))
    return GameRecord(start, played, seed, _players(data.get("players")))


def _players(names: object) -> tuple[str, str] | None:
    """The seats' names a record gives (None: it gives none), checked: two short strings."""
    if names is None:
        return None
    if not isinstance(names, list) or len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise BadReplay('"players" must be a list of the two seats\' names.')
    if any(not name.strip() or len(name) > MAX_NAME for name in names):
        raise BadReplay(f"A player's name is 1 to {MAX_NAME} characters.")
    return names[0], names[1]


def read_record(source: BinaryIO) -> bytes:
    """A record's bytes from a file or stream, refused once past MAX_RECORD_BYTES without reading on (a
    record named /dev/zero is not read to the end of memory)."""
    data = read_at_most(source, MAX_RECORD_BYTES)
    if data is None:
        kib = MAX_RECORD_BYTES // 1024
        raise BadReplay(f"The record is larger than {kib} KiB: no game record is that long.")
    return data


def load_record(text: str | bytes) -> GameRecord:
    """Parse and check a record from JSON text, or bytes that must be UTF-8 (a leading byte order mark is
    allowed, as editors write it)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadReplay("The record is not UTF-8 text.") from None
    try:
        data = read_json(text)
    except RecursionError:
        raise BadReplay("The record is not valid JSON: it is nested too deeply.") from None
    except NumberTooLong as error:
        raise BadReplay(f"The record holds {error}.") from None
    except RepeatedKey as error:
        raise BadReplay(f"The record {error}: which one is meant?") from None
    except ValueError as error:
        raise BadReplay(f"The record is not valid JSON: {str(error)[:200]}.") from None
    return parse_record(data)


def replay(record: GameRecord) -> Iterator[TurnResult]:
    """Re-play every recorded turn through the engine, yielding each as it is resolved."""
    state = record.start
    for turn in record.turns:
        try:
            rolls = turn.rolls
            if record.seed is not None:
                count, sides = dice_for(state, turn.choice)
                derived = tuple(seeded_rolls(record.seed, state.turn, count, sides))
                if rolls is not None and rolls != derived:
                    raise BadReplay(
                        f"the rolls {shown(list(rolls))} are not the ones the seed gives: {list(derived)}."
                    )
                rolls = derived
            result = resolve(state, turn.choice, rolls or ())
        except HogError as error:
            raise type(error)(f"turn {turn_number(state.turn)}: {error}") from None
        yield result
        state = result.after


class Played(Protocol):
    """A turn as played: the choice and what the dice showed (a TurnResult, or a turn read from storage)."""

    @property
    def choice(self) -> int: ...

    @property
    def outcomes(self) -> Sequence[int]: ...


def to_record(
    start: State,
    results: Sequence[Played],
    seed: bytes | None = None,
    players: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The record of a played game (the export shape): with its seed, choices alone re-derive the rolls;
    with `players`, the seats' names, so a replay says who played."""
    record: dict[str, Any] = {"rules": start.rules, "goal": start.goal, "score": list(start.scores)}
    if start.mover:
        record["mover"] = start.mover
    if players is not None:
        record["players"] = list(players)
    if seed is None:
        record["turns"] = [{"choice": r.choice, "rolls": list(r.outcomes)} for r in results]
    else:
        record["seed"] = seed.hex()
        record["commitment"] = commitment(seed)  # what was shown before the first roll: replay checks it
        record["turns"] = [{"choice": r.choice} for r in results]
    return record
