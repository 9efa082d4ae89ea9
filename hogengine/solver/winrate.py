"""Exact win rates of strategies that see only the scores (or the full state), many pairs per sweep.

A block pits movers against opponents: `values[s, i, j]` is the win probability of mover i, to move in
state s, against opponent j. A mover's choice fixes the row of the model in every state, so one row of
successor values serves all opponents at once (a gather of contiguous rows). The opponent's turn needs the
partner block's values seen from the other side, which each block stores transposed as it goes.
"""

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.numeric import BoolArray, FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.model import Model, Progress, model
from hogengine.solver.sweep import Stage, stages
from hogengine.strategies import BadStrategy

# A player of an exact match: a Table [score][opponent score] (at least goal x goal), or a full-state
# policy [layer][score][opponent score] such as Solution.policy.
Player = npt.NDArray[np.integer[Any]]
# Bytes of stored values per block (both seatings); larger batches are cut into blocks.
BLOCK_BYTES = 256 << 20
# Opponents from which equal-length rows are summed as matrix products rather than by reduceat.
WIDE = 6
# Entries planned at once (successor row and weight per entry of the movers' rows).
PLAN_ENTRIES = 1 << 22


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
    if not np.all((chosen >= legal.start) & (chosen < legal.stop)):
        raise BadStrategy(
            f"A strategy may only choose {legal.start} to {legal.stop - 1} under {model.rules.id}."
        )
    return model.choice_column(chosen.astype(np.int64))


@dataclass
class _Side:
    """The movers of one side of a block and the values they have reached so far."""

    columns: IntArray  # (movers, S)
    opponents: int
    store: FloatArray  # rows: theirs (S * movers), then own (S * movers) when turns repeat
    own: bool

    @property
    def movers(self) -> int:
        return len(self.columns)

    def theirs(self, size: int) -> FloatArray:
        """[s, i, j]: the win probability of opponent j to move in s against mover i."""
        return self.store[: size * self.movers].reshape(size, self.movers, self.opponents)

    def mine(self, size: int) -> FloatArray:
        """[s, i, j]: the win probability of mover i to move in s against opponent j."""
        return self.store[size * self.movers : 2 * size * self.movers].reshape(
            size, self.movers, self.opponents
        )


def _side(columns: IntArray, opponents: int, own: bool) -> _Side:
    size = columns.shape[1]
    rows = (2 if own else 1) * size * len(columns)
    return _Side(columns, opponents, np.zeros((rows, opponents), dtype=np.float64), own)


@dataclass(frozen=True)
class _Cut:
    """One stage within a plan: its rows (sorted by length), its entries, and its runs of equal length."""

    rows: slice
    entries: slice
    runs: tuple[tuple[int, int, int, int], ...]  # (length, first row, last row, first entry), stage-relative


@dataclass
class _Plan:
    """For a run of stages, the source row and weight of every entry of the movers' chosen rows.

    Within each stage the rows are sorted by their number of entries, so equal lengths form dense
    (rows, length, opponents) blocks summed by one matrix product each. A row without entries (every
    outcome ends the game) gets the model's blank entry (weight 0), so no run is empty.
    """

    source: IntArray
    weight: FloatArray
    constant: FloatArray  # per (state, mover) in natural order
    starts: IntArray  # per sorted row: where its entries begin, counted from its stage's first entry
    place: IntArray  # per sorted row: its (state, mover) place within its stage
    cuts: list[_Cut]


