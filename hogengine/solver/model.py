"""The transition model of a rule set at a goal, built once from vectorised `rules.dice` and `rules.step`.

Every non-terminal position (hidden layer, mover score, opponent score) is a state. States are numbered in
sweep order: by total score, highest first, then by `sublevel` (a Pork Chop keeps the total but spends a
flag, so it leads to a lower sublevel of the same total), so every successor of a state has a smaller
number, and each stage (one total and sublevel) is a contiguous run of states.

A row is a (state, choice). Its dice are one of a few kinds (count, sides), and the row lists a target for
every outcome of those dice, in the order of their probabilities `outcomes[kind]`, so the mover's win
probability after that choice is `sum(p * value[target])` over a value vector laid out as

    [0, S)          the opponent moves next in that state: 1 - (their win probability there)
    S, S + 1        the mover has won (value 1), the mover has lost (value 0)
    [S + 2, S+2+A)  the mover moves again (an extra turn) in state again[k], k = target - S - 2: their own
                    win probability there (only the A states some turn repeats into have such a target)

Rows of one kind have the same length and the same weights, so a sweep sums a kind's rows with one
matrix-vector product, and the model stores nothing per outcome but its target (int32).
"""

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.dice import outcomes
from hogengine.errors import BadState, HogError
from hogengine.game import MAX_GOAL
from hogengine.numeric import Flag, FloatArray, IntArray, Num
from hogengine.position import Position
from hogengine.rules import RuleSet

Int32Array = npt.NDArray[np.int32]
UInt8Array = npt.NDArray[np.uint8]
# Called with (done, total) while a long computation runs.
Progress = Callable[[int, int], None]
# Outcomes stepped per vectorised call of the rules (small enough for the temporaries to stay in cache).
BLOCK_CELLS = 1 << 17
# The integer type of the arrays the rules step: scores stay far below its range, and the rules' arithmetic
# runs about twice as fast as on int64 (the tests check the model against the scalar rules).
STEP_DTYPE = np.int32


class NoProgress(HogError):  # noqa: N818 - named like the engine's errors
    """The rules allow a turn that neither raises the total score nor moves to a later hidden layer."""


@dataclass(frozen=True, eq=False)
class Model:
    """States in sweep order and, per (state, choice) row, its dice kind and a target per outcome."""

    rules: RuleSet
    goal: int
    choices: IntArray  # (C,) the legal choices, in the rule set's order
    layer: IntArray  # (S,) per state: hidden layer, mover score, opponent score
    mover: IntArray
    opponent: IntArray
    index: IntArray  # (layers, goal, goal) -> state number
    stages: IntArray  # (K + 1,) stage k holds the states stages[k] .. stages[k + 1] - 1
    kind: UInt8Array  # (S * C,) the dice kind of each row
    row_start: IntArray  # (S * C + 1,) the targets of row r are target[row_start[r] : row_start[r + 1]]
    target: Int32Array  # (E,) per outcome of each row, coded as in the module's docstring
    dice: tuple[tuple[int, int], ...]  # per kind: (count, sides)
    outcomes: tuple[FloatArray, ...]  # per kind: the probability of each outcome
    # Per row: the chance that the mover wins at once or the opponent moves next, so that the row's value
    # is also constant + sum(p * W) over extra turns - sum(p * W) over the opponent's turns (W: the win
    # probability of whoever moves there); optimal play sums rows that way (sweep.signed_rows).
    constant: FloatArray
    again: IntArray  # (A,) the states some turn repeats into, in sweep order

    @property
    def size(self) -> int:
        """The number of states."""
        return len(self.layer)

    @property
    def width(self) -> int:
        """The number of choices (columns of the rows)."""
        return len(self.choices)

    @property
    def won(self) -> int:
        """The target of an outcome that wins the game for the mover (value 1)."""
        return self.size

    @property
    def lost(self) -> int:
        """The target of an outcome that loses the game for the mover (value 0)."""
        return self.size + 1

    @property
    def mine(self) -> int:
        """The offset of targets where the mover moves again: `mine + k` for state `again[k]`."""
        return self.size + 2

    @property
    def own(self) -> bool:
        """Whether any turn gives an extra turn (else values of the mover's own next turns are never read)."""
        return len(self.again) > 0

    def again_target(self, state: int) -> int:
        """The target of moving again in this state (which must be one that turns repeat into)."""
        k = int(np.searchsorted(self.again, state))
        if k == len(self.again) or self.again[k] != state:
            raise ValueError(f"No turn repeats into state {state}.")
        return self.mine + k

    @cached_property
    def kind_size(self) -> IntArray:
        """The number of outcomes of each kind."""
        return np.array([len(p) for p in self.outcomes], dtype=np.int64)

    @cached_property
    def kind_first(self) -> IntArray:
        """Where each kind's outcomes begin in `probability`."""
        return np.cumsum(self.kind_size) - self.kind_size

    @cached_property
    def probability(self) -> FloatArray:
        """Every kind's outcome probabilities, one after the other."""
        return np.concatenate(self.outcomes)

    @cached_property
    def sizes(self) -> list[int]:
        """The number of outcomes of each kind, as plain ints."""
        return [len(p) for p in self.outcomes]

    @cached_property
    def spread(self) -> tuple[IntArray, ...]:
        """Per kind, its outcome numbers as a column (to spell rows out outcome-major)."""
        return tuple(np.arange(len(p), dtype=np.int64)[:, None] for p in self.outcomes)

    @cached_property
    def start(self) -> int:
        """The state at which a game starts: both scores 0, every hidden part at its beginning."""
        return int(self.index[int(self.rules.layer(Position(0, 0))), 0, 0])

    def state_of(self, position: Position) -> int:
        """The state number of a live position whose scores are both below the goal."""
        return int(self.index[int(self.rules.layer(position)), int(position.mover), int(position.opponent)])

    def choice_column(self, choice: Num) -> IntArray:
        """The column of each choice in the model's rows (choices are consecutive integers)."""
        return np.asarray(choice, dtype=np.int64) - int(self.choices[0])

    def transitions(self, state: int, column: int) -> tuple[Int32Array, FloatArray]:
        """The targets of one row and the probability of each (for tests and inspection)."""
        row = state * self.width + column
        begin, end = int(self.row_start[row]), int(self.row_start[row + 1])
        return self.target[begin:end], self.outcomes[int(self.kind[row])]


