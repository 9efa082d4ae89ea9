"""The house bot's brains: one of the engine's house levels (the perfect one asks the solver, the strategy
one plays a stored table)."""

from bot.domain.errors import UnknownBotLevel
from bot.services.solver import Solver
from hogengine.game import State
from hogengine.house import HOUSE_LEVELS, HouseLevel, house_choice
from hogengine.strategies import Table


def house_level(name: str) -> HouseLevel:
    """The level a person names to play the house at; UnknownBotLevel, listing the levels, for any other."""
    level = next((known for known in HOUSE_LEVELS if known.value == name), None)
    if level is None:
        raise UnknownBotLevel(name, ", ".join(known.value for known in HOUSE_LEVELS))
    return level


async def choose(level: HouseLevel, state: State, solver: Solver, table: Table | None = None) -> int:
    """The bot's choice in this state at this level (the perfect one asks the `solver`, and the course one
    has it make the course's table off the event loop); a stored strategy's level plays its `table`."""
    solution = await solver.solution(state.rules, state.goal) if level is HouseLevel.PERFECT else None
    if level is HouseLevel.COURSE:
        await solver.course(state.rules)
    return house_choice(level, state, solution, table)
