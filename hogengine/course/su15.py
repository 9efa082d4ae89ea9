"""CS 61A Summer 2015's `hog.py` (seed 001, `pig-fest`): its project API, played by the engine (the
contest's Ham Hijinks and Pig Fest included), which the strategy sandbox offers a file as `hog`; its
names, defaults and messages are the course's, with `free_bacon`, which its students wrote themselves:
see classic.py."""

from hogengine.course.classic import Classic as _Classic
from hogengine.rules import pieces as _pieces

_COURSE = _Classic(
    __name__,
    num_rolls=5,
    baseline=5,
    negative="Cannot roll a negative number of dice.",
    swap=_pieces.reversed_digits,
    harmful=True,
)
_COURSE.bind(globals())
