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

Rows of one kind have the same length and the same weights, so the model stores each kind's weights once
and nothing per outcome but its target (int32).
"""

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hogengine.dice import outcomes
from hogengine.errors import BadState
from hogengine.game import MAX_GOAL
from hogengine.numeric import FloatArray, IntArray, Num
from hogengine.position import Position
from hogengine.rules import RuleSet
from hogengine.solver.compiled import kernel
from hogengine.solver.pages import keep_freed_memory, plain_pages
from hogengine.solver.stepping import (
    BLOCK_CELLS,
    STEP_DTYPE,
    Grid,
    Int32Array,
    NoProgress,
    Stepped,
    Targets,
    UInt8Array,
    fields_of,
    kinds,
    positions,
    step_rows,
)
from hogengine.solver.threads import in_order

# Called with (done, total) while a long computation runs.
Progress = Callable[[int, int], None]


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
    def constant(self) -> FloatArray:
        """Per row: the chance that the mover wins at once or the opponent moves next, so that the row's
        value is also constant + sum(p * W) over extra turns - sum(p * W) over the opponent's turns (W: the
        win probability of whoever moves there); optimal play sums rows that way (rows.signed_rows), so it
        is worked out when first asked, not by every build. Each row is summed as one row of a
        [row, outcome] block of its kind, the same sum in the same order (rounding included) however the
        rows were numbered."""
        constant = np.empty(self.size * self.width, dtype=np.float64)
        size = self.size
        for number, weights in enumerate(self.outcomes):
            rows = np.flatnonzero(self.kind == number)
            step = max(1, BLOCK_CELLS // len(weights))
            for begin in range(0, len(rows), step):
                chosen = rows[begin : begin + step]
                target = self.target[self.row_start[chosen][:, None] + np.arange(len(weights))]
                constant[chosen] = (weights * (target <= size)).sum(axis=1)
        return constant

    @cached_property
    def start(self) -> int:
        """The state at which a game starts: both scores 0, every hidden part at its beginning."""
        return int(self.index[int(self.rules.layer(self.rules.start_position(0, 0))), 0, 0])

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


def _reorder(
    order: IntArray,
    kind_size: IntArray,
    *,
    kind: UInt8Array,
    row_start: IntArray,
    target: Int32Array,
) -> tuple[UInt8Array, IntArray, Int32Array]:
    """The rows (kind, row_start, target) with states renumbered: new state n is old order[n]."""
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
    return kind, new_start, relabel[target[picked]]


def _compact_again(size: int, target: Int32Array) -> IntArray:
    """Renumber extra-turn targets (`mine + state`) to `mine + k` over the states turns repeat into, in
    place, and return those states: few states give extra turns, so a sweep keeps few own values."""
    extra = np.flatnonzero(target >= size + 2)
    reached = target[extra] - (size + 2)
    repeated = np.zeros(size, dtype=np.bool_)
    repeated[reached] = True
    number = np.cumsum(repeated, dtype=np.int32)  # the states repeated into up to each, itself included
    target[extra] = size + 1 + number[reached]
    return np.flatnonzero(repeated)


def build(rules: RuleSet, goal: int, progress: Progress | None = None) -> Model:
    """Build the model from the rule set's own vectorised dice and step functions."""
    keep_freed_memory()
    layer, mover, opponent = positions(rules, goal)
    size = len(layer)
    index = np.empty((rules.layers, goal, goal), dtype=np.int64)
    index[layer, mover, opponent] = np.arange(size)
    choices = np.array(rules.choices, dtype=np.int64)
    width = len(choices)
    fields = fields_of(rules, layer, mover, opponent)
    kind, dice = kinds(rules, fields, choices)
    probabilities = tuple(outcomes(rules, c, s).prob for c, s in dice)
    kind_size = np.array([len(p) for p in probabilities], dtype=np.int64)
    row_start = plain_pages(size * width + 1, np.int64)
    row_start[0] = 0
    np.take(kind_size, kind, out=row_start[1:])  # each row's length, then summed where it lies
    np.cumsum(row_start[1:], out=row_start[1:])
    target = plain_pages(int(row_start[-1]), np.int32)
    grid = Grid(
        rules,
        goal,
        [field.astype(STEP_DTYPE) for field in fields],
        Targets(index, goal),
        choices.astype(STEP_DTYPE),
        (mover + opponent).astype(STEP_DTYPE),
    )
    parts = []
    for number in range(len(dice)):
        rows = np.flatnonzero(kind == number)
        step = max(1, BLOCK_CELLS // int(kind_size[number]))
        parts += [(number, rows[begin : begin + step]) for begin in range(0, len(rows), step)]

    def stepped(part: tuple[int, IntArray]) -> tuple[int, Stepped]:
        """Step the rows of one part and lay their targets in place (parts lay disjoint rows)."""
        number, chosen = part
        found = step_rows(grid, chosen, *dice[number])
        kernel.lay(found.codes, found.place, row_start, chosen, target)
        return len(chosen), found

    keeps: list[tuple[IntArray, IntArray]] = []
    done, repeats = 0, False
    for length, found in in_order(stepped, parts, "hog-model"):
        if len(found.source):
            keeps.append((found.source, found.kept))
        repeats |= found.repeats
        done += length
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
        kind, row_start, target = _reorder(order, kind_size, kind=kind, row_start=row_start, target=target)
    boundary = np.flatnonzero((np.diff(total) != 0) | (np.diff(level) != 0)) + 1
    # No turn repeats (pig-fest, pork-chop): no pass over every target to look for extra turns.
    again = _compact_again(size, target) if repeats else np.empty(0, dtype=np.int64)
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
        again=again,
    )


_BUILT: OrderedDict[tuple[RuleSet, int], Model] = OrderedDict()
# Models kept in memory at once (the largest, with the most hidden layers, is a few hundred megabytes).
KEPT_MODELS = 2


def check_goal(goal: int) -> None:
    """Refuse a goal the solver has no model for."""
    if not 1 <= goal <= MAX_GOAL:
        raise BadState(f"The goal must be a whole number from 1 to {MAX_GOAL}.")


def model(
    rules: RuleSet, goal: int, progress: Progress | None = None, source: Callable[[], Model] | None = None
) -> Model:
    """The model of these rules at this goal, built once (or had from `source`, such as a copy kept on
    disk) and kept while it is among the latest used."""
    check_goal(goal)
    key = (rules, goal)
    if key not in _BUILT:
        _BUILT[key] = build(rules, goal, progress) if source is None else source()
        while len(_BUILT) > KEPT_MODELS:
            _BUILT.popitem(last=False)
    _BUILT.move_to_end(key)
    return _BUILT[key]
