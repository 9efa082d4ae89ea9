"""Exact win rates of strategies that see only the scores (or the full state), many pairs per sweep.

A block pits movers against opponents: `values[s, i, j]` is the win probability of mover i, to move in
state s, against opponent j. A mover's choice fixes the row of the model in every state, so one row of
successor values serves all opponents at once (a gather of contiguous rows). The opponent's turn needs the
partner block's values seen from the other side, which each block stores transposed as it goes.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.numeric import FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.model import Model, Progress, model
from hogengine.solver.sweep import Stage, stages
from hogengine.strategies import BadStrategy

# A player of an exact match: a Table [score][opponent score] (at least goal x goal), or a full-state
# policy [layer][score][opponent score] such as Solution.policy.
Player = npt.NDArray[np.integer[Any]]
# Bytes of stored values per block (both seatings); larger batches are cut into blocks.
BLOCK_BYTES = 384 << 20
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
    store: FloatArray  # rows: theirs (S * movers), then own (S * movers) when turns repeat, then a zero row
    own: bool

    @property
    def movers(self) -> int:
        return len(self.columns)

    def theirs(self, size: int) -> FloatArray:
        """[s, i, j]: the win probability of opponent j to move in s against mover i."""
        return self.store[: size * self.movers].reshape(size, self.movers, self.opponents)


def _side(columns: IntArray, opponents: int, own: bool) -> _Side:
    size = columns.shape[1]
    rows = (2 if own else 1) * size * len(columns) + 1
    return _Side(columns, opponents, np.zeros((rows, opponents), dtype=np.float64), own)


@dataclass
class _Plan:
    """For a run of stages, the source row and weight of every entry of the movers' chosen rows."""

    source: IntArray
    weight: FloatArray
    constant: FloatArray  # per (state, mover)
    starts: IntArray  # per (state, mover): where its entries begin
    first_state: int


def _plan(model: Model, side: _Side, first: int, last: int) -> _Plan:
    size, movers, width = model.size, side.movers, len(model.choices)
    rows = (np.arange(first, last)[:, None] * width + side.columns[:, first:last].T).ravel()
    begin = model.row_start[rows]
    lengths = model.row_start[rows + 1] - begin
    starts = np.cumsum(lengths) - lengths
    entry = np.repeat(begin - starts, lengths) + np.arange(int(lengths.sum()))
    weight = model.weights[model.code[entry]]
    mover = np.repeat(np.tile(np.arange(movers), last - first), lengths)
    own = np.where(weight > 0, size, 0) if side.own else 0
    source = (model.successor[entry] + own) * movers + mover
    return _Plan(source, weight, model.constant[rows], np.append(starts, len(entry)), first)