def _positions(rules: RuleSet, goal: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every (layer, mover, opponent) with both scores below the goal, in sweep order before sublevels."""
    layer, mover, opponent = (grid.ravel() for grid in np.indices((rules.layers, goal, goal), dtype=np.int64))
    order = np.lexsort((opponent, layer, -(mover + opponent)))
    return layer[order], mover[order], opponent[order]


def _fields(rules: RuleSet, layer: IntArray, mover: IntArray, opponent: IntArray) -> list[IntArray]:
    """The seven Position fields of every state, as arrays, from the rule set's own `at_layer`."""
    fields = [np.zeros_like(mover) for _ in Position._fields]
    for number in range(rules.layers):
        chosen = layer == number
        for field, value in zip(fields, rules.at_layer(mover[chosen], opponent[chosen], number), strict=True):
            field[chosen] = value
    return fields


def _spread(values: Num, shape: tuple[int, ...]) -> IntArray:
    """A rule's result (scalar or array) as an int array of the given shape."""
    return np.broadcast_to(np.asarray(values, dtype=np.int64), shape)


class _Targets:
    """The target of the position after a turn, read from a table over (next mover, layer, both scores).

    The table runs past the goal (a turn may overshoot it), where it holds the won and lost targets, so a
    turn's target is one lookup; it grows when a turn reaches a score it does not cover yet.
    """

    def __init__(self, index: IntArray, goal: int) -> None:
        self.index, self.goal = index, goal
        self.size = int(index.size)
        self.span = 0
        self.table = np.empty(0, dtype=np.int32)
        self.dtype: type[np.signedinteger[Any]] = np.int32
        self.grow(2 * goal)

    def grow(self, span: int) -> None:
        """Cover scores below `span`."""
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
        self.table = table.ravel()
        self.span = span
        self.dtype = np.int32 if len(self.table) < 1 << 31 else np.int64

    def __call__(self, again: Flag, layer: Num, mover: IntArray, opponent: IntArray) -> Int32Array:
        """Targets of positions after turns, seen from whoever moves next (`again`: the same mover)."""
        highest = max(int(mover.max()), int(opponent.max()))
        if min(int(mover.min()), int(opponent.min())) < 0:
            raise NoProgress("A turn left a negative score: the solver cannot sweep these rules.")
        if highest >= self.span:
            self.grow(max(highest + 1, self.span * 3 // 2))
        layers = self.index.shape[0]
        place = np.asarray(again, dtype=self.dtype) * layers + layer
        place *= self.span
        place += mover
        place *= self.span
        place += opponent
        found: Int32Array = self.table[place]
        return found


@dataclass(frozen=True)
class _Grid:
    """What stepping rows needs: the rules, the goal, every state's position and the target table."""

    rules: RuleSet
    goal: int
    fields: list[IntArray]  # the seven Position fields of every state (as STEP_DTYPE)
    targets: _Targets
    choices: IntArray
    total: IntArray  # per state: the sum of both scores

    @property
    def size(self) -> int:
        return len(self.total)


def _step_rows(
    grid: _Grid, rows: IntArray, count: int, sides: int
) -> tuple[Int32Array, FloatArray, IntArray, IntArray]:
    """Targets [row, outcome] of rows of one dice kind, their constants, and (state, successor) of turns
    keeping the total."""
    rules, size = grid.rules, grid.size
    width = len(grid.choices)
    states = rows // width
    dice = outcomes(rules, count, sides)
    turn = rules.step(
        Position(*(field[states][:, None] for field in grid.fields)),
        grid.choices[rows % width][:, None],
        dice.pig_out[None, :],
        dice.rolled[None, :].astype(STEP_DTYPE),
        grid.goal,
    )
    cells = (len(rows), len(dice.prob))
    after = turn.position
    extra = turn.extra
    if np.ndim(extra) == 0:
        again: Flag = bool(extra)
        following = after if again else after.flipped()
    else:
        again = np.broadcast_to(np.asarray(extra, dtype=np.bool_), cells)
        following = Position(*(np.where(again, a, b) for a, b in zip(after, after.flipped(), strict=True)))
    mover, opponent = _spread(following.mover, cells), _spread(following.opponent, cells)
    target = grid.targets(again, _spread(rules.layer(following), cells), mover, opponent)
    constant = (dice.prob * (target <= size)).sum(axis=1)
    total = mover + opponent
    low = total <= grid.total[states][:, None]
    if np.any(low):
        row, _ = np.nonzero(low)
        reached = target[low].astype(np.int64)
        live = (reached < size) | (reached >= size + 2)
        if np.any(total[low][live] < grid.total[states[row]][live]):
            raise NoProgress("A turn lowered the total score: the solver cannot sweep these rules.")
        return target, constant, states[row][live], reached[live] % (size + 2)
    return target, constant, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)


def _sublevels(size: int, source: IntArray, target: IntArray) -> IntArray:
    """How many score-keeping turns (Pork Chops) may still follow each state before the total rises."""
    level = np.zeros(size, dtype=np.int64)
    for _ in range(size + 1):
        raised = level.copy()
        np.maximum.at(raised, source, level[target] + 1)
        if np.array_equal(raised, level):
            return level
        level = raised
    raise NoProgress("Turns that keep the total score form a cycle: the solver cannot sweep these rules.")


def _kinds(
    rules: RuleSet, fields: list[IntArray], choices: IntArray
) -> tuple[UInt8Array, list[tuple[int, int]]]:
    """Per row, the number of its dice kind, and each kind's (count, sides), from the rules' `dice`."""
    size, width = len(fields[0]), len(choices)
    code = np.empty((size, width), dtype=np.int64)
    step = max(1, BLOCK_CELLS // width)
    for begin in range(0, size, step):
        part = slice(begin, begin + step)
        count, sides = rules.dice(Position(*(field[part, None] for field in fields)), choices[None, :])
        shape = (len(code[part]), width)
        code[part] = _spread(count, shape) * 1000 + _spread(sides, shape)
    codes = np.flatnonzero(np.bincount(code.ravel()))
    if len(codes) > 256:
        raise NoProgress("The rules use more than 256 kinds of dice: the solver cannot number them.")
    numbering = np.zeros(int(codes[-1]) + 1, dtype=np.uint8)
    numbering[codes] = np.arange(len(codes))
    return numbering[code.ravel()], [(int(value) // 1000, int(value) % 1000) for value in codes]


def _reorder(
    order: IntArray,
    kind_size: IntArray,
    *,
    kind: UInt8Array,
    row_start: IntArray,
    target: Int32Array,
    constant: FloatArray,
) -> tuple[UInt8Array, IntArray, Int32Array, FloatArray]:
    """The rows (kind, row_start, target, constant) with states renumbered: new state n is old order[n]."""
    size = len(order)
    width = len(kind) // size
    rank = np.empty(size, dtype=np.int64)
    rank[order] = np.arange(size)
    picked_rows = (order[:, None] * width + np.arange(width)).ravel()
    kind = kind[picked_rows]
    lengths = kind_size[kind]
    new_start = np.zeros(size * width + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_start[1:])
    picked = np.repeat(row_start[picked_rows] - new_start[:-1], lengths)
    picked += np.arange(len(picked))
    relabel = np.concatenate([rank, [size, size + 1], rank + size + 2]).astype(np.int32)
    return kind, new_start, relabel[target[picked]], constant[picked_rows]


def _compact_again(size: int, target: Int32Array) -> IntArray:
    """Renumber extra-turn targets (`mine + state`) to `mine + k` over the states turns repeat into, in
    place, and return those states: few states give extra turns, so a sweep keeps few own values."""
    extra = np.flatnonzero(target >= size + 2)
    if not len(extra):
        return np.empty(0, dtype=np.int64)
    reached = target[extra] - (size + 2)
    again = np.unique(reached).astype(np.int64)
    target[extra] = size + 2 + np.searchsorted(again, reached).astype(np.int32)
    return again


def build(rules: RuleSet, goal: int, progress: Progress | None = None) -> Model:
    """Build the model from the rule set's own vectorised dice and step functions."""
    layer, mover, opponent = _positions(rules, goal)
    size = len(layer)
    index = np.empty((rules.layers, goal, goal), dtype=np.int64)
    index[layer, mover, opponent] = np.arange(size)
    choices = np.array(rules.choices, dtype=np.int64)
    width = len(choices)
    fields = _fields(rules, layer, mover, opponent)
    kind, dice = _kinds(rules, fields, choices)
    probabilities = tuple(outcomes(rules, c, s).prob for c, s in dice)
    kind_size = np.array([len(p) for p in probabilities], dtype=np.int64)
    row_start = np.zeros(size * width + 1, dtype=np.int64)
    np.cumsum(kind_size[kind], out=row_start[1:])
    target = np.empty(int(row_start[-1]), dtype=np.int32)
    constant = np.empty(size * width, dtype=np.float64)
    grid = _Grid(
        rules,
        goal,
        [field.astype(STEP_DTYPE) for field in fields],
        _Targets(index, goal),
        choices.astype(STEP_DTYPE),
        mover + opponent,
    )
    keeps: list[tuple[IntArray, IntArray]] = []
    done = 0
    for number, (count, sides) in enumerate(dice):
        rows = np.flatnonzero(kind == number)
        step = max(1, BLOCK_CELLS // int(kind_size[number]))
        for begin in range(0, len(rows), step):
            chosen = rows[begin : begin + step]
            found, constant[chosen], source, kept = _step_rows(grid, chosen, count, sides)
            target[row_start[chosen][:, None] + np.arange(kind_size[number])] = found
            if len(source):
                keeps.append((source, kept))
            done += len(chosen)
            if progress:
                progress(done, size * width)
    source = np.concatenate([pair[0] for pair in keeps]) if keeps else np.empty(0, dtype=np.int64)
    kept = np.concatenate([pair[1] for pair in keeps]) if keeps else np.empty(0, dtype=np.int64)
    level = _sublevels(size, source, kept)
    total = mover + opponent
    if level.any():
        order = np.lexsort((level, -total))
        layer, mover, opponent, total, level = (
            part[order] for part in (layer, mover, opponent, total, level)
        )
        index = np.argsort(order)[index]
        kind, row_start, target, constant = _reorder(
            order, kind_size, kind=kind, row_start=row_start, target=target, constant=constant
        )
    boundary = np.flatnonzero((np.diff(total) != 0) | (np.diff(level) != 0)) + 1
    again = _compact_again(size, target)
    return Model(
        rules=rules,
        goal=goal,
        choices=choices,
        layer=layer,
        mover=mover,
        opponent=opponent,
        index=index,
        stages=np.concatenate([[0], boundary, [size]]).astype(np.int64),
        kind=kind,
        row_start=row_start,
        target=target,
        dice=tuple(dice),
        outcomes=probabilities,
        constant=constant,
        again=again,
    )


_BUILT: OrderedDict[tuple[RuleSet, int], Model] = OrderedDict()
# Models kept in memory at once (pig-fest's is a few hundred megabytes).
KEPT_MODELS = 2


def model(rules: RuleSet, goal: int, progress: Progress | None = None) -> Model:
    """The model of these rules at this goal, built once and kept while it is among the latest used."""
    if not 1 <= goal <= MAX_GOAL:
        raise BadState(f"The goal must be a whole number from 1 to {MAX_GOAL}.")
    key = (rules, goal)
    if key not in _BUILT:
        _BUILT[key] = build(rules, goal, progress)
        while len(_BUILT) > KEPT_MODELS:
            _BUILT.popitem(last=False)
    _BUILT.move_to_end(key)
    return _BUILT[key]
