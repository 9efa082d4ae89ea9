"""Exact win rates of strategies that see only the scores (or the full state), many pairs per sweep.

A block pits the movers of one side against the movers of the other side (or a group against itself), at
most sweep.BLOCK a side. Each side keeps, per mover i, a matrix over the model's targets t (see model.py)
and the other side's strategies j, the value of t for i against j:

    t < S           1 - (the win probability of j to move in state t against i)   written by the other side
    t = S, S + 1    1 (i has won) and 0 (i has lost)
    t >= S + 2      the win probability of i to move in state t - S - 2 against j (only if turns repeat)

A mover's choice picks its row of the model, and its value against every opponent at once is
sum(p * matrix[i, target]) over the row's outcomes: the compiled kernel (sweep.py) sums them state by
state in sweep order, a run of contiguous values (one per opponent) per outcome.
"""

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.errors import BadStrategy
from hogengine.numeric import BoolArray, FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.model import Model, Progress, model
from hogengine.solver.sweep import BLOCK, Columns, in_threads, sweep
from hogengine.solver.threads import THREADS
from hogengine.strategies import legal_cells

# A player of an exact match: a Table [score][opponent score] (at least goal x goal), or a full-state
# policy [layer][score][opponent score] such as Solution.policy.
Player = npt.NDArray[np.integer[Any]]
# Bytes of the matrices of the blocks swept at once (both sides of each).
BLOCK_BYTES = 384 << 20


@dataclass(frozen=True)
class WinRate:
    """A's exact win probability moving first, moving second, and their average."""

    first: float
    second: float

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


def columns(model: Model, strategy: Player) -> IntArray:
    """Per state of the model, the column of the strategy's choice; checks shape and legality. Every cell
    of the (goal x goal, or full-state) table is some state's, so the table is checked and turned into
    columns as it is, then spread over the states (ten thousand cells, not every state, for pig-fest's
    32 layers)."""
    goal = model.goal
    array = np.asarray(strategy)
    if array.dtype.kind not in "iu":  # 4.5 would play 4, True would play 1
        raise BadStrategy(f"A strategy's choices must be whole numbers, not {array.dtype} values.")
    where: tuple[IntArray, ...]
    if array.ndim == 2 and array.shape[0] >= goal and array.shape[1] >= goal:
        cells, where = array[:goal, :goal], (model.mover, model.opponent)
    elif array.shape == (model.rules.layers, goal, goal):
        cells, where = array, (model.layer, model.mover, model.opponent)
    else:
        raise BadStrategy(f"A strategy must be a table of at least {goal}x{goal} choices, not {array.shape}.")
    legal = model.rules.choices
    if not legal_cells(cells, model.rules).all():
        raise BadStrategy(
            f"A strategy may only choose {legal.start} to {legal.stop - 1} under {model.rules.id}."
        )
    column: IntArray = model.choice_column(cells.astype(np.int64))[where]
    return column


def _span(model: Model) -> int:
    """Targets in a side's matrix: states (the other side's values), won, lost, own values."""
    return model.size + 2 + len(model.again)


@dataclass(frozen=True)
class _Side:
    """The movers of one side of a block and their matrix [target, mover, opponent]."""

    columns: Columns  # (movers, S)
    matrix: FloatArray  # (span, movers, opponents)

    def first(self, model: Model) -> FloatArray:
        """[j, i]: the win probability of opponent j moving first against mover i (from this matrix)."""
        result: FloatArray = (1.0 - self.matrix[model.start]).T
        return result


def _side(model: Model, columns: Columns, opponents: int, memory: FloatArray | None = None) -> _Side:
    """A side of a block, its matrix laid in `memory` when given (reused from block to block)."""
    shape = (_span(model), len(columns), opponents)
    if memory is None:
        matrix = np.empty(shape, dtype=np.float64)
    else:
        matrix = memory[: shape[0] * shape[1] * shape[2]].reshape(shape)
    matrix[model.won] = 1.0
    matrix[model.lost] = 0.0
    return _Side(columns, matrix)


