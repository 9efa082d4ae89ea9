"""`pig-fest`: CS 61A Summer 2015 (seed 001): digit Swine Swap, Hog Wild, Ham Hijinks and Pig Fest."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from hogengine.events import EventKind
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import HiddenPart, RuleSet, StateView, Step
from hogengine.text import counted

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Flag, Num

HAM_HIJINKS = -1
# Pig Fest multiplies by min(3, max(1, streak)), so streaks above 3 play like 3.
MAX_STREAK = 3
# Our ruling (RULES.md): a Ham Hijinks turn is a turn without Pig Out, so it takes and resets the multiplier.
HAM_HIJINKS_USES_MULTIPLIER = True
STREAK = HiddenPart("streak", "Pig Fest", per_seat=True, values=range(MAX_STREAK + 1))
# Every Ham Hijinks scores a point, so a game to a goal of at most 100 sees fewer than 200 of them.
EXCHANGES = HiddenPart("exchanges", "Ham Hijinks", per_seat=False, values=range(200))


def multiplier(streak: Num) -> Num:
    """Pig Fest: the multiplier a turn without Pig Out earns after `streak` consecutive Pig Outs."""
    return pieces.where(streak < 1, 1, streak)


def exchanged(position: Position) -> Flag:
    """Ham Hijinks: an odd number of exchanges swaps the four- and six-sided dice."""
    (exchanges,) = position.shared
    return exchanges % 2 == 1


class PigFest(RuleSet):
    """Pig Out scores 1 and feeds the streak; -1 scores 1 and exchanges four- and six-sided dice."""

    id = "pig-fest"
    aliases: ClassVar[tuple[str, ...]] = ("su15",)
    title = "Ham Hijinks + Pig Fest (CS 61A Summer 2015 contest)"
    choices = range(-1, 11)
    has_hog_wild = True
    # Seed 001: "Strategies are allowed to be non-deterministic", its exact win rate computed once.
    random_strategies = True
    rule_lines = (
        "A Pig Out scores 1. **Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when the last two digits of one score are the other's reversed, they trade places.",
        "**Ham Hijinks** (-1): score 1 and exchange four- and six-sided dice for everyone from now on.",
        "**Pig Fest**: each Pig Out in a row raises your next scoring turn's multiplier, up to x3.",
    )
    hidden_parts = (STREAK, EXCHANGES)

    def four_sided(self, position: Position) -> Flag:
        """Hog Wild, flipped by an odd number of exchanges."""
        return self.hog_wild(position) ^ exchanged(position)

    def dice_rules(self, position: Position) -> tuple[EventKind, ...]:
        flips = ((EventKind.HOG_WILD, self.hog_wild(position)), (EventKind.HAM_HIJINKS, exchanged(position)))
        return tuple(rule for rule, applies in flips if applies)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return pieces.where(choice == HAM_HIJINKS, 0, choice), self.sides(position)

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 1

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_digit(opponent)

    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        ham = choice == HAM_HIJINKS
        (streak,) = position.mine
        (exchanges,) = position.shared
        multiplied = pieces.negate(pig_out) & (pieces.negate(ham) | HAM_HIJINKS_USES_MULTIPLIER)
        times = pieces.where(multiplied, multiplier(streak), 1)
        points = pieces.where(ham, 1, base) * times
        streak_after = pieces.where(pig_out, pieces.where(streak < MAX_STREAK, streak + 1, MAX_STREAK), 0)
        mover = position.mover + points
        swap = pieces.reversed_digits(mover, position.opponent)
        exchanges_after = exchanges + pieces.where(ham, 1, 0)
        after = Position(
            *pieces.trade_places(swap, mover, position.opponent),
            mine=(streak_after,),
            theirs=position.theirs,
            shared=(exchanges_after,),
        )
        return Step(
            after,
            points,
            False,
            fired={EventKind.HAM_HIJINKS: ham, EventKind.MULTIPLIER: times > 1, EventKind.SWAP: swap},
            values={
                EventKind.HAM_HIJINKS: exchanges_after,
                EventKind.PIG_OUT: points,
                EventKind.MULTIPLIER: times,
            },
        )

    @property
    def layers(self) -> int:
        """The rules read only the exchanges' parity: two layers of it, by both players' streaks."""
        return 2 * len(STREAK.values) ** 2

    def layer(self, position: Position) -> Num:
        # The exchange parity (bit 0), the mover's streak (bits 1-2), the opponent's streak (bits 3-4).
        side = len(STREAK.values)
        (exchanges,) = position.shared
        return exchanges % 2 + 2 * (position.mine[0] + side * position.theirs[0])

    def at_layer(self, mover: Num, opponent: Num, layer: int) -> Position:
        side = len(STREAK.values)
        return Position(mover, opponent, ((layer >> 1) % side,), ((layer >> 1) // side,), (layer & 1,))

    def describe_part(self, state: StateView, part: HiddenPart, seat: int | None) -> str:
        value = state.hidden_value(part, seat)
        if part is EXCHANGES:
            return f"Ham Hijinks: dice exchanged {counted(value, 'time')}"
        return f"Pig Fest: {counted(value, 'Pig Out')} in a row, next scoring turn x{multiplier(value)}"

    def dice_reason(self, state: StateView, rule: EventKind) -> str:
        if rule is EventKind.HAM_HIJINKS:
            exchanges = state.hidden_value(EXCHANGES, None)
            return f"the dice were exchanged {counted(exchanges, 'time')}, an odd number"
        return super().dice_reason(state, rule)

    def choice_label(self, choice: int) -> str:
        return "Ham Hijinks" if choice == HAM_HIJINKS else super().choice_label(choice)
