"""What every rule set provides, and the parts of a turn that all of them share."""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from hogengine.events import EventKind
from hogengine.numeric import Flag, Num
from hogengine.position import Position
from hogengine.rules import pieces


@dataclass(frozen=True)
class Step:
    """A resolved turn seen from the mover, before the seat changes: arrays in the solver, scalars live."""

    position: Position
    points: Num  # what the mover scored this turn, after every boost
    extra: Flag  # the mover takes another turn (never once the game is over)
    fired: dict[EventKind, Flag] = field(default_factory=dict)  # which rules fired
    values: dict[EventKind, Num] = field(default_factory=dict)  # the number each produced


def game_over(position: Position, goal: int) -> Flag:
    """The game ends when either score is at or above the goal at the end of a turn."""
    return (position.mover >= goal) | (position.opponent >= goal)


class RuleSet(ABC):
    """One seed rule set: which choices exist, which dice they need, and how a turn resolves."""

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    title: ClassVar[str]
    choices: ClassVar[range]
    # Hidden parts the scores do not show, numbered 0..layers-1 (the solver sweeps one layer at a time).
    layers: ClassVar[int] = 1

    @abstractmethod
    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        """How many dice a choice rolls here, and how many sides they have (0 dice: no roll)."""

    @abstractmethod
    def pig_out_points(self, count: Num, ones: Num) -> Num:
        """The turn score of a roll of `count` dice that shows `ones` ones (at least one)."""

    @abstractmethod
    def step(self, position: Position, choice: Num, pig_out: Flag, rolled: Num, goal: int) -> Step:
        """Resolve a turn whose dice gave `rolled` points (Pig Out already applied)."""

    @abstractmethod
    def free_bacon(self, opponent: Num) -> Num:
        """Points for rolling zero dice against this opponent score."""

    def layer(self, position: Position) -> Num:
        """The index of a position's hidden parts, 0..layers-1 (equal index: the rules cannot tell apart)."""
        return 0

    def at_layer(self, mover: Num, opponent: Num, layer: int) -> Position:
        """A position with these scores and the hidden parts numbered `layer`."""
        return Position(mover, opponent)

    def event_note(self, kind: EventKind, value: int) -> str:
        """A word naming which variant of a rule fired, where a rule set has variants."""
        return ""

    def choice_label(self, choice: int) -> str:
        """How a choice reads on a button, whatever the position (legends, strategy tables)."""
        return "Free Bacon" if choice == 0 else f"Roll {choice}"

    def label_at(self, position: Position, choice: int) -> str:
        """How a choice reads for the player to move at this position: what it does there."""
        return self.choice_label(choice)

    def four_sided(self, position: Position) -> Flag:
        """Whether a roll here uses four-sided dice instead of six-sided ones (no rule set: never)."""
        return False

    def sides(self, position: Position) -> Num:
        """How many sides the dice of a roll have here."""
        return pieces.where(self.four_sided(position), 4, 6)

    def dice_rules(self, position: Position) -> tuple[EventKind, ...]:
        """The rules that set a roll's dice at this live position, so boards can say why (by default Hog
        Wild, whenever they are four-sided); each one swaps six-sided dice for four-sided or back."""
        return (EventKind.HOG_WILD,) if self.four_sided(position) else ()

    def roll_summary(self, outcomes: Sequence[int]) -> tuple[bool, int]:
        """Pig Out or not, and the points the dice give before the turn's other rules."""
        ones = sum(1 for outcome in outcomes if outcome == 1)
        if ones:
            return True, int(self.pig_out_points(len(outcomes), ones))
        return False, sum(outcomes)
