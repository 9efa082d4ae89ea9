"""`pork-chop`: CS 61A Spring 2017 (seeds 000, 003): Hogtimus, Hog Wild, doubling Swine Swap, Pork Chop."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from hogengine.events import EventKind
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import HiddenPart, RuleSet, StateView, Step

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Flag, Num

PORK_CHOP = -1
CHOPPED_DICE = 10  # what a -1 rolls once the mover's Pork Chop is spent
SPENT = HiddenPart("pork_chop", "Pork Chop", per_seat=True, values=range(2))  # 1 once spent


class PorkChop(RuleSet):
    """A player's first -1 swaps the scores; every later -1 rolls ten dice."""

    id = "pork-chop"
    aliases: ClassVar[tuple[str, ...]] = ("sp17",)
    title = "Pork Chop (CS 61A Spring 2017 contest)"
    choices = range(-1, 11)
    has_hog_wild = True
    rule_lines = (
        "A Pig Out scores the number of 1s rolled, at most 11 - the dice rolled.",
        "**Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hogtimus Prime**: a prime turn score becomes the next prime.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when one score is exactly double the other, they trade places.",
        "**Pork Chop** (-1): your first one scores nothing and swaps the scores; later ones roll 10 dice.",
    )
    hidden_parts = (SPENT,)

    def _chops(self, position: Position, choice: Num) -> Flag:
        (spent,) = position.mine
        return (choice == PORK_CHOP) & (spent == 0)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        minus_one = pieces.where(self._chops(position, choice), 0, CHOPPED_DICE)
        return pieces.where(choice == PORK_CHOP, minus_one, choice), self.sides(position)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return pieces.where(ones < 11 - count, ones, 11 - count)

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        chop = self._chops(position, choice)
        points = pieces.where(chop, 0, pieces.hogtimus_prime(base))
        mover = position.mover + points
        # At most one swap a turn: a Pork Chop is the turn's swap.
        swap = chop | pieces.doubled(mover, position.opponent)
        (spent,) = position.mine
        after = Position(
            *pieces.trade_places(swap, mover, position.opponent),
            mine=(pieces.where(chop, 1, spent),),
            theirs=position.theirs,
        )
        return Step(
            after,
            points,
            False,
            fired={
                EventKind.PORK_CHOP: chop,
                EventKind.PRIME_BOOST: points != base,
                EventKind.SWAP: swap & pieces.negate(chop),
            },
            values={EventKind.PRIME_BOOST: points},
        )

    def describe_part(self, state: StateView, part: HiddenPart, seat: int | None) -> str:
        return "Pork Chop: used" if state.hidden_value(part, seat) else "Pork Chop: ready"

    def choice_label(self, choice: int) -> str:
        return "Pork Chop" if choice == PORK_CHOP else super().choice_label(choice)

    def label_at(self, position: Position, choice: int) -> str:
        (spent,) = position.mine
        if choice == PORK_CHOP and spent:
            return f"Roll {CHOPPED_DICE} (-1)"  # the chop is spent: -1 only rolls dice now
        return self.choice_label(choice)

    def plays_as(self, position: Position, choice: int) -> int | None:
        (spent,) = position.mine
        return CHOPPED_DICE if choice == PORK_CHOP and spent else None
