"""The house player's levels, as the bot's `vs-bot` and the web page `hog gui` play them: one choice rule
per level, written once here so every adapter's house plays alike (the bot stores them by their values)."""

from enum import StrEnum
from functools import cache, partial

from hogengine.course import extra_turn_strategy
from hogengine.game import State
from hogengine.solver import PERFECT, Solution
from hogengine.strategies import Table, table_from_function

EASY_ROLLS = 4


class HouseLevel(StrEnum):
    """How well the house plays, or STRATEGY: it plays a table someone stored (the bot's uploads)."""

    EASY = "easy"
    COURSE = "course"
    PERFECT = PERFECT
    STRATEGY = "strategy"

    @property
    def description(self) -> str:
        """How this level plays, for people choosing one."""
        return {
            HouseLevel.EASY: f"always rolls {EASY_ROLLS} dice",
            HouseLevel.COURSE: "plays the course's extra-turn strategy",
            HouseLevel.PERFECT: "plays the exact solver's best choice, seeing every hidden part",
            HouseLevel.STRATEGY: "plays a stored strategy's table",
        }[self]


HOUSE_LEVELS = (HouseLevel.EASY, HouseLevel.COURSE, HouseLevel.PERFECT)  # what a person picks to play


@cache
def course_table(rules: str) -> Table:
    """The course's strategy under these rules as a table: the course's own `extra_turn_strategy` (seed
    004, Problem 11: roll 0 when it earns an extra turn or at least 8 points, else 6), whatever the goal."""
    return table_from_function(partial(extra_turn_strategy, rules=rules), rules)


def house_choice(
    level: HouseLevel, state: State, solution: Solution | None = None, table: Table | None = None
) -> int:
    """The house's choice for the player to move; the perfect level plays `solution` (the solver's, for
    this state's rules and goal) and the strategy level `table`, which the other levels do not need."""
    me, you = state.scores[state.mover], state.scores[1 - state.mover]
    if level is HouseLevel.EASY:
        return EASY_ROLLS
    if level is HouseLevel.COURSE:
        return int(course_table(state.rules)[me, you])
    if level is HouseLevel.STRATEGY:
        if table is None:
            raise ValueError("the strategy level plays a stored strategy's table: pass it")
        return int(table[me, you])
    if solution is None:
        raise ValueError("the perfect level plays the solver's solution: pass it")
    return solution.best_choice(state)
