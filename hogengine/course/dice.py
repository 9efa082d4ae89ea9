"""The CS 61A Hog project's `dice.py`: `from hogengine.course import dice` stands in for it.

A dice function takes no arguments and returns an outcome. Fair dice return 1 to n with equal chance,
drawn from this module's own random source `RANDOM` (never the module-level `random`): reseed it
(`RANDOM.seed(1)`) and the same rolls come again. Test dice cycle through fixed outcomes. The checks
are the course's `assert`s, with its messages.
"""

from itertools import cycle
from random import Random

from hogengine.dice import Dice, fair_dice

RANDOM = Random()


def make_fair_dice(sides: int) -> Dice:
    """A die that returns 1 to `sides` with equal chance."""
    assert type(sides) is int and sides >= 1, "Illegal value for sides"
    return fair_dice(sides, RANDOM)


four_sided = make_fair_dice(4)
six_sided = make_fair_dice(6)


def make_test_dice(*outcomes: int) -> Dice:
    """A die that cycles deterministically through `outcomes`: 1, 2, 3, 1, 2, ... for (1, 2, 3)."""
    assert len(outcomes) > 0, "You must supply outcomes to make_test_dice"
    for outcome in outcomes:
        assert type(outcome) is int and outcome >= 1, "Outcome is not a positive integer"
    rolls = cycle(outcomes)
    return lambda: next(rolls)


__all__ = ["RANDOM", "four_sided", "make_fair_dice", "make_test_dice", "six_sided"]
