"""A position seen from the player to move: what every rule reads, as ints or as arrays of states."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Num


class Position(NamedTuple):
    """Scores and hidden parts, mover first; values are ints in live play, arrays in the solver.

    The hidden parts are the rule set's own (`RuleSet.hidden_parts`), in its declared order: `mine` and
    `theirs` hold the per-seat parts of the mover and of the opponent, `shared` the parts both share.
    """

    mover: Num
    opponent: Num
    mine: tuple[Num, ...] = ()
    theirs: tuple[Num, ...] = ()
    shared: tuple[Num, ...] = ()

    def flipped(self) -> Position:
        """The same position seen from the other player."""
        return Position(self.opponent, self.mover, self.theirs, self.mine, self.shared)

    def values(self) -> Iterator[Num]:
        """Every value in a fixed order (scores, then hidden parts), for code that treats them alike."""
        yield self.mover
        yield self.opponent
        yield from (*self.mine, *self.theirs, *self.shared)

    def with_values(self, values: Iterable[Num]) -> Position:
        """A position of the same shape holding `values`, given in the order of `values()`."""
        it = iter(values)
        mover, opponent = next(it), next(it)
        mine = tuple(next(it) for _ in self.mine)
        theirs = tuple(next(it) for _ in self.theirs)
        shared = tuple(next(it) for _ in self.shared)
        return Position(mover, opponent, mine, theirs, shared)

    def map(self, function: Callable[[Num], Num]) -> Position:
        """Every value passed through `function` (e.g. `int`, or a numpy selection)."""
        return self.with_values(function(value) for value in self.values())
