"""The house bot's brains: a stored table, or one of the engine's house levels (the perfect one asks the
solver)."""

from bot.domain.matches import BotLevel
from bot.services.solver import Solver
from hogengine.game import State
from hogengine.house import HouseLevel, house_choice
from hogengine.strategies import Table


async def choose(level: BotLevel, state: State, solver: Solver, table: Table | None = None) -> int:
    """The bot's choice in this state at this level (the perfect one asks the `solver`); a stored
    strategy's level plays its `table`."""
    if level is BotLevel.STRATEGY:
        if table is None:
            raise ValueError("a stored strategy plays its table: pass it")
        return int(table[state.scores[state.mover], state.scores[1 - state.mover]])
    house = HouseLevel(level.value)
    solution = await solver.solution(state.rules, state.goal) if house is HouseLevel.PERFECT else None
    return house_choice(house, state, solution)
