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

    EASY = "easy"
    COURSE = "course"
    PERFECT = PERFECT

    @property
    def description(self) -> str:
        """How this level plays, for people choosing one."""
        return {
            HouseLevel.EASY: f"always rolls {EASY_ROLLS} dice",
            HouseLevel.COURSE: "plays the course's strategy",
            HouseLevel.PERFECT: "plays the exact solver's best choice, seeing every hidden part",
        }[self]


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
