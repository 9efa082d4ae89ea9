"""The CS 61A Hog project's `hog.py` (Fall 2020, seed 004), played by the engine's own rules.

`import hogengine.course as hog` (and `from hogengine.course import dice`) stands in for the course's
files: every function of Problems 0-12 keeps its name, signature, defaults and `assert` messages and
returns plain Python values, and the rules come from `hogengine.rules` (nothing here re-implements one).
Functions whose meaning depends on the rule set take `rules=` for the others. As the course's, `play`
takes any dice (a face above the die, an always-7 die), any goal and start scores at or over it; the
live engine and replays keep their checks. The course's `play` asks `extra_turn`, which asks
`swine_align` and `pig_pass`, so replacing one of them here switches that rule off, as the course's GUI
does.
"""

from collections.abc import Callable
from dataclasses import replace
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
from hogengine.course.dice import Dice, four_sided, make_fair_dice, make_test_dice, six_sided
from hogengine.course.games import play_game, whole
from hogengine.course.ucb import interact, main, trace
from hogengine.dice import fair_dice
from hogengine.game import State, TurnResult
from hogengine.rules import DEFAULT_RULES, get_rules, pieces
from hogengine.solver import best_table
from hogengine.strategies import Strategy, always_roll

P = ParamSpec("P")
GOAL_SCORE = 100  # The goal of Hog is to score 100 points.
FIRST_101_DIGITS_OF_PI = int("".join(str(digit) for digit in pieces.pi_digits(101)))
COURSE_RULES = get_rules(DEFAULT_RULES)  # the course's own rule set (Fall 2020)


# Phase 1: Simulator


def roll_dice(num_rolls: int, dice: Dice = six_sided, *, rules: str = DEFAULT_RULES) -> int:
    """Roll the dice exactly `num_rolls` > 0 times (every one, even after a 1) and return the points: their
    sum, or what a Pig Out scores under the rules (1 in the course's)."""
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return int(get_rules(rules).roll_summary([dice() for _ in range(num_rolls)])[1])


def free_bacon(score: int, *, rules: str = DEFAULT_RULES) -> int:
    """The points for rolling 0 dice (Free Bacon) against the opponent's `score`."""
    assert whole(score) < 100, "The game should be over."
    return int(get_rules(rules).free_bacon(score))


def take_turn(num_rolls: int, opponent_score: int, dice: Dice = six_sided) -> int:
    """The points of a turn rolling `num_rolls` dice, which may be 0 (Free Bacon): through `roll_dice` and
    `free_bacon`, as the course's tests check by replacing them."""
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
    assert num_rolls <= 10, "Cannot roll more than 10 dice."
    assert opponent_score < 100, "The game should be over."
    return free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def extra_turn(player_score: int, opponent_score: int) -> bool:
    """Whether the player goes again, by Pig Pass or Swine Align."""
    return pig_pass(player_score, opponent_score) or swine_align(player_score, opponent_score)


def swine_align(player_score: int, opponent_score: int) -> bool:
    """Whether the player goes again by Swine Align: both scores positive, their GCD at least 10."""
    return bool(pieces.swine_align(player_score, opponent_score))


def pig_pass(player_score: int, opponent_score: int) -> bool:
    """Whether the player goes again by Pig Pass: behind the opponent by less than 3."""
    return bool(pieces.pig_pass(player_score, opponent_score))


def other(who: int) -> int:
    """The other player, for a player `who` numbered 0 or 1."""
    return 1 - who


def play(  # noqa: PLR0917 - the course's signature, positional arguments included
    strategy0: Strategy,
    strategy1: Strategy,
    score0: int = 0,
    score1: int = 0,
    dice: Dice = six_sided,
    goal: int = GOAL_SCORE,
    say: Commentary = silence,
    *,
    rules: str = DEFAULT_RULES,
    rng: Random | None = None,
) -> tuple[int, int]:
    """Play a game and return both final scores, Player 0's first: each strategy is asked once per turn
    and `say` hears the scores after every turn. `dice` serves every roll; the default, the course's fair
    six-sided die, stands for fair dice of as many sides as the rules call for (four under Hog Wild),
    from `rng` if given, else from the `random` module as the course's fair dice."""
    state = State(get_rules(rules).id, whole(goal), (whole(score0), whole(score1)))

    def roll(state: State, sides: int) -> Dice:
        return dice if dice is not six_sided else fair_dice(sides, rng) if rng else make_fair_dice(sides)

    return play_game(state, (strategy0, strategy1), roll, say, _after)


