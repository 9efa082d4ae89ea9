"""Commentary functions of the CS 61A project: each prints about the scores and returns the next one.

The exact texts are binding (RULES.md, Swine Align rule 7): programs and doctests compare them. The
course's own ones print what a core returns, so `course_commentary` says the same lines without printing.
"""

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from hogengine.events import EventKind
from hogengine.game import TurnResult
from hogengine.text import counted

_PLAYER = re.compile(r"Player ([01])")
_POINTS = re.compile(r"\b(\d+) point\(s\)")  # the course's commentary, word for word (RULES.md)


class Commentary(Protocol):
    """Called with both scores after every turn; returns the commentary for the next turn."""

    def __call__(self, score0: int, score1: int, /) -> "Commentary": ...


def silence(score0: int, score1: int) -> Commentary:
    """Say nothing, ever (the default of `play`)."""
    return silence


def say_scores(score0: int, score1: int) -> Commentary:
    """Announce both players' scores."""
    print("Player 0 now has", score0, "and Player 1 now has", score1)
    return say_scores


def _leader(score0: int, score1: int) -> int | None:
    """The player ahead, or None in a tie."""
    return 0 if score0 > score1 else 1 if score1 > score0 else None


class _Lines(Protocol):
    """A commentary function's core: what it says about both scores, and the core for the next turn.
    Nothing prints, so boards and pages can say it from any thread."""

    def __call__(self, score0: int, score1: int, /) -> tuple[tuple[str, ...], "_Lines"]: ...


def _lead_changes(last_leader: int | None) -> _Lines:
    def say(score0: int, score1: int) -> tuple[tuple[str, ...], _Lines]:
        leader = _leader(score0, score1)
        changed = leader is not None and leader != last_leader
        said = (f"Player {leader} takes the lead by {abs(score0 - score1)}",) if changed else ()
        return said, _lead_changes(leader)

    return say


def _highest(who: int, last_score: int, running_high: int) -> _Lines:
    def say(score0: int, score1: int) -> tuple[tuple[str, ...], _Lines]:
        score = score1 if who else score0
        gain = score - last_score
        said = (f"{gain} point(s)! The most yet for Player {who}",) if gain > running_high else ()
        return said, _highest(who, score, max(gain, running_high))

    return say


def _both(f: _Lines, g: _Lines) -> _Lines:
    def say(score0: int, score1: int) -> tuple[tuple[str, ...], _Lines]:
        said_f, next_f = f(score0, score1)
        said_g, next_g = g(score0, score1)
        return said_f + said_g, _both(next_f, next_g)

    return say


def _printed(lines: _Lines) -> Commentary:
    """The course's commentary function for a core: it prints what the core says."""

    def say(score0: int, score1: int) -> Commentary:
        said, after = lines(score0, score1)
        for line in said:
            print(line)
        return _printed(after)

    return say


def announce_lead_changes(last_leader: int | None = None) -> Commentary:
    """Announce when a player takes the lead; a tie forgets the leader."""
    return _printed(_lead_changes(last_leader))


def announce_highest(who: int, last_score: int = 0, running_high: int = 0) -> Commentary:
    """Announce when player `who` gains more points in one turn than ever before."""
    assert who in (0, 1), "The who argument should indicate a player."
    return _printed(_highest(who, last_score, running_high))


def both(f: Commentary, g: Commentary) -> Commentary:
    """Say what f says, then what g says."""

    def say(score0: int, score1: int) -> Commentary:
        return both(f(score0, score1), g(score0, score1))

    return say


def course_commentary(
    scores: Iterable[tuple[int, int]], start: tuple[int, int] = (0, 0)
) -> list[tuple[str, ...]]:
    """The lines the course's GUI commentary says after each of these scores in turn, in a game from the
    `start` scores: what boards and pages show under every turn. It is the course's
    `both(announce_highest(0), both(announce_highest(1), announce_lead_changes()))` (seed 004, Problem 7),
    told the start: the leader then, and no gain yet."""
    lines = _both(_highest(0, start[0], 0), _both(_highest(1, start[1], 0), _lead_changes(_leader(*start))))
    said: list[tuple[str, ...]] = []
    for score0, score1 in scores:
        now, lines = lines(score0, score1)
        said.append(now)
    return said


def _scored(running_high: tuple[int, int]) -> "_Turns":
    def say(turn: TurnResult) -> tuple[tuple[str, ...], _Turns]:
        who, points = turn.player, turn.points
        pig_out = any(event.kind is EventKind.PIG_OUT for event in turn.events)
        if pig_out or points <= running_high[who]:
            return (), _scored(running_high)
        high = (points, running_high[1]) if who == 0 else (running_high[0], points)
        return (f"{points} point(s)! The most yet for Player {who}",), _scored(high)

    return say


class _Turns(Protocol):
    """A commentary core told each turn as played, not only the scores after it."""

    def __call__(self, turn: TurnResult, /) -> tuple[tuple[str, ...], "_Turns"]: ...


def game_commentary(turns: Sequence[TurnResult]) -> list[tuple[str, ...]]:
    """What boards, pages and the terminal say after each played turn: the course's commentary made true
    to the turn. "The most yet" counts the points the mover scored (never a swap's jump, which is no
    points, nor a Pig Out's consolation, which is nothing to celebrate); a lead that changes hands is
    said as the course says it, however it changed (a swap does change it)."""
    start = turns[0].before.scores if turns else (0, 0)
    scored: _Turns = _scored((0, 0))
    leads = _lead_changes(_leader(*start))
    said: list[tuple[str, ...]] = []
    for turn in turns:
        highest, scored = scored(turn)
        lead, leads = leads(*turn.after.scores)
        said.append(highest + lead)
    return said


def with_names(text: str, seats: tuple[str, str]) -> str:
    """The engine says "Player 0" and "Player 1"; a board says who they are."""
    return _PLAYER.sub(lambda found: seats[int(found[1])], text)


def for_people(line: str, seats: tuple[str, str]) -> str:
    """A line of the course's commentary as a board says it: names, and "1 point" rather than "1 point(s)"
    (the engine keeps the course's exact words for programs that compare them)."""
    return with_names(_POINTS.sub(lambda found: counted(int(found[1]), "point"), line), seats)
