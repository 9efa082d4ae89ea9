"""Commentary functions of the CS 61A project: each prints about the scores and returns the next one.

The exact texts are binding (RULES.md, Swine Align rule 7): programs and doctests compare them.
"""

import io
from collections.abc import Iterable
from contextlib import redirect_stdout
from typing import Protocol


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


def announce_lead_changes(last_leader: int | None = None) -> Commentary:
    """Announce when a player takes the lead; a tie forgets the leader."""

    def say(score0: int, score1: int) -> Commentary:
        leader = 0 if score0 > score1 else 1 if score1 > score0 else None
        if leader is not None and leader != last_leader:
            print("Player", leader, "takes the lead by", abs(score0 - score1))
        return announce_lead_changes(leader)

    return say


def announce_highest(who: int, last_score: int = 0, running_high: int = 0) -> Commentary:
    """Announce when player `who` gains more points in one turn than ever before."""
    assert who in (0, 1), "The who argument should indicate a player."

    def say(score0: int, score1: int) -> Commentary:
        score = score1 if who else score0
        gain = score - last_score
        if gain > running_high:
            print(gain, "point(s)! The most yet for Player", who)
        return announce_highest(who, score, max(gain, running_high))

    return say


def both(f: Commentary, g: Commentary) -> Commentary:
    """Say what f says, then what g says."""

    def say(score0: int, score1: int) -> Commentary:
        return both(f(score0, score1), g(score0, score1))

    return say


def course_commentary(scores: Iterable[tuple[int, int]]) -> list[tuple[str, ...]]:
    """The lines the course's commentary (lead changes, then each player's highest gain) says after each
    of these scores in turn: what boards and pages show under every turn of a game."""
    say = both(announce_lead_changes(), both(announce_highest(0), announce_highest(1)))
    said: list[tuple[str, ...]] = []
    for score0, score1 in scores:
        lines = io.StringIO()
        with redirect_stdout(lines):
            say = say(score0, score1)
        said.append(tuple(lines.getvalue().splitlines()))
    return said
