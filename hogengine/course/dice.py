"""The CS 61A Hog project's `dice.py`, with the course's semantics: `from hogengine.course import dice`.

A dice function takes no arguments and returns an outcome. Fair dice return 1 to n with equal chance
from the `random` module, as the course's do (so `random.seed(8)` repeats their rolls, as it does beside
the course's own file); test dice cycle through fixed outcomes, the first one first. The checks are the
course's `assert`s, with its messages. Standard library only: the strategy sandbox loads this very file
as the `dice` a student's `hog.py` imports.
"""

from collections.abc import Callable
from itertools import cycle
from random import randint

Dice = Callable[[], int]


def make_fair_dice(sides: int) -> Dice:
    """A die that returns 1 to `sides` with equal chance."""
    assert type(sides) is int and sides >= 1, "Illegal value for sides"

    def dice() -> int:
        return randint(1, sides)

    return dice


four_sided = make_fair_dice(4)
six_sided = make_fair_dice(6)


def make_test_dice(*outcomes: int) -> Dice:
    """A die that cycles deterministically through `outcomes`: 1, 2, 3, 1, 2, ... for (1, 2, 3)."""
    assert len(outcomes) > 0, "You must supply outcomes to make_test_dice"
    for outcome in outcomes:
        assert type(outcome) is int and outcome >= 1, "Outcome is not a positive integer"
    rolls = cycle(outcomes)
    return lambda: next(rolls)


__all__ = ["Dice", "four_sided", "make_fair_dice", "make_test_dice", "six_sided"]
