"""The house bot's brains: a fixed strategy, the course's table, a stored table, or the exact solver."""

from functools import cache

from bot.domain.matches import BotLevel
from bot.services.solver import Solver
from hogengine.game import State
from hogengine.strategies import Table, always_roll, course_table

EASY = always_roll(4)


@cache
def _course(rules: str, goal: int) -> Table:
    return course_table(rules, goal)


async def choose(level: BotLevel, state: State, solver: Solver, table: Table | None = None) -> int:
    """The bot's choice in this state at this level (the perfect one asks the `solver`); a stored
    strategy's level plays its `table`."""
    me, you = state.scores[state.mover], state.scores[1 - state.mover]
    if level is BotLevel.STRATEGY:
        if table is None:
            raise ValueError("a stored strategy plays its table: pass it")
        return int(table[me, you])
    if level is BotLevel.EASY:
        return EASY(me, you)
    if level is BotLevel.COURSE:
        return int(_course(state.rules, state.goal)[me, you])
    return (await solver.solution(state.rules, state.goal)).best_choice(state)
