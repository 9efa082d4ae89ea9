"""The CS 61A Hog project's API (Fall 2020 names and defaults), played by the engine's own rules.

Nothing here re-implements a rule: `play` drives `resolve`, and the helpers call the rule set.
Randomness comes from an injected `random.Random`, never from the module-level one.
"""

from collections.abc import Callable
from functools import partial
from random import Random
from typing import ParamSpec

from hogengine.commentary import (
    Commentary,
    announce_highest,
    announce_lead_changes,
    both,
    say_scores,
    silence,
)
from hogengine.dice import Dice, fair_dice, make_test_dice
from hogengine.errors import IllegalChoice
from hogengine.game import MAX_GOAL, dice_for, new_game, resolve
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.rules.swine_align import extra_turn
from hogengine.strategies import Strategy, always_roll
from hogengine.text import is_whole, shown

P = ParamSpec("P")
COURSE_RULES = get_rules(DEFAULT_RULES)  # the course's own rule set (Fall 2020) is the default


def play(  # noqa: PLR0917 - the course's signature, positional arguments included
    strategy0: Strategy,
    strategy1: Strategy,
    score0: int = 0,
    score1: int = 0,
    dice: Dice | None = None,
    goal: int = MAX_GOAL,
    say: Commentary = silence,
    rules: str = DEFAULT_RULES,
    rng: Random | None = None,
) -> tuple[int, int]:
    """Play a whole game and return the final scores; each strategy is asked once per turn and `say`
    hears the scores after every turn. `dice` serves every roll; without it, fair dice from `rng`."""
    source = rng or Random()
    state = new_game(rules, goal, (score0, score1))
    strategies = (strategy0, strategy1)
    while not state.over:
        me = state.mover
        choice = strategies[me](state.scores[me], state.scores[1 - me])
        count, sides = dice_for(state, choice)
        roll = dice or fair_dice(sides, source)
        state = resolve(state, choice, [roll() for _ in range(count)]).after
        say = say(*state.scores)
    return state.scores


def roll_dice(
    num_rolls: int, dice: Dice | None = None, rules: str = DEFAULT_RULES, rng: Random | None = None
) -> int:
    """Roll `num_rolls` dice together (every die is rolled, even after a 1) and score them with Pig Out."""
    if not is_whole(num_rolls) or not 1 <= num_rolls <= 10:
        raise IllegalChoice(f"roll_dice rolls 1 to 10 dice, not {shown(num_rolls)}.")
    roll = dice or fair_dice(6, rng or Random())
    return get_rules(rules).roll_summary([roll() for _ in range(num_rolls)])[1]


def make_averaged(original_function: Callable[P, float], trials_count: int = 1000) -> Callable[P, float]:
    """A function returning the mean of `trials_count` calls of `original_function` on its arguments."""

    def averaged(*args: P.args, **kwargs: P.kwargs) -> float:
        return sum(original_function(*args, **kwargs) for _ in range(trials_count)) / trials_count

    return averaged


def max_scoring_num_rolls(
    dice: Dice | None = None, trials_count: int = 1000, rng: Random | None = None
) -> int:
    """The number of dice, 1 to 10, with the highest average turn score; ties go to fewer dice."""
    averaged = make_averaged(roll_dice, trials_count)
    roll = dice or fair_dice(6, rng or Random())
    return max(range(1, 11), key=lambda n: (averaged(n, roll), -n))


def bacon_strategy(score: int, opponent_score: int, cutoff: int = 8, num_rolls: int = 6) -> int:
    """Roll 0 when Free Bacon gives at least `cutoff` points, else `num_rolls`."""
    return 0 if COURSE_RULES.free_bacon(opponent_score) >= cutoff else num_rolls


def extra_turn_strategy(score: int, opponent_score: int, cutoff: int = 8, num_rolls: int = 6) -> int:
    """Roll 0 when Free Bacon would earn an extra turn; otherwise play `bacon_strategy`."""
    if extra_turn(score + COURSE_RULES.free_bacon(opponent_score), opponent_score):
        return 0
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


def winner(
    strategy0: Strategy,
    strategy1: Strategy,
    rules: str = DEFAULT_RULES,
    goal: int = MAX_GOAL,
    rng: Random | None = None,
) -> int:
    """Play one game with fair dice and return the winning player, 0 or 1."""
    score0, score1 = play(strategy0, strategy1, goal=goal, rules=rules, rng=rng)
    return 0 if score0 > score1 else 1


BASELINE = always_roll(6)


def average_win_rate(
    strategy: Strategy,
    baseline: Strategy = BASELINE,
    *,
    trials_count: int = 1000,
    rules: str = DEFAULT_RULES,
    goal: int = MAX_GOAL,
    rng: Random | None = None,
) -> float:
    """How often `strategy` beats `baseline`, averaged over moving first and second (simulated)."""
    averaged_winner = make_averaged(
        partial(winner, rules=rules, goal=goal, rng=rng or Random()), trials_count
    )
    as_player_0 = 1 - averaged_winner(strategy, baseline)
    as_player_1 = averaged_winner(baseline, strategy)
    return (as_player_0 + as_player_1) / 2


__all__ = [
    "Commentary",
    "Strategy",
    "always_roll",
    "announce_highest",
    "announce_lead_changes",
    "average_win_rate",
    "bacon_strategy",
    "both",
    "extra_turn_strategy",
    "make_averaged",
    "make_test_dice",
    "max_scoring_num_rolls",
    "play",
    "roll_dice",
    "say_scores",
    "silence",
    "winner",
]
