"""A played match with the solver's verdict on each of its turns."""

from dataclasses import dataclass

from bot.domain.matches import Match
from hogengine.analysis import Analysis
from hogengine.game import State


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A played match and its analysis; `names` are by seat, for the win-probability chart, and `states`
    the full state before each turn (what a choice did depends on it)."""

    match: Match
    names: tuple[str, str]
    analysis: Analysis
    states: tuple[State, ...]


@dataclass(frozen=True, slots=True)
class Coaching:
    """What the live coach says to one player now: a line on each of their graded choices from the turn
    asked about on that the other side has answered, the turn up to which it has spoken (every turn before
    it is answered), and once the game has ended a line summing up their game."""

    lines: tuple[str, ...]
    spoken: int
    summary: str | None
