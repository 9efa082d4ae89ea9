"""The transition model of a rule set at a goal, built once from vectorised `rules.dice` and `rules.step`.

Every non-terminal position (hidden layer, mover score, opponent score) is a state. States are numbered in
sweep order: by total score, highest first, then by `sublevel` (a Pork Chop keeps the total but spends a
flag, so it leads to a lower sublevel of the same total), so every successor of a state has a smaller
number, and each stage (one total and sublevel) is a contiguous run of states.

For each (state, choice) row the model keeps a constant and a list of (successor, weight) entries, so that
the mover's win probability after that choice is `constant + sum(weight * W[successor])`, where W holds
win probabilities of the player to move: an extra turn adds `+p * W[next]`, the opponent's turn adds
`p * (1 - W[next])` (so `p` to the constant and `-p` as weight), a win adds `p` to the constant and a
loss nothing. Outcomes that end the game are thereby merged into the constant.
"""

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from hogengine.dice import outcomes
from hogengine.errors import BadState, HogError
from hogengine.game import MAX_GOAL
from hogengine.numeric import FloatArray, IntArray, Num
from hogengine.position import Position
from hogengine.rules import RuleSet

Int32Array = npt.NDArray[np.int32]
Int16Array = npt.NDArray[np.int16]
# Called with (done, total) while a long computation runs.
Progress = Callable[[int, int], None]
# Rows of (state, choice) stepped per vectorised call, times the outcomes of their dice.
BLOCK_ELEMENTS = 1 << 20


class NoProgress(HogError):  # noqa: N818 - named like the engine's errors
    """The rules allow a turn that neither raises the total score nor moves to a later hidden layer."""


@dataclass(frozen=True, eq=False)
class Model:
    """States in sweep order and, per (state, choice) row, the constant and entries described above."""

    rules: RuleSet
    goal: int
    choices: IntArray  # (C,) the legal choices, in the rule set's order
    layer: IntArray  # (S,) per state: hidden layer, mover score, opponent score
    mover: IntArray
    opponent: IntArray
    index: IntArray  # (layers, goal, goal) -> state number
    stages: IntArray  # (K + 1,) stage k holds the states stages[k] .. stages[k + 1] - 1
    row_start: IntArray  # (S * C + 1,) the entries of row r are row_start[r] .. row_start[r + 1] - 1
    constant: FloatArray  # (S * C,)
    successor: Int32Array  # (E + 1,): the last is a blank entry (weight 0) that holds no row
    code: Int16Array  # (E + 1,) the entry's weight is weights[code]
    weights: FloatArray

    @property
    def blank(self) -> int:
        """The entry of weight 0 that pads rows without entries."""
        return len(self.successor) - 1

    @property
    def size(self) -> int:
        """The number of states."""
        return len(self.layer)

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


