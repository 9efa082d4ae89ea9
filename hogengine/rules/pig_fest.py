"""`pig-fest`: CS 61A Summer 2015 (seed 001): digit Swine Swap, Hog Wild, Ham Hijinks and Pig Fest."""

from typing import ClassVar

from hogengine.events import EventKind
from hogengine.numeric import Flag, Num
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import RuleSet, Step

HAM_HIJINKS = -1
# Pig Fest multiplies by min(3, max(1, streak)), so streaks above 3 play like 3.
MAX_STREAK = 3
# Our ruling (RULES.md): a Ham Hijinks turn is a turn without Pig Out, so it takes and resets the multiplier.
HAM_HIJINKS_USES_MULTIPLIER = True


def multiplier(streak: Num) -> Num:
    """Pig Fest: the multiplier a turn without Pig Out earns after `streak` consecutive Pig Outs."""
    return pieces.where(streak < 1, 1, streak)


def exchanged(position: Position) -> Flag:
    """Ham Hijinks: an odd number of exchanges swaps the four- and six-sided dice."""
    return position.exchanges % 2 == 1


class PigFest(RuleSet):
    """Pig Out scores 1 and feeds the streak; -1 scores 1 and exchanges four- and six-sided dice."""

    id = "pig-fest"
    aliases: ClassVar[tuple[str, ...]] = ("su15",)
    title = "Ham Hijinks + Pig Fest (CS 61A Summer 2015 contest)"
    choices = range(-1, 11)
    # The exchange parity (bit 0), the mover's streak (bits 1-2), the opponent's streak (bits 3-4).
    layers = 2 * (MAX_STREAK + 1) ** 2

    def four_sided(self, position: Position) -> Flag:
        """Hog Wild, flipped by an odd number of exchanges."""
        return pieces.hog_wild(position.mover, position.opponent) ^ exchanged(position)

    def dice_rules(self, position: Position) -> tuple[EventKind, ...]:
        hog_wild = pieces.hog_wild(position.mover, position.opponent)
        flips = ((EventKind.HOG_WILD, hog_wild), (EventKind.HAM_HIJINKS, exchanged(position)))
        return tuple(rule for rule, applies in flips if applies)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return pieces.where(choice == HAM_HIJINKS, 0, choice), self.sides(position)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 1

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def step(self, position: Position, choice: Num, pig_out: Flag, rolled: Num, goal: int) -> Step:
        ham = choice == HAM_HIJINKS
        bacon = choice == 0
        base = pieces.where(ham, 1, pieces.where(bacon, self.free_bacon(position.opponent), rolled))
        multiplied = pieces.negate(pig_out) & (pieces.negate(ham) | HAM_HIJINKS_USES_MULTIPLIER)
        times = pieces.where(multiplied, multiplier(position.streak_mover), 1)
        points = base * times
        streak = pieces.where(
            pig_out,
            pieces.where(position.streak_mover < MAX_STREAK, position.streak_mover + 1, MAX_STREAK),
            0,
        )
        mover = position.mover + points
        swap = pieces.reversed_digits(mover, position.opponent)
        exchanges = position.exchanges + pieces.where(ham, 1, 0)
        after = Position(
            *pieces.trade_places(swap, mover, position.opponent),
            streak_mover=streak,
            streak_opponent=position.streak_opponent,
            exchanges=exchanges,
        )
        rolls = pieces.negate(ham) & pieces.negate(bacon)
        return Step(
            after,
            points,
            False,
            fired={
                EventKind.HOG_WILD: rolls & pieces.hog_wild(position.mover, position.opponent),
                EventKind.HAM_HIJINKS: ham,
                EventKind.FREE_BACON: bacon,
                EventKind.PIG_OUT: pig_out,
                EventKind.MULTIPLIER: times > 1,
                EventKind.SWAP: swap,
            },
            values={
                EventKind.HOG_WILD: self.sides(position),
                EventKind.HAM_HIJINKS: exchanges,
                EventKind.FREE_BACON: base,
                EventKind.PIG_OUT: points,
                EventKind.MULTIPLIER: times,
            },
        )

    def layer(self, position: Position) -> Num:
        side = MAX_STREAK + 1
        return position.exchanges % 2 + 2 * (position.streak_mover + side * position.streak_opponent)

    def at_layer(self, mover: Num, opponent: Num, layer: int) -> Position:
        side = MAX_STREAK + 1
        return Position(
            mover,
            opponent,
            streak_mover=(layer >> 1) % side,
            streak_opponent=(layer >> 1) // side,
            exchanges=layer & 1,
        )

    def choice_label(self, choice: int) -> str:
        return "Ham Hijinks" if choice == HAM_HIJINKS else super().choice_label(choice)
