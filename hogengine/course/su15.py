"""CS 61A Summer 2015's `hog.py` (seed 001, `pig-fest`): its project API, played by the engine (the
contest's Ham Hijinks and Pig Fest included), which the strategy sandbox offers a file as `hog`; its
names, defaults and messages are the course's, with `free_bacon`, which its students wrote themselves."""

from hogengine.course.classic import GOAL_SCORE, Classic
from hogengine.course.dice import four_sided, make_test_dice, six_sided
from hogengine.course.ucb import interact, log_current_line, main, trace
from hogengine.rules import pieces
from hogengine.strategies import always_roll

_COURSE = Classic(
    __name__,
    num_rolls=5,
    baseline=5,
    negative="Cannot roll a negative number of dice.",
    swap=pieces.reversed_digits,
    harmful=True,
)
roll_dice = _COURSE.roll_dice
free_bacon = _COURSE.free_bacon
take_turn = _COURSE.take_turn
select_dice = _COURSE.select_dice
is_swap = _COURSE.is_swap
other = _COURSE.other
play = _COURSE.play
make_averaged = _COURSE.make_averaged
max_scoring_num_rolls = _COURSE.max_scoring_num_rolls
winner = _COURSE.winner
average_win_rate = _COURSE.average_win_rate
run_experiments = _COURSE.run_experiments
bacon_strategy = _COURSE.bacon_strategy
swap_strategy = _COURSE.swap_strategy
final_strategy = _COURSE.final_strategy

__all__ = [
    "GOAL_SCORE",
    "always_roll",
    "average_win_rate",
    "bacon_strategy",
    "final_strategy",
    "four_sided",
    "free_bacon",
    "interact",
    "is_swap",
    "log_current_line",
    "main",
    "make_averaged",
    "make_test_dice",
    "max_scoring_num_rolls",
    "other",
    "play",
    "roll_dice",
    "run_experiments",
    "select_dice",
    "six_sided",
    "swap_strategy",
    "take_turn",
    "trace",
    "winner",
]
