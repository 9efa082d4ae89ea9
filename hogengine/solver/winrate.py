"""Exact win rates of strategies that see only the scores (or the full state), many pairs per sweep.

A block pits the movers of one side against the movers of the other side (or a group against itself).
Each side keeps, per mover i, a matrix over the model's targets t (see model.py) and the other side's
strategies j, the value of t for i against j:

    t < S           1 - (the win probability of j to move in state t against i)   written by the other side
    t = S, S + 1    1 (i has won) and 0 (i has lost)
    t >= S + 2      the win probability of i to move in state t - S - 2 against j (only if turns repeat)

A mover's choice picks its row of the model, and its value against every opponent at once is
sum(p * matrix[i, target]) over the row's outcomes: a gather of contiguous rows of the matrix. In each
stage the rows are grouped by dice kind; a group is gathered outcome-major into a small buffer and
summed by one matrix-vector product with its outcome probabilities.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.numeric import BoolArray, FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.model import Model, Progress, model
from hogengine.solver.sweep import (
    Columns,
    FlatPlan,
    FlatStage,
    Helper,
    Plan,
    Reader,
    Scratch,
    Stage,
    flat_plans,
    helper,
    plans,
)
from hogengine.strategies import BadStrategy, legal_cells

# A player of an exact match: a Table [score][opponent score] (at least goal x goal), or a full-state
# policy [layer][score][opponent score] such as Solution.policy.
Player = npt.NDArray[np.integer[Any]]
Int8Array = npt.NDArray[np.int8]
# Bytes of the matrices of one block (of both sides, for a block of two groups at most twice this).
BLOCK_BYTES = 384 << 20
# Sides with one opponent and fewer rows than this per stage (on average) sweep flat plans (sweep.FlatPlan):
# grouping so few rows by dice kind would cost more calls than it saves.
FLAT_ROWS = 1024


@dataclass(frozen=True)
class WinRate:
    """A's exact win probability moving first, moving second, and their average."""

    first: float
    second: float

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


def columns(model: Model, strategy: Player) -> IntArray:
    """Per state of the model, the column of the strategy's choice; checks shape and legality."""
    goal = model.goal
    array = np.asarray(strategy)
    if array.ndim == 2 and array.shape[0] >= goal and array.shape[1] >= goal:
        chosen = array[:goal, :goal][model.mover, model.opponent]
    elif array.shape == (model.rules.layers, goal, goal):
        chosen = array[model.layer, model.mover, model.opponent]
    else:
        raise BadStrategy(f"A strategy must be a table of at least {goal}x{goal} choices, not {array.shape}.")
    legal = model.rules.choices
    if not legal_cells(chosen, model.rules).all():
        raise BadStrategy(
            f"A strategy may only choose {legal.start} to {legal.stop - 1} under {model.rules.id}."
        )
    return model.choice_column(chosen.astype(np.int64))


def _span(model: Model) -> int:
    """Targets in a side's matrix: states (the other side's values), won, lost, own values."""
    return model.size + 2 + len(model.again)


@dataclass
class _Side:
    """The movers of one side of a block and their matrix [target, mover, opponent]."""

    columns: Columns  # (movers, S)
    matrix: FloatArray  # (span, movers, opponents)
    # A lone pair as one side: movers A and B, each the other's one opponent, so each one's values go to
    # the other's rows (one sweep of half the calls of two sides).
    pair: bool = False

    @property
    def movers(self) -> int:
        return len(self.columns)

    @property
    def opponents(self) -> int:
        return int(self.matrix.shape[2])

    def mirrored(self, values: FloatArray) -> FloatArray:
        """Values [state, mover, opponent] laid as the partner reads them: [state, opponent, mover]."""
        return values[:, ::-1] if self.pair else values.transpose(0, 2, 1)

    def first(self, model: Model) -> FloatArray:
        """[j, i]: the win probability of opponent j moving first against mover i (from this matrix)."""
        result: FloatArray = (1.0 - self.matrix[model.start]).T
        return result


def _side(
    model: Model, columns: Columns, opponents: int, memory: FloatArray | None = None, *, pair: bool = False
) -> _Side:
    """A side of a block, its matrix laid in `memory` when given (reused from block to block)."""
    shape = (_span(model), len(columns), opponents)
    if memory is None:
        matrix = np.empty(shape, dtype=np.float64)
    else:
        matrix = memory[: shape[0] * shape[1] * shape[2]].reshape(shape)
    matrix[model.won] = 1.0
    matrix[model.lost] = 0.0
    return _Side(columns, matrix, pair)


def _sweep(model: Model, sides: Sequence[tuple[_Side, _Side]], tick: Callable[[], None] | None) -> None:
    """Sweep every stage for each (side, partner): each side's values go into its partner's matrix (and
    into its own, where turns repeat)."""
    with helper() as helping:
        _stages(model, sides, tick, helping)


