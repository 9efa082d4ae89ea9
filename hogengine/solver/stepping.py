"""The rules stepped on arrays of states: every position of a model and the target of every outcome of
every (state, choice) row, from the rule set's own vectorised `dice` and `step`."""

import threading
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from hogengine.dice import outcomes
from hogengine.errors import HogError
from hogengine.numeric import Flag, IntArray, Num
from hogengine.position import Position
from hogengine.rules import RuleSet

Int32Array = npt.NDArray[np.int32]
UInt8Array = npt.NDArray[np.uint8]
# Outcomes stepped per vectorised call of the rules (small enough for the temporaries to stay in cache).
BLOCK_CELLS = 1 << 17
# The integer type of the arrays the rules step: scores stay below a few hundred (a goal of at most 100 plus
# one turn's points), and the rules' arithmetic (divisions for digits above all) runs about 1.5 times as fast
# as on int32, 3 times as on int64 (the tests check the model against the scalar rules).
STEP_DTYPE = np.int16


class NoProgress(HogError):  # noqa: N818 - named like the engine's errors
    """The rules allow a turn that neither raises the total score nor moves to a later hidden layer."""


def positions(rules: RuleSet, goal: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every (layer, mover, opponent) with both scores below the goal, in sweep order before sublevels."""
    layer, mover, opponent = (grid.ravel() for grid in np.indices((rules.layers, goal, goal), dtype=np.int64))
    order = np.lexsort((opponent, layer, -(mover + opponent)))
    return layer[order], mover[order], opponent[order]


def fields_of(rules: RuleSet, layer: IntArray, mover: IntArray, opponent: IntArray) -> list[IntArray]:
    """Every state's Position values (scores, then hidden parts) as arrays, from the rule set's `at_layer`."""
    fields = [np.zeros_like(mover) for _ in rules.start_position(0, 0).values()]
    for number in range(rules.layers):
        chosen = layer == number
        values = rules.at_layer(mover[chosen], opponent[chosen], number).values()
        for field, value in zip(fields, values, strict=True):
            field[chosen] = value
    return fields


def positions_of(rules: RuleSet, fields: list[IntArray], part: IntArray | slice) -> Position:
    """The positions of some states (`part` of the fields), each as a column for the rules to broadcast."""
    return rules.start_position(0, 0).with_values(field[part, None] for field in fields)


def _spread(values: Num, shape: tuple[int, ...]) -> IntArray:
    """A rule's result (scalar or array) as an int array of the given shape."""
    return np.broadcast_to(np.asarray(values, dtype=np.int64), shape)


class Targets:
    """The target of the position after a turn, read from a table over (next mover, layer, both scores).

    The table runs past the goal (a turn may overshoot it), where it holds the won and lost targets, so a
    turn's target is one lookup; it grows when a turn reaches a score it does not cover yet. Threads may
    look up at once: each lookup reads the table it started with, which a growth replaces whole.
    """

    def __init__(self, index: IntArray, goal: int) -> None:
        self.index, self.goal = index, goal
        self.size = int(index.size)
        self.growing = threading.Lock()
        self.covered = self._made(2 * goal)

    def _made(self, span: int) -> tuple[int, Int32Array]:
        """The table for scores below `span`, and that span."""
        goal, size = self.goal, self.size
        layers = self.index.shape[0]
        table = np.empty((2, layers, span, span), dtype=np.int32)
        theirs, mine = table[0], table[1]
        # The opponent moves next (scores seen from them): the mover won when b >= goal, lost when a >= goal.
        theirs[:, :goal, :goal] = self.index
        theirs[:, goal:, :] = size + 1
        theirs[:, :, goal:] = size
        # The mover moves again: won when a >= goal, lost when b >= goal.
        mine[:, :goal, :goal] = self.index + size + 2
        mine[:, :, goal:] = size + 1
        mine[:, goal:, :] = size
        return span, table.ravel()

    def places(
        self, again: Flag, layer: Num, mover: IntArray, opponent: IntArray
    ) -> tuple[Int32Array, IntArray]:
        """Where the targets of positions after turns (seen from whoever moves next; `again`: the same
        mover) lie in a table of target codes: that table, and the places."""
        highest = max(int(mover.max()), int(opponent.max()))
        if min(int(mover.min()), int(opponent.min())) < 0:
            raise NoProgress("A turn left a negative score: the solver cannot sweep these rules.")
        span, table = self.covered
        if highest >= span:
            with self.growing:
                if highest >= self.covered[0]:
                    self.covered = self._made(max(highest + 1, self.covered[0] * 3 // 2))
                span, table = self.covered
        layers = self.index.shape[0]
        place: IntArray = np.asarray(again, dtype=np.int32 if len(table) < 1 << 31 else np.int64) * layers
        place = place + layer
        place *= span
        place += mover
        place *= span
        place += opponent
        return table, place


@dataclass(frozen=True)
class Grid:
    """What stepping rows needs: the rules, the goal, every state's position and the target table."""

    rules: RuleSet
    goal: int
    fields: list[IntArray]  # every state's Position values (as STEP_DTYPE), from `fields_of`
    targets: Targets
    choices: IntArray
    total: IntArray  # per state: the sum of both scores (as STEP_DTYPE, as the stepped scores are)

    @property
    def size(self) -> int:
        return len(self.total)


class Stepped(NamedTuple):
    """Rows of one dice kind stepped: their targets, as a table of target codes and the place [row,
    outcome] of each in it (kernel.lay puts them in the model); (state, successor) of the turns that keep
    the total; and whether any turn may repeat (else no target is an extra turn's)."""

    codes: Int32Array
    place: IntArray
    source: IntArray
    kept: IntArray
    repeats: bool


def step_rows(grid: Grid, rows: IntArray, count: int, sides: int) -> Stepped:
    """Step rows of one dice kind through the rules (see Stepped)."""
    rules, size = grid.rules, grid.size
    width = len(grid.choices)
    states = rows // width
    dice = outcomes(rules, count, sides)
    turn = rules.step(
        positions_of(rules, grid.fields, states),
        grid.choices[rows % width][:, None],
        dice.pig_out[None, :],
        dice.rolled[None, :].astype(STEP_DTYPE),
        grid.goal,
    )
    cells = (len(rows), len(dice.prob))
    after = turn.position
    extra = turn.extra
    if np.ndim(extra) == 0:
        repeats = bool(extra)
        again: Flag = repeats
        following = after if again else after.flipped()
    else:
        again = np.broadcast_to(np.asarray(extra, dtype=np.bool_), cells)
        repeats = bool(np.any(extra))
        flipped = after.flipped().values()
        following = after.with_values(
            np.where(again, a, b) for a, b in zip(after.values(), flipped, strict=True)
        )
    mover, opponent = _spread(following.mover, cells), _spread(following.opponent, cells)
    codes, place = grid.targets.places(again, _spread(rules.layer(following), cells), mover, opponent)
    total = mover + opponent
    low = total <= grid.total[states][:, None]
    if np.any(low):
        row, _ = np.nonzero(low)
        reached = codes[place[low]].astype(np.int64)
        live = (reached < size) | (reached >= size + 2)
        if np.any(total[low][live] < grid.total[states[row]][live]):
            raise NoProgress("A turn lowered the total score: the solver cannot sweep these rules.")
        return Stepped(codes, place, states[row][live], reached[live] % (size + 2), repeats)
    return Stepped(codes, place, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), repeats)


def kinds(
    rules: RuleSet, fields: list[IntArray], choices: IntArray
) -> tuple[UInt8Array, list[tuple[int, int]]]:
    """Per row, the number of its dice kind, and each kind's (count, sides), from the rules' `dice`."""
    size, width = len(fields[0]), len(choices)
    code = np.empty((size, width), dtype=np.int32)  # count * 1000 + sides: a handful of dice kinds
    step = max(1, BLOCK_CELLS // width)
    for begin in range(0, size, step):
        part = slice(begin, begin + step)
        count, sides = rules.dice(positions_of(rules, fields, part), choices[None, :])
        shape = (len(code[part]), width)
        code[part] = _spread(count, shape) * 1000 + _spread(sides, shape)
    codes = np.flatnonzero(np.bincount(code.ravel()))
    if len(codes) > 256:
        raise NoProgress("The rules use more than 256 kinds of dice: the solver cannot number them.")
    numbering = np.zeros(int(codes[-1]) + 1, dtype=np.uint8)
    numbering[codes] = np.arange(len(codes))
    return numbering[code.ravel()], [(int(value) // 1000, int(value) % 1000) for value in codes]