def _after(turn: TurnResult) -> State:
    """The state after a turn. Under the course's rules the mover goes again when this module's
    `extra_turn` says so, as the course's `play` asks it: replacing `swine_align` or `pig_pass` here
    switches that rule off."""
    after = turn.after
    if after.ruleset is not COURSE_RULES or after.over:
        return after
    me = turn.player
    again = extra_turn(after.scores[me], after.scores[other(me)])
    return replace(after, mover=me if again else other(me))


# Phase 3: Strategies


def make_averaged(original_function: Callable[P, float], trials_count: int = 1000) -> Callable[P, float]:
    """A function returning the mean of `trials_count` calls of `original_function` on its arguments."""

    def averaged(*args: P.args, **kwargs: P.kwargs) -> float:
        return float(sum(original_function(*args, **kwargs) for _ in range(trials_count)) / trials_count)

    return averaged


def max_scoring_num_rolls(
    dice: Dice = six_sided, trials_count: int = 1000, *, rules: str = DEFAULT_RULES
) -> int:
    """The number of dice, 1 to 10, whose `roll_dice` averages the most over `trials_count` rolls each, in
    order from 1; ties go to fewer dice."""
    averaged = make_averaged(partial(roll_dice, rules=rules), trials_count)
    return max(range(1, 11), key=lambda n: (averaged(n, dice), -n))


def winner(
    strategy0: Strategy,
    strategy1: Strategy,
    *,
    rules: str = DEFAULT_RULES,
    goal: int = GOAL_SCORE,
    rng: Random | None = None,
) -> int:
    """0 if strategy0 wins a game with fair dice against strategy1, and 1 otherwise."""
    score0, score1 = play(strategy0, strategy1, goal=goal, rules=rules, rng=rng)
    return 0 if score0 > score1 else 1


BASELINE = always_roll(6)


def average_win_rate(
    strategy: Strategy,
    baseline: Strategy = BASELINE,
    *,
    trials_count: int = 1000,
    rules: str = DEFAULT_RULES,
    goal: int = GOAL_SCORE,
    rng: Random | None = None,
) -> float:
    """How often `strategy` beats `baseline`, averaged over moving first and second (simulated with fair
    dice from `rng` if given, else from the `random` module)."""
    averaged_winner = make_averaged(partial(winner, rules=rules, goal=goal, rng=rng), trials_count)
    as_player_0 = 1 - averaged_winner(strategy, baseline)
    as_player_1 = averaged_winner(baseline, strategy)
    return (as_player_0 + as_player_1) / 2


def run_experiments(*, rules: str = DEFAULT_RULES) -> None:
    """What the course's `python3 hog.py -r` prints: the number of dice that scores most on average."""
    print("Max scoring num rolls for six-sided dice:", max_scoring_num_rolls(six_sided, rules=rules))


def bacon_strategy(
    score: int, opponent_score: int, cutoff: int = 8, num_rolls: int = 6, *, rules: str = DEFAULT_RULES
) -> int:
    """Roll 0 when Free Bacon gives at least `cutoff` points, else `num_rolls`."""
    return 0 if free_bacon(opponent_score, rules=rules) >= cutoff else num_rolls


def extra_turn_strategy(
    score: int, opponent_score: int, cutoff: int = 8, num_rolls: int = 6, *, rules: str = DEFAULT_RULES
) -> int:
    """Roll 0 when Free Bacon earns an extra turn (only the course's rules have them), otherwise play
    `bacon_strategy`."""
    gains = free_bacon(opponent_score, rules=rules)
    if get_rules(rules) is COURSE_RULES and extra_turn(score + gains, opponent_score):
        return 0
    return bacon_strategy(score, opponent_score, cutoff, num_rolls, rules=rules)


def final_strategy(score: int, opponent_score: int, *, rules: str = DEFAULT_RULES) -> int:
    """The choice of the best score-only table (`best-table`: the exact solver's, the strongest a contest
    file can hold); made once per process, within a second (half a minute under pig-fest)."""
    assert whole(score) < GOAL_SCORE and whole(opponent_score) < GOAL_SCORE, "The game should be over."
    return int(best_table(rules)[score, opponent_score])


__all__ = [
    "FIRST_101_DIGITS_OF_PI",
    "GOAL_SCORE",
    "Commentary",
    "Strategy",
    "always_roll",
    "announce_highest",
    "announce_lead_changes",
    "average_win_rate",
    "bacon_strategy",
    "both",
    "extra_turn",
    "extra_turn_strategy",
    "final_strategy",
    "four_sided",
    "free_bacon",
    "interact",
    "main",
    "make_averaged",
    "make_fair_dice",
    "make_test_dice",
    "max_scoring_num_rolls",
    "other",
    "pig_pass",
    "play",
    "roll_dice",
    "run_experiments",
    "say_scores",
    "silence",
    "six_sided",
    "swine_align",
    "take_turn",
    "trace",
    "winner",
]
