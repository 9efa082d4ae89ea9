"""What every rule set provides, and the parts of a turn that all of them share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from math import prod
from typing import TYPE_CHECKING, ClassVar, Protocol

from hogengine.events import EventKind
from hogengine.position import Position
from hogengine.rules import pieces

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Flag, Num

# What every Hog game shares, before a rule set's own rules (`RuleSet.explain`).
COMMON_RULES = (
    "Two players take turns. On your turn choose how many dice to roll (0 to {most}); the turn scores "
    "their sum, but any 1 is a **Pig Out**. The first to reach the goal at the end of a turn wins."
)


@dataclass(frozen=True)
class HiddenPart:
    """A part of the state the scores do not show, declared by the rule set whose rules read it."""

    name: str  # its key in stored states and records, e.g. "pork_chop"
    title: str  # how people call it, e.g. "Pork Chop"
    per_seat: bool  # one value per player, or one both share
    values: range  # every value it can take; a new game starts at the first


@dataclass(frozen=True)
class Step:
    """A resolved turn seen from the mover, before the seat changes: arrays in the solver, scalars live."""

    position: Position
    points: Num  # what the mover scored this turn, after every boost
    extra: Flag  # the mover takes another turn (never once the game is over)
    fired: dict[EventKind, Flag] = field(default_factory=dict)  # which rules fired
    values: dict[EventKind, Num] = field(default_factory=dict)  # the number each produced


class StateView(Protocol):
    """What a rule set reads of a live game's state to describe it for people (hogengine.game.State is
    one): the seats' scores and its hidden parts' values, so the rules need not import the game."""

    @property
    def scores(self) -> tuple[int, int]: ...

    def hidden_value(self, part: HiddenPart, seat: int | None) -> int: ...


def game_over(position: Position, goal: int) -> Flag:
    """The game ends when either score is at or above the goal at the end of a turn."""
    return (position.mover >= goal) | (position.opponent >= goal)


class RuleSet(ABC):
    """One seed rule set: its choices, dice, hidden parts and rule text, and how a turn resolves."""

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    title: ClassVar[str]
    choices: ClassVar[range]
    rule_lines: ClassVar[tuple[str, ...]]  # the rule set's own rules for players, after COMMON_RULES
    hidden_parts: ClassVar[tuple[HiddenPart, ...]] = ()
    has_hog_wild: ClassVar[bool] = False  # four-sided dice when the scores add up to a multiple of 7
    random_strategies: ClassVar[bool] = False  # its contest takes strategies that answer at random

    @abstractmethod
    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        """How many dice a choice rolls here, and how many sides they have (0 dice: no roll)."""

    @abstractmethod
    def pig_out_points(self, count: Num, ones: Num) -> Num:
        """The turn score of a roll of `count` dice that shows `ones` ones (at least one)."""

    @abstractmethod
    def free_bacon(self, opponent: Num) -> Num:
        """Points for rolling zero dice against this opponent score."""

    @abstractmethod
    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        """This rule set's own rules for a turn whose dice or Free Bacon gave `base` points; the events
        every rule set shares (Hog Wild, Free Bacon, Pig Out) are added by `step`."""

    def step(self, position: Position, choice: Num, pig_out: Flag, rolled: Num, goal: int) -> Step:
        """Resolve a turn whose dice gave `rolled` points (Pig Out already applied): Free Bacon or the
        dice, then the rule set's own rules."""
        bacon = choice == 0
        base = pieces.where(bacon, self.free_bacon(position.opponent), rolled)
        own = self.score(position, choice, base, pig_out, goal)
        count, _ = self.dice(position, choice)
        fired = {
            EventKind.HOG_WILD: (count > 0) & self.hog_wild(position),
            EventKind.FREE_BACON: bacon,
            EventKind.PIG_OUT: pig_out,
        }
        values = {
            EventKind.HOG_WILD: self.sides(position),
            EventKind.FREE_BACON: base,
            EventKind.PIG_OUT: base,
        }
        return replace(own, fired={**fired, **own.fired}, values={**values, **own.values})

    @property
    def name(self) -> str:
        """The rule set as people call it, its title without the course term ("Pork Chop"): what every
        message names it by (commands take its id)."""
        return self.title.split(" (")[0]

    def explain(self) -> str:
        """The rule set in a few lines, after what every Hog game shares (`/hog rules`, `hog rules`)."""
        common = COMMON_RULES.format(most=self.choices[-1])
        return "\n".join((common, "", *(f"• {line}" for line in self.rule_lines)))

    def describe_hidden(
        self, state: StateView, seat: int | None, *, changed_only: bool = False
    ) -> tuple[str, ...]:
        """The hidden parts for people: one seat's own (`seat`), or those both share (None); with
        `changed_only`, only those no longer at their starting value (a board on a phone has no room for
        "0 times")."""
        return tuple(
            self.describe_part(state, part, seat)
            for part in self.hidden_parts
            if part.per_seat == (seat is not None)
            and not (changed_only and state.hidden_value(part, seat) == part.values.start)
        )

    def describe_part(self, state: StateView, part: HiddenPart, seat: int | None) -> str:
        """One hidden part's value in words, for one seat (or shared: None)."""
        return f"{part.title}: {state.hidden_value(part, seat)}"

    @property
    def layers(self) -> int:
        """How many hidden layers the solver sweeps: every combination of the hidden parts' values."""
        return prod(len(values) for values in self._layer_digits())

    def _layer_digits(self) -> list[range]:
        seat = [part.values for part in self.hidden_parts if part.per_seat]
        return [*seat, *seat, *(part.values for part in self.hidden_parts if not part.per_seat)]

    def layer(self, position: Position) -> Num:
        """The index of a position's hidden parts, 0..layers-1 (equal index: the rules cannot tell apart)."""
        index: Num = 0
        scale = 1
        for values, value in zip(
            self._layer_digits(), (*position.mine, *position.theirs, *position.shared), strict=True
        ):
            index = index + (value - values.start) * scale
            scale *= len(values)
        return index

    def at_layer(self, mover: Num, opponent: Num, layer: int) -> Position:
        """A position with these scores and the hidden parts numbered `layer`."""
        digits = []
        for values in self._layer_digits():
            layer, digit = divmod(layer, len(values))
            digits.append(values.start + digit)
        return self.start_position(mover, opponent).with_values((mover, opponent, *digits))

    def start_position(self, mover: Num, opponent: Num) -> Position:
        """These scores with every hidden part at its first value, as a new game has them."""
        seat = tuple(part.values.start for part in self.hidden_parts if part.per_seat)
        shared = tuple(part.values.start for part in self.hidden_parts if not part.per_seat)
        return Position(mover, opponent, seat, seat, shared)

    def event_note(self, kind: EventKind, value: int) -> str:
        """A word naming which variant of a rule fired, where a rule set has variants."""
        return ""

    def choice_label(self, choice: int) -> str:
        """How a choice reads on a button, whatever the position (legends, strategy tables)."""
        return "Free Bacon" if choice == 0 else f"Roll {choice}"

    def label_at(self, position: Position, choice: int) -> str:
        """How a choice reads for the player to move at this position: what it does there."""
        return self.choice_label(choice)

    def plays_as(self, position: Position, choice: int) -> int | None:
        """Another choice that this one plays exactly like here (same dice, same rules), if any: buttons and
        hints offer one action once."""
        return None

    def hog_wild(self, position: Position) -> Flag:
        """Whether Hog Wild applies here: in a rule set that has it, when the scores add up to a multiple
        of 7."""
        return pieces.hog_wild(position.mover, position.opponent) if self.has_hog_wild else False

    def four_sided(self, position: Position) -> Flag:
        """Whether a roll here uses four-sided dice instead of six-sided ones (by default: Hog Wild)."""
        return self.hog_wild(position)

    def sides(self, position: Position) -> Num:
        """How many sides the dice of a roll have here."""
        return pieces.where(self.four_sided(position), 4, 6)

    def dice_rules(self, position: Position) -> tuple[EventKind, ...]:
        """The rules that set a roll's dice at this live position, so boards can say why (by default Hog
        Wild); each one swaps six-sided dice for four-sided or back."""
        return (EventKind.HOG_WILD,) if self.hog_wild(position) else ()

    def dice_reason(self, state: StateView, rule: EventKind) -> str:
        """Why one of `dice_rules` set the dice, in words, for boards and terminals."""
        mover, opponent = state.scores
        return f"Hog Wild: {mover} + {opponent} = {mover + opponent} is a multiple of 7"

    def roll_summary(self, outcomes: Sequence[int]) -> tuple[bool, int]:
        """Pig Out or not, and the points the dice give before the turn's other rules."""
        ones = sum(1 for outcome in outcomes if outcome == 1)
        if ones:
            return True, int(self.pig_out_points(len(outcomes), ones))
        return False, sum(outcomes)