def _block(
    model: Model, movers: Columns, opponents: Columns | None, memory: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """First-mover win probabilities [i, j] of movers vs opponents, and [j, i] of opponents vs movers
    (the matrices laid in `memory`: room for both sides)."""
    if opponents is None:
        both = _side(model, movers, len(movers), memory)
        sweep(model, both.columns, both.matrix, both.columns, both.matrix)
        first = both.first(model)
        return first, first
    cells = _span(model) * len(movers) * len(opponents)
    left = _side(model, movers, len(opponents), memory[:cells])
    right = _side(model, opponents, len(movers), memory[cells:])
    sweep(model, left.columns, left.matrix, right.columns, right.matrix)
    return right.first(model), left.first(model)


def pair_values(model: Model, a: Columns | IntArray, b: Columns | IntArray) -> tuple[FloatArray, FloatArray]:
    """In every state, A's win probability with A to move against B, and B's with B to move against A."""
    left, right = (_side(model, np.ascontiguousarray(x, dtype=np.int8)[None], 1) for x in (a, b))
    sweep(model, left.columns, left.matrix, right.columns, right.matrix)
    # Each side's rows of the states hold 1 - the other's values there.
    return 1.0 - right.matrix[: model.size, 0, 0], 1.0 - left.matrix[: model.size, 0, 0]


def _width(model: Model) -> int:
    """How many strategies a side of a block may hold: at most sweep.BLOCK, and few enough that the
    matrices of the blocks swept at once (two sides each) stay within the memory budget."""
    cells = BLOCK_BYTES // (2 * THREADS * _span(model) * 8)
    return max(1, min(BLOCK, math.isqrt(cells)))


def _groups(count: int, size: int) -> list[IntArray]:
    """Nearly equal consecutive groups of at most `size` of `count` indices (none of none)."""
    return np.array_split(np.arange(count), -(-count // max(1, size))) if count else []


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


def _columns(model: Model, strategies: Sequence[Player]) -> Columns:
    """Per strategy, its columns (as int8), working out each distinct table once."""
    found: dict[tuple[tuple[int, ...], str, bytes], Columns] = {}
    stacked = np.empty((len(strategies), model.size), dtype=np.int8)
    for number, strategy in enumerate(strategies):
        array = np.asarray(strategy)
        key = (array.shape, array.dtype.str, array.tobytes())
        if key not in found:
            found[key] = columns(model, array).astype(np.int8)
        stacked[number] = found[key]
    return stacked


# A block by the indices of its two groups among the strategies of each side (None: the first group
# against itself). Each block's columns are taken only when its sweep starts, so what is held at once stays
# the same however many strategies play (a copy of every block's columns grew with their square).
Pairing = tuple[IntArray, IntArray | None]


def _swept(
    model: Model, left: Columns, right: Columns, blocks: Sequence[Pairing], progress: Progress | None
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """Each block's first-mover win probabilities (see _block) of `left[mine]` against `right[theirs]`, in
    order, telling `progress` the blocks done out of all of them."""
    cells = max(
        (len(mine) * len(mine if theirs is None else theirs) for mine, theirs in blocks),
        default=0,
    )

    def one(block: Pairing, memory: FloatArray) -> tuple[FloatArray, FloatArray]:
        mine, theirs = block
        return _block(model, left[mine], None if theirs is None else right[theirs], memory)

    for done, found in enumerate(in_threads(blocks, 2 * _span(model) * cells, one), 1):
        if progress:
            progress(done, len(blocks))
        yield found


def _matrix(model: Model, chosen: Columns, progress: Progress | None) -> FloatArray:
    """first[i, j] for all these strategies: symmetric blocks on the diagonal, pairs of groups off it."""
    groups = _groups(len(chosen), _width(model))
    pairs = [(mine, theirs) for mine in range(len(groups)) for theirs in range(mine, len(groups))]
    blocks = [(groups[i], None if i == j else groups[j]) for i, j in pairs]
    first = np.empty((len(chosen), len(chosen)), dtype=np.float64)
    for (i, j), (ahead, behind) in zip(pairs, _swept(model, chosen, chosen, blocks, progress), strict=True):
        first[np.ix_(groups[i], groups[j])] = ahead
        first[np.ix_(groups[j], groups[i])] = behind
    return first


def winrate_matrix(
    rules: RuleSet | str, strategies: Sequence[Player], goal: int = 100, progress: Progress | None = None
) -> WinMatrix:
    """Every strategy against every other (a round robin), both seatings, in blocks that fit the budget."""
    built = model(get_rules(rules), goal)
    return WinMatrix(_matrix(built, _columns(built, strategies), progress))


def _unique(chosen: Columns) -> tuple[Columns, IntArray]:
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
    width = _width(model)
    pairs = [
        (mine, theirs)
        for mine in _groups(len(left), width)
        for theirs in _groups(len(right), width)
        if wanted[np.ix_(mine, theirs)].any()
    ]
    first = np.full(wanted.shape, np.nan)
    second = np.full(wanted.shape, np.nan)
    blocks: list[Pairing] = list(pairs)
    for (mine, theirs), (ahead, behind) in zip(
        pairs, _swept(model, left, right, blocks, progress), strict=True
    ):
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

    Few distinct strategies are swept as one round robin (fewer, fuller blocks); otherwise the first
    strategies of the pairs meet the second ones in blocks.
    """
    built = model(get_rules(rules), goal)
    if not pairs:
        return []
    everyone, number = _unique(_columns(built, [player for pair in pairs for player in pair]))
    a, b = number[0::2], number[1::2]
    if len(everyone) > 2 and len(everyone) ** 2 <= max(16, 2 * len(set(a.tolist())) * len(set(b.tolist()))):
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
