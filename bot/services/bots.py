"""The house bot's brains and the hint oracle: strategies and the exact solver, solved off the event loop."""

import asyncio
from functools import cache

from bot.services.models import BotLevel
from hogengine.game import State
from hogengine.solver import Solution, solve
from hogengine.strategies import Table, always_roll, course_table

EASY = always_roll(4)


@cache
def _course(rules: str, goal: int) -> Table:
    return course_table(rules, goal)


async def solution(rules: str, goal: int) -> Solution:
    """The exact solution of a rule set and goal, in a worker thread: the first call per process solves
    (up to seconds), later ones hit the solver's cache."""
    return await asyncio.to_thread(solve, rules, goal)


async def choose(level: BotLevel, state: State, table: Table | None = None) -> int:
    """The bot's choice in this state at this level; a stored strategy's level plays its `table`."""
    me, you = state.scores[state.mover], state.scores[1 - state.mover]
    if level is BotLevel.STRATEGY:
        if table is None:
            raise ValueError("a stored strategy plays its table: pass it")
        return int(table[me, you])
    if level is BotLevel.EASY:
        return EASY(me, you)
    if level is BotLevel.COURSE:
        return int(_course(state.rules, state.goal)[me, you])
    return (await solution(state.rules, state.goal)).best_choice(state)
