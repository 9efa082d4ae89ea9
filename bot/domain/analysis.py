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