def _plan(model: Model, side: _Side, run: Sequence[Stage]) -> _Plan:
    size, movers, width = model.size, side.movers, len(model.choices)
    first, last = run[0].states.start, run[-1].states.stop
    bounds = np.array([(stage.states.start - first) * movers for stage in run] + [(last - first) * movers])
    natural = (np.arange(first, last)[:, None] * width + side.columns[:, first:last].T).ravel()
    stage_of = np.repeat(np.arange(len(run)), np.diff(bounds))
    lengths = np.maximum(model.row_start[natural + 1] - model.row_start[natural], 1)
    order = np.lexsort((lengths, stage_of))
    rows, lengths = natural[order], lengths[order]
    begin = np.where(model.row_start[rows + 1] > model.row_start[rows], model.row_start[rows], model.blank)
    starts = np.cumsum(lengths) - lengths
    entry = np.repeat(begin - starts, lengths) + np.arange(int(lengths.sum()))
    weight = model.weights[model.code[entry]]
    mover = np.repeat(order % movers, lengths) if movers > 1 else 0
    own = np.where(weight > 0, size, 0) if side.own else 0
    source = (model.successor[entry] + own) * movers + mover
    edges = np.append(starts, len(entry))[bounds]
    local = starts - edges[stage_of]
    change = np.flatnonzero(np.diff(lengths) != 0) + 1
    cuts = []
    for number in range(len(run)):
        low, high = int(bounds[number]), int(bounds[number + 1])
        heads = [low, *change[(change > low) & (change < high)].tolist(), high]
        runs = tuple(
            (int(lengths[head]), head - low, tail - low, int(local[head]))
            for head, tail in itertools.pairwise(heads)
        )
        cuts.append(_Cut(slice(low, high), slice(int(edges[number]), int(edges[number + 1])), runs))
    return _Plan(source, weight, model.constant[natural], local, order - bounds[stage_of], cuts)


