"""`piggy-back`: CS 61A Spring 2016 (seed 002): a Pig Out scores 0 and gifts the opponent the dice count."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from hogengine.events import EventKind
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import RuleSet, Step

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Flag, Num


class PiggyBack(RuleSet):
    """Hogtimus Prime, Hog Wild and the digit Swine Swap, checked after the Piggy Back gift."""

    id = "piggy-back"
    aliases: ClassVar[tuple[str, ...]] = ("sp16",)
    title = "Piggy Back (CS 61A Spring 2016)"
    choices = range(0, 11)
    has_hog_wild = True
    rule_lines = (
        "A Pig Out scores 0, and **Piggy Back** gives your opponent one point per die you rolled.",
        "**Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hogtimus Prime**: a prime turn score becomes the next prime.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when the last two digits of one score are the other's reversed, they trade places.",
    )

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return choice, self.sides(position)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 0

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        points = pieces.hogtimus_prime(base)
        gift = pieces.where(pig_out, choice, 0)
        mover = position.mover + points
        opponent = position.opponent + gift
        swap = pieces.reversed_digits(mover, opponent)
        after = Position(*pieces.trade_places(swap, mover, opponent))
        return Step(
            after,
            points,
            False,
            fired={
                EventKind.PIGGY_BACK: pig_out,
                EventKind.PRIME_BOOST: points != base,
                EventKind.SWAP: swap,
            },
            values={EventKind.PIGGY_BACK: gift, EventKind.PRIME_BOOST: points},
        )