def _stages(
    model: Model,
    sides: Sequence[tuple[_Side, _Side]],
    tick: Callable[[], None] | None,
    helping: Helper | None,
) -> None:
    scratch = Scratch()
    # Per stage, the numbers k of its states that turns repeat into (again[k], in sweep order).
    again = np.searchsorted(model.again, model.stages).tolist()
    readers = [Reader(model, side.matrix.reshape(-1, side.opponents), side.movers) for side, _ in sides]
    walks = [_walk(model, side) for side, _ in sides]
    for number, steps in enumerate(zip(*walks, strict=True)):
        low, high = again[number], again[number + 1]
        for (side, partner), reader, (plan, stage) in zip(sides, readers, steps, strict=True):
            states = stage.states
            if isinstance(plan, FlatPlan):
                assert isinstance(stage, FlatStage)
                found = reader.flat_sums(plan, stage, scratch)
            else:
                assert isinstance(stage, Stage)
                found = reader.stage_sums(plan, stage, scratch, helping=helping)
            values = found.reshape(-1, side.movers, side.opponents)
            np.subtract(1.0, side.mirrored(values), out=partner.matrix[states])
            if high > low:
                # The side's own values in the states that turns repeat into.
                own = model.again[low:high] - states.start
                side.matrix[model.mine + low : model.mine + high] = values[own]
        if tick:
            tick()


def _walk(model: Model, side: _Side) -> Iterator[tuple[Plan, Stage] | tuple[FlatPlan, FlatStage]]:
    """The side's plans, stage by stage: flat for one opponent and small stages, else grouped by kind."""
    if side.opponents == 1 and side.movers * model.size < FLAT_ROWS * (len(model.stages) - 1):
        return flat_plans(model, side.columns, side.movers)
    return plans(model, side.columns, side.movers, side.opponents)


