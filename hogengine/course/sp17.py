"""CS 61A Spring 2017's `hog.py` (seeds 000 and 003, `pork-chop`): its project API, played by the engine,
which the strategy sandbox offers a contest file as `hog`; its names, defaults and messages are the
course's (Problem 6's `check_strategy` included)."""

from hogengine.course.classic import GOAL_SCORE, Classic
from hogengine.course.dice import four_sided, make_test_dice, six_sided
from hogengine.course.ucb import interact, log_current_line, main, trace
from hogengine.rules import pieces
from hogengine.strategies import always_roll

_COURSE = Classic(
    __name__,
    num_rolls=4,
    baseline=4,
    negative="Cannot roll a negative number of dice in take_turn.",
    swap=pieces.doubled,
    harmful=False,
)
roll_dice = _COURSE.roll_dice
free_bacon = _COURSE.free_bacon
take_turn = _COURSE.take_turn
select_dice = _COURSE.select_dice
is_swap = _COURSE.is_swap
other = _COURSE.other
play = _COURSE.play
check_strategy_roll = _COURSE.check_strategy_roll
check_strategy = _COURSE.check_strategy
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
    "check_strategy",
    "check_strategy_roll",
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
