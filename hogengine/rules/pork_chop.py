"""`pork-chop`: CS 61A Spring 2017 (seeds 000, 003): Hogtimus, Hog Wild, doubling Swine Swap, Pork Chop."""

from typing import ClassVar

from hogengine.events import EventKind
from hogengine.numeric import Flag, Num
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import RuleSet, Step

PORK_CHOP = -1
CHOPPED_DICE = 10  # what a -1 rolls once the mover's Pork Chop is spent


class PorkChop(RuleSet):
    """A player's first -1 swaps the scores; every later -1 rolls ten dice."""

    id = "pork-chop"
    aliases: ClassVar[tuple[str, ...]] = ("sp17",)
    title = "Pork Chop (CS 61A Spring 2017 contest)"
    choices = range(-1, 11)
    layers = 4  # Pork Chop spent by the mover (bit 0) and by the opponent (bit 1)

    def _chops(self, position: Position, choice: Num) -> Flag:
        return (choice == PORK_CHOP) & (position.chop_mover == 0)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        minus_one = pieces.where(self._chops(position, choice), 0, CHOPPED_DICE)
        return pieces.where(choice == PORK_CHOP, minus_one, choice), self.sides(position)

    def four_sided(self, position: Position) -> Flag:
        return pieces.hog_wild(position.mover, position.opponent)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return pieces.where(ones < 11 - count, ones, 11 - count)

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def step(self, position: Position, choice: Num, pig_out: Flag, rolled: Num, goal: int) -> Step:
        chop = self._chops(position, choice)
        bacon = choice == 0
        base = pieces.where(bacon, self.free_bacon(position.opponent), rolled)
        points = pieces.where(chop, 0, pieces.hogtimus_prime(base))
        mover = position.mover + points
        # At most one swap a turn: a Pork Chop is the turn's swap.
        swap = chop | pieces.doubled(mover, position.opponent)
        after = Position(
            *pieces.trade_places(swap, mover, position.opponent),
            pieces.where(chop, 1, position.chop_mover),
            position.chop_opponent,
        )
        rolls = pieces.negate(chop) & pieces.negate(bacon)
        return Step(
            after,
            points,
            False,
            fired={
                EventKind.HOG_WILD: rolls & self.four_sided(position),
                EventKind.PORK_CHOP: chop,
                EventKind.FREE_BACON: bacon,
                EventKind.PIG_OUT: pig_out,
                EventKind.PRIME_BOOST: points != base,
                EventKind.SWAP: swap & pieces.negate(chop),
            },
            values={
                EventKind.HOG_WILD: self.sides(position),
                EventKind.FREE_BACON: base,
                EventKind.PIG_OUT: base,
                EventKind.PRIME_BOOST: points,
            },
        )

    def layer(self, position: Position) -> Num:
        return position.chop_mover + 2 * position.chop_opponent

    def at_layer(self, mover: Num, opponent: Num, layer: int) -> Position:
        return Position(mover, opponent, chop_mover=layer & 1, chop_opponent=layer >> 1)

    def choice_label(self, choice: int) -> str:
        return "Pork Chop" if choice == PORK_CHOP else super().choice_label(choice)

    def label_at(self, position: Position, choice: int) -> str:
        if choice == PORK_CHOP and position.chop_mover:
            return f"Roll {CHOPPED_DICE} (-1)"  # the chop is spent: -1 only rolls dice now
        return self.choice_label(choice)
