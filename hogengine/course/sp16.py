"""CS 61A Spring 2016's `hog.py` (seed 002, `piggy-back`, the rules of Fall 2015 too): its project API,
played by the engine, which the strategy sandbox offers a file as `hog`; its names, defaults and messages
are the course's (a swap_strategy without a margin), with `free_bacon`, which its students wrote: see
classic.py."""

from hogengine.course.classic import NO_MARGIN as _NO_MARGIN
from hogengine.course.classic import Classic as _Classic
from hogengine.rules import pieces as _pieces

_COURSE = _Classic(
    __name__,
    num_rolls=5,
    baseline=5,
    negative="Cannot roll a negative number of dice.",
    swap=_pieces.reversed_digits,
    harmful=False,
)


def swap_strategy(score: int, opponent_score: int, num_rolls: int = 5) -> int:
    """Roll 0 dice when Free Bacon makes a swap that helps, and `num_rolls` otherwise."""
    return _COURSE.swap_strategy(score, opponent_score, _NO_MARGIN, num_rolls)


_COURSE.bind(globals())
