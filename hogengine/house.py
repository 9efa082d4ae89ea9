"""The house player's levels, as the bot's `vs-bot` and the web page `hog gui` play them: one choice rule
per level, written once here so every adapter's house plays alike."""

from enum import StrEnum
from functools import cache

from hogengine.game import State
from hogengine.solver import PERFECT, Solution
from hogengine.strategies import Table, course_table

EASY_ROLLS = 4


class HouseLevel(StrEnum):
    """How well the house plays."""

    EASY = "easy"  # always rolls EASY_ROLLS dice
    COURSE = "course"  # the course's strategy for the rule set (`course_table`)
    PERFECT = PERFECT  # the exact solver's best choice over the full state


@cache
def _course(rules: str, goal: int) -> Table:
    return course_table(rules, goal)


def house_choice(level: HouseLevel, state: State, solution: Solution | None = None) -> int:
    """The house's choice for the player to move; the perfect level plays `solution` (the solver's, for
    this state's rules and goal), which the other levels do not need."""
    me, you = state.scores[state.mover], state.scores[1 - state.mover]
    if level is HouseLevel.EASY:
        return EASY_ROLLS
    if level is HouseLevel.COURSE:
        return int(_course(state.rules, state.goal)[me, you])
    if solution is None:
        raise ValueError("the perfect level plays the solver's solution: pass it")
    return solution.best_choice(state)