def _plans(model: Model, side: _Side) -> Iterator[tuple[Stage, _Plan]]:
    """Each stage with the plan that covers it, planning runs of stages of bounded size."""
    plan: _Plan | None = None
    bound = 0
    per_state = side.movers * max(1, len(model.successor) // max(1, model.size * len(model.choices)))
    for stage in stages(model):
        if plan is None or stage.states.stop > bound:
            span = max(stage.states.stop - stage.states.start, PLAN_ENTRIES // max(1, per_state))
            bound = min(model.size, stage.states.start + span)
            last = int(model.stages[np.searchsorted(model.stages, bound, side="right") - 1])
            bound = max(last, stage.states.stop)
            plan = _plan(model, side, stage.states.start, bound)
        yield stage, plan


def _sweep_side(model: Model, side: _Side, partner: _Side, stage: Stage, plan: _Plan) -> FloatArray:
    """One side's values in one stage, stored transposed for the partner (and kept when turns repeat)."""
    movers = side.movers
    low = (stage.states.start - plan.first_state) * movers
    high = (stage.states.stop - plan.first_state) * movers
    begin, end = int(plan.starts[low]), int(plan.starts[high])
    terms = np.empty((end - begin + 1, side.opponents), dtype=np.float64)
    np.take(side.store, plan.source[begin:end], axis=0, out=terms[:-1])
    terms[:-1] *= plan.weight[begin:end, None]
    terms[-1] = 0
    starts = plan.starts[low:high] - begin
    sums = np.add.reduceat(terms, starts, axis=0)
    sums[starts == plan.starts[low + 1 : high + 1] - begin] = 0
    sums += plan.constant[low:high, None]
    values = sums.reshape(-1, movers, side.opponents)
    partner.theirs(model.size)[stage.states] = values.transpose(0, 2, 1)
    if side.own:
        size = model.size
        side.store[size * movers : 2 * size * movers].reshape(size, movers, side.opponents)[stage.states] = (
            values
        )
    return values


def _block(
    model: Model, movers: IntArray, opponents: IntArray | None, tick: Callable[[], None] | None = None
) -> tuple[FloatArray, FloatArray]:
    """First-mover win probabilities [i, j] of movers vs opponents, and [j, i] of opponents vs movers."""
    own = bool(np.any(model.weights > 0))
    left = _side(movers, len(movers) if opponents is None else len(opponents), own)
    right = left if opponents is None else _side(opponents, len(movers), own)
    sides = [(left, right)] if opponents is None else [(left, right), (right, left)]
    start: list[FloatArray] = [np.empty(0), np.empty(0)]
    walks = [_plans(model, side) for side, _ in sides]
    for steps in zip(*walks, strict=True):
        for place, ((side, partner), (stage, plan)) in enumerate(zip(sides, steps, strict=True)):
            values = _sweep_side(model, side, partner, stage, plan)
            if stage.states.start <= model.start < stage.states.stop:
                start[place] = values[model.start - stage.states.start]
        if tick:
            tick()
    if opponents is None:
        return start[0], start[0].T
    return start[0], start[1]


def _group_size(model: Model, sides: int) -> int:
    """How many strategies a side of a block may hold so that the block's stored values fit the budget."""
    kinds = 2 if np.any(model.weights > 0) else 1
    per_cell = sides * kinds * model.size * 8
    return max(1, int(np.sqrt(BLOCK_BYTES / per_cell)))


def _groups(count: int, size: int) -> list[IntArray]:
    """Nearly equal consecutive groups of at most `size` of `count` indices."""
    return np.array_split(np.arange(count), max(1, -(-count // size)))


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


def winrate_matrix(
    rules: RuleSet | str, strategies: Sequence[Player], goal: int = 100, progress: Progress | None = None
) -> WinMatrix:
    """Every strategy against every other (a round robin), both seatings, in blocks that fit the budget."""
    built = model(_rules(rules), goal)
    chosen = _columns(built, strategies)
    groups = _groups(len(chosen), _group_size(built, 2))
    ticker = _Ticker(len(groups) * (len(groups) + 1) // 2 * (len(built.stages) - 1), progress)
    first = np.empty((len(chosen), len(chosen)), dtype=np.float64)
    for number, group in enumerate(groups):
        first[np.ix_(group, group)] = _block(built, chosen[group], None, ticker)[0]
        for other in groups[number + 1 :]:
            mine, theirs = _block(built, chosen[group], chosen[other], ticker)
            first[np.ix_(group, other)] = mine
            first[np.ix_(other, group)] = theirs
    return WinMatrix(first)


def _unique(model: Model, strategies: Sequence[Player]) -> tuple[IntArray, IntArray]:
    """Distinct strategies (by their choice in every state) and, per strategy, its number among them."""
    chosen = _columns(model, strategies)
    distinct, number = np.unique(chosen, axis=0, return_inverse=True)
    return distinct, number.ravel()


def exact_winrates(
    rules: RuleSet | str,
    pairs: Sequence[tuple[Player, Player]],
    goal: int = 100,
    progress: Progress | None = None,
) -> list[WinRate]:
    """A's exact win rate against B for each pair (A, B), many pairs per sweep."""
    built = model(_rules(rules), goal)
    left, left_of = _unique(built, [a for a, _ in pairs])
    right, right_of = _unique(built, [b for _, b in pairs])
    wanted = np.zeros((len(left), len(right)), dtype=np.bool_)
    wanted[left_of, right_of] = True
    size = _group_size(built, 2)
    blocks = [
        (mine, theirs)
        for mine in _groups(len(left), max(1, size * size // max(1, min(size, len(right)))))
        for theirs in _groups(len(right), size)
        if wanted[np.ix_(mine, theirs)].any()
    ]
    ticker = _Ticker(len(blocks) * (len(built.stages) - 1), progress)
    first = np.full(wanted.shape, np.nan)
    second = np.full(wanted.shape, np.nan)
    for mine, theirs in blocks:
        ahead, behind = _block(built, left[mine], right[theirs], ticker)
        first[np.ix_(mine, theirs)] = ahead
        second[np.ix_(mine, theirs)] = 1 - behind.T
    return [WinRate(float(first[i, j]), float(second[i, j])) for i, j in zip(left_of, right_of, strict=True)]


def exact_winrate(rules: RuleSet | str, a: Player, b: Player, goal: int = 100) -> WinRate:
    """A's exact win probability against B moving first, moving second, and on average."""
    return exact_winrates(rules, [(a, b)], goal)[0]


def _rules(rules: RuleSet | str) -> RuleSet:
    return get_rules(rules) if isinstance(rules, str) else rules
