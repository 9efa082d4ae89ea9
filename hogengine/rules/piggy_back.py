"""`piggy-back`: CS 61A Spring 2016 (seed 002): a Pig Out scores 0 and gifts the opponent the dice count."""

from typing import ClassVar

from hogengine.events import EventKind
from hogengine.numeric import Flag, Num
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import RuleSet, Step


class PiggyBack(RuleSet):
    """Hogtimus Prime, Hog Wild and the digit Swine Swap, checked after the Piggy Back gift."""

    id = "piggy-back"
    aliases: ClassVar[tuple[str, ...]] = ("sp16",)
    title = "Piggy Back (CS 61A Spring 2016)"
    choices = range(0, 11)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return choice, self.sides(position)

    def four_sided(self, position: Position) -> Flag:
        return pieces.hog_wild(position.mover, position.opponent)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 0

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def step(self, position: Position, choice: Num, pig_out: Flag, rolled: Num, goal: int) -> Step:
        bacon = choice == 0
        base = pieces.where(bacon, self.free_bacon(position.opponent), rolled)
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
                EventKind.HOG_WILD: pieces.negate(bacon) & self.four_sided(position),
                EventKind.FREE_BACON: bacon,
                EventKind.PIG_OUT: pig_out,
                EventKind.PIGGY_BACK: pig_out,
                EventKind.PRIME_BOOST: points != base,
                EventKind.SWAP: swap,
            },
            values={
                EventKind.HOG_WILD: self.sides(position),
                EventKind.FREE_BACON: base,
                EventKind.PIG_OUT: 0,
                EventKind.PIGGY_BACK: gift,
                EventKind.PRIME_BOOST: points,
            },
        )
