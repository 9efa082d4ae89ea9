"""CS 61A Spring 2017's `hog.py` (seeds 000 and 003, `pork-chop`): its project API, played by the engine,
which the strategy sandbox offers a contest file as `hog`; its names, defaults and messages are the
course's (Problem 6's `check_strategy` included): see classic.py."""

from hogengine.course.classic import Classic as _Classic
from hogengine.rules import pieces as _pieces

_COURSE = _Classic(
    __name__,
    num_rolls=4,
    baseline=4,
    negative="Cannot roll a negative number of dice in take_turn.",
    swap=_pieces.doubled,
    harmful=False,
)
_COURSE.bind(globals(), "check_strategy", "check_strategy_roll")