def _plans(model: Model, side: _Side) -> Iterator[tuple[Stage, _Plan, int]]:
    """Each stage with the plan that covers it (and its number there), planning runs of bounded size."""
    per_state = side.movers * max(1, len(model.successor) // max(1, model.size * len(model.choices)))
    run: list[Stage] = []
    for stage in [*stages(model), None]:
        width = 0 if stage is None else stage.states.stop - stage.states.start
        if run and (
            stage is None or (run[-1].states.stop - run[0].states.start + width) * per_state > PLAN_ENTRIES
        ):
            plan = _plan(model, side, run)
            yield from ((member, plan, number) for number, member in enumerate(run))
            run = []
        if stage is not None:
            run.append(stage)


def _sweep_side(side: _Side, plan: _Plan, number: int) -> FloatArray:
    """One side's values [state, mover, opponent] in one stage of a plan."""
    cut = plan.cuts[number]
    source, weight = plan.source[cut.entries], plan.weight[cut.entries]
    sums = np.empty((cut.rows.stop - cut.rows.start, side.opponents), dtype=np.float64)
    if side.opponents < WIDE:
        terms = np.take(side.store, source, axis=0)
        terms *= weight[:, None]
        sums = np.add.reduceat(terms, plan.starts[cut.rows], axis=0)
    else:
        for length, low, high, begin in cut.runs:
            end = begin + (high - low) * length
            terms = np.take(side.store, source[begin:end], axis=0).reshape(high - low, length, side.opponents)
            np.matmul(weight[begin:end].reshape(high - low, 1, length), terms, out=sums[low:high, None, :])
    values = np.empty_like(sums)
    values[plan.place[cut.rows]] = sums
    values += plan.constant[cut.rows, None]
    return values.reshape(-1, side.movers, side.opponents)


def _sweep(model: Model, sides: Sequence[tuple[_Side, _Side]], tick: Callable[[], None] | None) -> None:
    """Sweep every stage for each (side, partner), leaving each side's values transposed in its partner."""
    size = model.size
    walks = [_plans(model, side) for side, _ in sides]
    for steps in zip(*walks, strict=True):
        for (side, partner), (stage, plan, number) in zip(sides, steps, strict=True):
            values = _sweep_side(side, plan, number)
            partner.theirs(size)[stage.states] = values.transpose(0, 2, 1)
            if side.own:
                side.mine(size)[stage.states] = values
        if tick:
            tick()


def _block(
    model: Model, movers: IntArray, opponents: IntArray | None, tick: Callable[[], None] | None = None
) -> tuple[FloatArray, FloatArray]:
    """First-mover win probabilities [i, j] of movers vs opponents, and [j, i] of opponents vs movers."""
    own = bool(np.any(model.weights > 0))
    left = _side(movers, len(movers) if opponents is None else len(opponents), own)
    right = left if opponents is None else _side(opponents, len(movers), own)
    _sweep(model, [(left, right)] if opponents is None else [(left, right), (right, left)], tick)
    return right.theirs(model.size)[model.start].T, left.theirs(model.size)[model.start].T


def pair_values(model: Model, a: IntArray, b: IntArray) -> tuple[FloatArray, FloatArray]:
    """In every state, A's win probability with A to move against B, and B's with B to move against A."""
    left = _side(a[None, :], 1, bool(np.any(model.weights > 0)))
    right = _side(b[None, :], 1, left.own)
    _sweep(model, [(left, right), (right, left)], None)
    return right.theirs(model.size)[:, 0, 0].copy(), left.theirs(model.size)[:, 0, 0].copy()


def _cells(model: Model) -> int:
    """How many (mover, opponent) cells a block may sweep at once within the memory budget."""
    kinds = 2 if np.any(model.weights > 0) else 1
    return max(1, BLOCK_BYTES // (kinds * model.size * 8))


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


def _columns(model: Model, strategies: Sequence[Player]) -> IntArray:
    return (
        np.stack([columns(model, strategy) for strategy in strategies])
        if strategies
        else np.empty((0, model.size), dtype=np.int64)
    )


def _matrix(model: Model, chosen: IntArray, progress: Progress | None) -> FloatArray:
    """first[i, j] for all these strategies: symmetric blocks on the diagonal, pairs of groups off it."""
    groups = _groups(len(chosen), int(np.sqrt(_cells(model))))
    ticker = _Ticker(len(groups) * (len(groups) + 1) // 2 * (len(model.stages) - 1), progress)
    first = np.empty((len(chosen), len(chosen)), dtype=np.float64)
    for number, group in enumerate(groups):
        first[np.ix_(group, group)] = _block(model, chosen[group], None, ticker)[0]
        for other in groups[number + 1 :]:
            mine, theirs = _block(model, chosen[group], chosen[other], ticker)
            first[np.ix_(group, other)] = mine
            first[np.ix_(other, group)] = theirs
    return first


def winrate_matrix(
    rules: RuleSet | str, strategies: Sequence[Player], goal: int = 100, progress: Progress | None = None
) -> WinMatrix:
    """Every strategy against every other (a round robin), both seatings, in blocks that fit the budget."""
    built = model(_rules(rules), goal)
    return WinMatrix(_matrix(built, _columns(built, strategies), progress))


def _unique(chosen: IntArray) -> tuple[IntArray, IntArray]:
    """Distinct strategies (by their choice in every state) and, per strategy, its number among them."""
    seen: dict[bytes, int] = {}
    keep: list[int] = []
    for place, row in enumerate(chosen):
        if seen.setdefault(row.tobytes(), len(keep)) == len(keep):
            keep.append(place)
    return chosen[keep], np.array([seen[row.tobytes()] for row in chosen], dtype=np.int64)


def _bipartite(
    model: Model, left: IntArray, right: IntArray, wanted: BoolArray, progress: Progress | None
) -> tuple[FloatArray, FloatArray]:
    """first[i, j] of left vs right and second[i, j] (right moving first), for the wanted cells."""
    cells = _cells(model) // 2
    across = _groups(len(right), int(np.sqrt(cells)) if len(left) > np.sqrt(cells) else cells)
    down = _groups(len(left), max(1, cells // max(len(group) for group in across)))
    blocks = [(mine, theirs) for mine in down for theirs in across if wanted[np.ix_(mine, theirs)].any()]
    ticker = _Ticker(len(blocks) * (len(model.stages) - 1), progress)
    first = np.full(wanted.shape, np.nan)
    second = np.full(wanted.shape, np.nan)
    for mine, theirs in blocks:
        ahead, behind = _block(model, left[mine], right[theirs], ticker)
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
    everyone, number = _unique(_columns(built, [player for pair in pairs for player in pair]))
    a, b = number[0::2], number[1::2]
    if len(everyone) ** 2 <= max(16, 2 * len(np.unique(a)) * len(np.unique(b))):
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
