"""The course's `play`, as every semester's API plays it: the course's strategies choose, the course's
dice roll, and the engine's rules resolve each turn (`resolve_rolled`, which takes any faces, as the
course's test dice show them)."""

from collections.abc import Callable

from hogengine.commentary import Commentary
from hogengine.course.dice import Dice
from hogengine.errors import BadState
from hogengine.game import State, TurnResult, dice_for, resolve_rolled
from hogengine.strategies import Strategy
from hogengine.text import is_whole, shown

# The dice for a turn, given the state and how many sides the rules call for there.
DiceFor = Callable[[State, int], Dice]


def whole(value: object) -> int:
    """A score or goal as `play` and the helpers take it: a whole number from 0, else BadState."""
    if not is_whole(value) or value < 0:
        raise BadState(f"Scores and goals are whole numbers from 0, not {shown(value)}.")
    return value


def play_game(
    state: State,
    strategies: tuple[Strategy, Strategy],
    roll: DiceFor,
    say: Commentary,
    after: Callable[[TurnResult], State] = lambda turn: turn.after,
) -> tuple[int, int]:
    """Play from `state` to the end and return both final scores, Player 0's first: each strategy is asked
    once per turn, `roll` gives each turn's dice, `after` the state a turn leaves (a semester's hook for
    its replaceable rules) and `say` hears the scores after every turn."""
    while not state.over:
        who = state.mover
        choice = strategies[who](state.scores[who], state.scores[1 - who])
        count, sides = dice_for(state, choice)
        dice = roll(state, sides)
        state = after(resolve_rolled(state, choice, [dice() for _ in range(count)]))
        say = say(*state.scores)
    return state.scores