def _blocks(size: int, per_state: int) -> Iterator[slice]:
    """Consecutive runs of states small enough to step in one call."""
    step = max(1, BLOCK_ELEMENTS // per_state)
    for begin in range(0, size, step):
        yield slice(begin, min(size, begin + step))


class _Weights:
    """Signed outcome probabilities, numbered: entries store a small code instead of a float."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.first: dict[tuple[int, int], int] = {}

    def codes(self, rules: RuleSet, count: int, sides: int) -> IntArray:
        """The code of each outcome's probability for these dice (its negation is code + 1)."""
        key = (count, sides)
        if key not in self.first:
            self.first[key] = len(self.values)
            for p in outcomes(rules, count, sides).prob:
                self.values.extend((float(p), -float(p)))
        return self.first[key] + 2 * np.arange(len(outcomes(rules, count, sides).prob))


@dataclass
class _Rows:
    """The model's rows for one block of states, before they are joined."""

    constant: FloatArray
    count: IntArray
    successor: Int32Array
    code: Int16Array
    keeps: tuple[IntArray, IntArray]  # (state, successor) of the turns that keep the total score


@dataclass(frozen=True)
class _Grid:
    """What stepping a block of states needs: the rules, the goal and every state's position."""

    rules: RuleSet
    goal: int
    fields: list[IntArray]  # the seven Position fields of every state
    index: IntArray
    choices: IntArray
    weights: _Weights

    def at(self, states: IntArray) -> Position:
        """The positions of these states, as a column (to broadcast against choices or outcomes)."""
        return Position(*(field[states][:, None] for field in self.fields))


def _step_block(grid: _Grid, states: IntArray) -> _Rows:
    """Step every (state, choice) of a block through every outcome of its dice, one call per dice kind."""
    rules, goal, choices = grid.rules, grid.goal, grid.choices
    shape = (len(states), len(choices))
    total = grid.fields[0][states] + grid.fields[1][states]
    count, sides = rules.dice(grid.at(states), choices[None, :])
    kind = _spread(count, shape) * 1000 + _spread(sides, shape)
    constant = np.zeros(shape, dtype=np.float64)
    number = np.zeros(shape, dtype=np.int64)
    pieces: list[tuple[IntArray, IntArray, Int32Array, Int16Array]] = []
    keeps: list[tuple[IntArray, IntArray]] = []
    for key in np.unique(kind):
        row, column = np.nonzero(kind == key)
        dice = outcomes(rules, int(key) // 1000, int(key) % 1000)
        turn = rules.step(
            grid.at(states[row]), choices[column][:, None], dice.pig_out[None, :], dice.rolled[None, :], goal
        )
        cells = (len(row), len(dice.prob))
        after = [_spread(value, cells) for value in turn.position]
        won = after[0] >= goal
        live = ~won & (after[1] < goal)
        extra = np.broadcast_to(np.asarray(turn.extra, dtype=np.bool_), cells)
        prob = np.broadcast_to(dice.prob, cells)
        constant[row, column] = (prob * (won | (live & ~extra))).sum(axis=1)
        number[row, column] = live.sum(axis=1)
        again = extra[live]
        kept = Position(*(value[live] for value in after))
        following = [np.where(again, a, b) for a, b in zip(kept, kept.flipped(), strict=True)]
        target = grid.index[
            _spread(rules.layer(Position(*following)), again.shape), following[0], following[1]
        ]
        before = np.broadcast_to(states[row][:, None], cells)[live]
        gained = following[0] + following[1] - total[before - states[0]]
        if np.any(gained < 0):
            raise NoProgress("A turn lowered the total score: the solver cannot sweep these rules.")
        keeps.append((before[gained == 0], target[gained == 0]))
        code = np.broadcast_to(grid.weights.codes(rules, int(key) // 1000, int(key) % 1000), cells)
        pieces.append((row, column, target.astype(np.int32), (code[live] + ~again).astype(np.int16)))
    start = np.cumsum(number.ravel()) - number.ravel()
    successor = np.empty(int(number.sum()), dtype=np.int32)
    codes = np.empty(len(successor), dtype=np.int16)
    for row, column, reached, coded in pieces:
        lengths = number[row, column]
        place = np.repeat(start[row * len(choices) + column] - np.cumsum(lengths) + lengths, lengths)
        place += np.arange(len(reached))
        successor[place] = reached
        codes[place] = coded
    source, kept_target = (np.concatenate(part) for part in zip(*keeps, strict=True))
    return _Rows(constant.ravel(), number.ravel(), successor, codes, (source, kept_target))


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


def build(rules: RuleSet, goal: int, progress: Progress | None = None) -> Model:
    """Build the model from the rule set's own vectorised dice and step functions."""
    layer, mover, opponent = _positions(rules, goal)
    size = len(layer)
    index = np.empty((rules.layers, goal, goal), dtype=np.int64)
    index[layer, mover, opponent] = np.arange(size)
    choices = np.array(rules.choices, dtype=np.int64)
    widest = max(len(outcomes(rules, count, 6).prob) for count in range(max(1, choices.max()) + 1))
    weights = _Weights()
    grid = _Grid(rules, goal, _fields(rules, layer, mover, opponent), index, choices, weights)
    blocks: list[_Rows] = []
    states = np.arange(size)
    for block in _blocks(size, len(choices) * widest):
        blocks.append(_step_block(grid, states[block]))
        if progress:
            progress(block.stop, size)
    number = np.concatenate([rows.count for rows in blocks])
    successor = np.concatenate([rows.successor for rows in blocks])
    code = np.concatenate([rows.code for rows in blocks])
    constant = np.concatenate([rows.constant for rows in blocks])
    source, target = (np.concatenate(part) for part in zip(*(rows.keeps for rows in blocks), strict=True))
    del blocks[:]
    level = _sublevels(size, source, target)
    total = mover + opponent
    if level.any():
        order = np.lexsort((level, -total))
        rank = np.empty(size, dtype=np.int64)
        rank[order] = states
        layer, mover, opponent, total, level = (
            layer[order],
            mover[order],
            opponent[order],
            total[order],
            level[order],
        )
        index = rank[index]
        rows = (order[:, None] * len(choices) + np.arange(len(choices))).ravel()
        lengths = number[rows]
        old_start = np.cumsum(number) - number
        picked = np.repeat(old_start[rows] - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        successor = rank[successor[picked]].astype(np.int32)
        code, constant, number = code[picked], constant[rows], lengths
    boundary = np.flatnonzero((np.diff(total) != 0) | (np.diff(level) != 0)) + 1
    return Model(
        rules=rules,
        goal=goal,
        choices=choices,
        layer=layer,
        mover=mover,
        opponent=opponent,
        index=index,
        stages=np.concatenate([[0], boundary, [size]]).astype(np.int64),
        row_start=np.concatenate([[0], np.cumsum(number)]).astype(np.int64),
        constant=constant,
        successor=np.append(successor, np.int32(0)),
        code=np.append(code, np.int16(len(weights.values))),
        weights=np.array([*weights.values, 0.0], dtype=np.float64),
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