def _block(
    model: Model,
    movers: Columns,
    opponents: Columns | None,
    tick: Callable[[], None] | None = None,
    memory: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """First-mover win probabilities [i, j] of movers vs opponents, and [j, i] of opponents vs movers
    (the matrices laid in `memory`, if given: room for both sides)."""
    if opponents is not None and len(movers) == len(opponents) == 1:
        ahead, behind = pair_values(model, movers[0], opponents[0], memory)
        return ahead[None, model.start, None], behind[None, model.start, None]
    cells = _span(model) * len(movers) * (len(movers) if opponents is None else len(opponents))
    mine, theirs = (None, None) if memory is None else (memory[:cells], memory[cells:])
    left = _side(model, movers, len(movers) if opponents is None else len(opponents), mine)
    if opponents is None:
        _sweep(model, [(left, left)], tick)
        first = left.first(model)
        return first, first
    right = _side(model, opponents, len(movers), theirs)
    _sweep(model, [(left, right), (right, left)], tick)
    return right.first(model), left.first(model)


def pair_values(
    model: Model, a: Columns, b: Columns, memory: FloatArray | None = None
) -> tuple[FloatArray, FloatArray]:
    """In every state, A's win probability with A to move against B, and B's with B to move against A."""
    both = _side(model, np.stack([a, b]), 1, memory, pair=True)
    _sweep(model, [(both, both)], None)
    # Each mover's rows of the states hold 1 - the other's values there.
    return 1.0 - both.matrix[: model.size, 1, 0], 1.0 - both.matrix[: model.size, 0, 0]


def _cells(model: Model) -> int:
    """How many (mover, opponent) cells a block may sweep at once within the memory budget."""
    return max(1, BLOCK_BYTES // (_span(model) * 8))


def _groups(count: int, size: int) -> list[IntArray]:
    """Nearly equal consecutive groups of at most `size` of `count` indices."""
    return np.array_split(np.arange(count), max(1, -(-count // max(1, size))))


@dataclass(frozen=True)
class WinMatrix:
    """first[i, j]: strategy i's exact win probability moving first against strategy j."""

    first: FloatArray

    def rate(self, i: int, j: int) -> WinRate:
        """Strategy i against strategy j, both seatings."""
        return WinRate(float(self.first[i, j]), float(1 - self.first[j, i]))

    @property
    def average(self) -> FloatArray:
        """[i, j]: i's win probability against j, averaged over who moves first."""
        return (self.first + 1 - self.first.T) / 2


class _Ticker:
    """Counts sweep stages done out of a known total for a progress callback."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done, self.total, self.progress = 0, total, progress

    def __call__(self) -> None:
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total)


def _columns(model: Model, strategies: Sequence[Player]) -> Int8Array:
    """Per strategy, its columns (as int8), working out each distinct table once."""
    found: dict[tuple[tuple[int, ...], str, bytes], Int8Array] = {}
    stacked = np.empty((len(strategies), model.size), dtype=np.int8)
    for number, strategy in enumerate(strategies):
        array = np.asarray(strategy)
        key = (array.shape, array.dtype.str, array.tobytes())
        if key not in found:
            found[key] = columns(model, array).astype(np.int8)
        stacked[number] = found[key]
    return stacked


def _matrix(model: Model, chosen: Columns, progress: Progress | None) -> FloatArray:
    """first[i, j] for all these strategies: symmetric blocks on the diagonal, pairs of groups off it."""
    groups = _groups(len(chosen), int(np.sqrt(_cells(model))))
    ticker = _Ticker(len(groups) * (len(groups) + 1) // 2 * (len(model.stages) - 1), progress)
    first = np.empty((len(chosen), len(chosen)), dtype=np.float64)
    # Every block lays its matrices in the same memory: fresh pages cost more than the sweep reads them.
    cells = _span(model) * max(len(group) for group in groups) ** 2
    memory = np.empty(2 * cells if len(groups) > 1 else cells)
    for number, group in enumerate(groups):
        first[np.ix_(group, group)] = _block(model, chosen[group], None, ticker, memory)[0]
        for other in groups[number + 1 :]:
            mine, theirs = _block(model, chosen[group], chosen[other], ticker, memory)
            first[np.ix_(group, other)] = mine
            first[np.ix_(other, group)] = theirs
    return first


def winrate_matrix(
    rules: RuleSet | str, strategies: Sequence[Player], goal: int = 100, progress: Progress | None = None
) -> WinMatrix:
    """Every strategy against every other (a round robin), both seatings, in blocks that fit the budget."""
    built = model(_rules(rules), goal)
    return WinMatrix(_matrix(built, _columns(built, strategies), progress))


def _unique(chosen: Int8Array) -> tuple[Int8Array, IntArray]:
    """Distinct strategies (by their choice in every state) and, per strategy, its number among them."""
    seen: dict[bytes, int] = {}
    keep: list[int] = []
    for place, row in enumerate(chosen):
        if seen.setdefault(row.tobytes(), len(keep)) == len(keep):
            keep.append(place)
    return chosen[keep], np.array([seen[row.tobytes()] for row in chosen], dtype=np.int64)


def _bipartite(
    model: Model, left: Columns, right: Columns, wanted: BoolArray, progress: Progress | None
) -> tuple[FloatArray, FloatArray]:
    """first[i, j] of left vs right and second[i, j] (right moving first), for the wanted cells."""
    cells = _cells(model) // 2
    across = _groups(len(right), int(np.sqrt(cells)) if len(left) > np.sqrt(cells) else cells)
    down = _groups(len(left), max(1, cells // max(len(group) for group in across)))
    blocks = [(mine, theirs) for mine in down for theirs in across if wanted[np.ix_(mine, theirs)].any()]
    ticker = _Ticker(len(blocks) * (len(model.stages) - 1), progress)
    first = np.full(wanted.shape, np.nan)
    second = np.full(wanted.shape, np.nan)
    memory = np.empty(2 * _span(model) * max((len(mine) * len(theirs) for mine, theirs in blocks), default=0))
    for mine, theirs in blocks:
        ahead, behind = _block(model, left[mine], right[theirs], ticker, memory)
        first[np.ix_(mine, theirs)] = ahead
        second[np.ix_(mine, theirs)] = 1 - behind.T
    return first, second


def exact_winrates(
    rules: RuleSet | str,
    pairs: Sequence[tuple[Player, Player]],
    goal: int = 100,
    progress: Progress | None = None,
) -> list[WinRate]:
    """A's exact win rate against B for each pair (A, B), many pairs per sweep.

    Few distinct strategies are swept as one round robin (fewer, larger array operations); otherwise the
    first strategies of the pairs meet the second ones in blocks that fit the memory budget.
    """
    built = model(_rules(rules), goal)
    if not pairs:
        return []
    everyone, number = _unique(_columns(built, [player for pair in pairs for player in pair]))
    a, b = number[0::2], number[1::2]
    if len(everyone) > 2 and len(everyone) ** 2 <= max(16, 2 * len(np.unique(a)) * len(np.unique(b))):
        first = _matrix(built, everyone, progress)
        return [WinRate(float(first[i, j]), float(1 - first[j, i])) for i, j in zip(a, b, strict=True)]
    left, a_of = np.unique(a, return_inverse=True)
    right, b_of = np.unique(b, return_inverse=True)
    wanted = np.zeros((len(left), len(right)), dtype=np.bool_)
    wanted[a_of, b_of] = True
    first, second = _bipartite(built, everyone[left], everyone[right], wanted, progress)
    return [WinRate(float(first[i, j]), float(second[i, j])) for i, j in zip(a_of, b_of, strict=True)]


def exact_winrate(rules: RuleSet | str, a: Player, b: Player, goal: int = 100) -> WinRate:
    """A's exact win probability against B moving first, moving second, and on average."""
    return exact_winrates(rules, [(a, b)], goal)[0]


def _rules(rules: RuleSet | str) -> RuleSet:
    return get_rules(rules) if isinstance(rules, str) else rules
