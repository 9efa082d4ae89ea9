"""What the backward sweeps share: runs of stages, rows grouped by dice kind, and rows spelled out as
(target, probability) entries.

A sweep walks the stages in order (every successor of a stage lies in an earlier one), and in each stage
computes, for some rows, `sum(p * value[target])` over the row's outcomes, where `value` is a matrix whose
row `target * blocks + block` holds the values (one per column) a reader in that block sees at a target.
Rows of one dice kind share their probabilities, so a stage's rows are grouped by kind; a group is
gathered outcome-major into a small buffer (so it stays in cache) and summed by one matrix-vector product.
Work is planned a run of stages at a time, so index arrays stay within a budget however large the model.
"""

import bisect
import itertools
import os
import weakref
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.numeric import BoolArray, FloatArray, IntArray
from hogengine.solver.model import Model

# Per reader (a strategy) and state: the column of its choice (any integer type).
Columns = npt.NDArray[np.integer[Any]]

# Rows (or, for spelled-out rows, entries) planned at once.
PLAN_ROWS = 1 << 20
# Bytes gathered at once: small enough to stay in cache for the matrix-vector product that reads them.
GATHER_BYTES = 1 << 20
# Threads that share a large stage (the machine's cores, at most two), and the values gathered in a stage
# from which it is shared.
THREADS = min(2, os.cpu_count() or 1)
SHARED_WORK = 1 << 18
# Products smaller than this go to BLAS (which runs them on one thread); larger ones to einsum.
SMALL_PRODUCT = 9216
# Models whose every row is spelled out once and kept (a few tens of megabytes at most).
KEPT_ENTRIES = 1 << 22


def runs(model: Model, per_state: float, budget: int = PLAN_ROWS) -> Iterator[tuple[int, int]]:
    """Consecutive runs of stages (first stage, end stage) of about `budget` rows or entries each."""
    bounds = model.stages
    states = max(1.0, budget / max(per_state, 1e-9))
    first = 0
    while first < len(bounds) - 1:
        end = int(np.searchsorted(bounds, bounds[first] + states, side="right")) - 1
        end = max(first + 1, min(end, len(bounds) - 1))
        yield first, end
        first = end


@dataclass(frozen=True)
class Stage:
    """One stage of a plan: its states, its rows (the same range in natural and in sorted order), and
    its pieces: rows of one dice kind (kind, first sorted row, end sorted row), each gathered at once."""

    states: slice
    rows: slice
    pieces: tuple[tuple[int, int, int], ...]
    work: tuple[int, ...]  # per piece: the values it gathers, summed up to and including it


@dataclass(frozen=True)
class Plan:
    """For a run of stages, the rows of some readers (one per state and reader, in natural order
    [state][reader]), sorted by dice kind within each stage."""

    place: IntArray  # per sorted row: where its targets begin in model.target
    block: npt.NDArray[np.int32]  # per sorted row: the block of the value matrix it reads
    inverse: IntArray  # per (state, reader): its sorted row
    stages: tuple[Stage, ...]


def _pieces(
    model: Model, groups: Iterator[tuple[int, int, int]], wide: int
) -> Iterator[tuple[int, int, int]]:
    """Groups of one kind cut into pieces that gather at most GATHER_BYTES."""
    for kind, head, tail in groups:
        step = max(1, GATHER_BYTES // (8 * int(model.kind_size[kind]) * wide))
        for begin in range(head, tail, step):
            yield kind, begin, min(tail, begin + step)


def plan(model: Model, columns: Columns, first: int, end: int, *, blocks: int, wide: int) -> Plan:
    """Plan the rows of readers choosing `columns` [reader, state] in stages first .. end - 1; reader r
    reads block r of the value matrix (or block 0 when there is one block), `wide` values per target."""
    readers, width = len(columns), model.width
    bounds = model.stages[first : end + 1]
    low, high = int(bounds[0]), int(bounds[-1])
    rows = (columns[:, low:high].T + np.arange(low * width, high * width, width)[:, None]).ravel()
    kinds = len(model.dice)
    # Sort key: (stage within the run, dice kind), small enough for numpy's radix sort when it fits.
    small = (end - first) * kinds <= 1 << 16
    stage = np.repeat(np.arange(end - first, dtype=np.uint16 if small else np.int64), np.diff(bounds))
    key = (stage * kinds)[:, None] + model.kind[rows].reshape(-1, readers)
    order = np.argsort(key.ravel(), kind="stable")
    sizes = np.bincount(key.ravel(), minlength=(end - first) * kinds).reshape(end - first, kinds)
    heads = (np.cumsum(sizes) - sizes.ravel()).reshape(end - first, kinds)
    inverse = np.empty_like(order)
    inverse[order] = np.arange(len(order))
    stages = []
    for number in range(end - first):
        present = np.flatnonzero(sizes[number]).tolist()
        groups = (
            (kind, int(heads[number, kind]), int(heads[number, kind] + sizes[number, kind]))
            for kind in present
        )
        pieces = tuple(_pieces(model, groups, wide))
        work = itertools.accumulate(
            int(model.kind_size[kind]) * (stop - begin) * wide for kind, begin, stop in pieces
        )
        a, b = (int(bound - low) * readers for bound in bounds[number : number + 2])
        states = slice(int(bounds[number]), int(bounds[number + 1]))
        stages.append(Stage(states, slice(a, b), pieces, tuple(work)))
    if blocks > 1:
        block = np.broadcast_to(np.arange(readers, dtype=np.int32), (high - low, readers)).ravel()[order]
    else:
        block = np.zeros(len(order), dtype=np.int32)
    return Plan(model.row_start[rows[order]], block, inverse, tuple(stages))


def plans(model: Model, columns: Columns, blocks: int, wide: int) -> Iterator[tuple[Plan, Stage]]:
    """Each stage with the plan that covers it, planning runs of bounded size."""
    for first, end in runs(model, len(columns)):
        made = plan(model, columns, first, end, blocks=blocks, wide=wide)
        for stage in made.stages:
            yield made, stage


def counting(first: IntArray, lengths: IntArray, starts: IntArray) -> IntArray:
    """first[r], first[r] + 1, ..., first[r] + lengths[r] - 1 for every r in turn (lengths at least 1;
    starts: where each run begins), by one cumulative sum."""
    steps = np.ones(int(starts[-1] + lengths[-1]) if len(starts) else 0, dtype=np.int64)
    if len(steps):
        steps[0] = first[0]
        steps[starts[1:]] = first[1:] - first[:-1] - lengths[:-1] + 1
        np.cumsum(steps, out=steps)
    return steps


@dataclass(frozen=True)
class FlatStage:
    """One stage of a flat plan: its states, its entries, and where each of its rows (in natural order)
    begins, counted from its first entry."""

    states: slice
    entries: slice
    starts: IntArray


@dataclass(frozen=True)
class FlatPlan:
    """For a run of stages, every outcome of the rows of some readers one after the other (rows in natural
    order): a plan for one value per target, where grouping rows by kind would cost more calls than it
    saves (few readers, small stages)."""

    source: IntArray  # per entry: the row of the value matrix it reads
    weight: FloatArray  # per entry: its probability
    stages: tuple[FlatStage, ...]


def flat_plan(model: Model, columns: Columns, first: int, end: int, *, blocks: int) -> FlatPlan:
    """A flat plan of the rows of readers choosing `columns` [reader, state] in stages first .. end - 1."""
    readers, width = len(columns), model.width
    bounds = model.stages[first : end + 1]
    low, high = int(bounds[0]), int(bounds[-1])
    rows = (columns[:, low:high].T + np.arange(low * width, high * width, width)[:, None]).ravel()
    kinds = model.kind[rows]
    lengths = model.kind_size[kinds]
    starts = np.cumsum(lengths) - lengths
    source = model.target.take(counting(model.row_start[rows], lengths, starts)).astype(np.intp)
    if blocks > 1:
        source *= blocks
        source += np.repeat(np.arange(len(rows)) % readers, lengths)
    weight = model.probability.take(counting(model.kind_first[kinds], lengths, starts))
    # Where each row begins, counted from the first entry of its stage.
    edges = np.append(starts, len(source))[(bounds - low) * readers]
    local = starts - np.repeat(edges[:-1], np.diff(bounds) * readers)
    cuts = ((bounds - low) * readers).tolist()
    edge = edges.tolist()
    stages = tuple(
        FlatStage(slice(a, b), slice(edge[number], edge[number + 1]), local[cuts[number] : cuts[number + 1]])
        for number, (a, b) in enumerate(itertools.pairwise(bounds.tolist()))
    )
    return FlatPlan(source, weight, stages)


def flat_plans(model: Model, columns: Columns, blocks: int) -> Iterator[tuple[FlatPlan, FlatStage]]:
    """Each stage with the flat plan that covers it, planning runs of bounded size."""
    per_state = len(columns) * len(model.target) / max(1, model.size * model.width)
    for first, end in runs(model, per_state):
        made = flat_plan(model, columns, first, end, blocks=blocks)
        for stage in made.stages:
            yield made, stage


class Scratch:
    """Arrays reused from stage to stage (grown when a stage needs more)."""

    def __init__(self) -> None:
        self.arrays: dict[str, FloatArray] = {}

    def get(self, name: str, size: int) -> FloatArray:
        array = self.arrays.get(name)
        if array is None or len(array) < size:
            array = self.arrays[name] = np.empty(max(size, 1), dtype=np.float64)
        return array[:size]


@dataclass(frozen=True)
class Helper:
    """A second thread that sums half of each large stage: numpy lets go of the interpreter while it
    gathers and multiplies, and one core alone cannot keep enough memory reads in flight."""

    pool: ThreadPoolExecutor
    scratch: Scratch


@contextmanager
def helper() -> Iterator[Helper | None]:
    """A helper thread while the block runs, when the machine has a second core."""
    if THREADS < 2:
        yield None
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="hog-sweep") as pool:
        yield Helper(pool, Scratch())


@dataclass(frozen=True)
class Reader:
    """What a sweep reads: a value matrix whose row `target * blocks + block` holds the values that a row
    of that block sees at that target (one column per opponent)."""

    model: Model
    value: FloatArray  # (targets * blocks, columns)
    blocks: int

    def _sums(
        self,
        plan: Plan,
        pieces: Sequence[tuple[int, int, int]],
        sums: FloatArray,
        base: int,
        scratch: Scratch,
    ) -> None:
        model, value, blocks = self.model, self.value, self.blocks
        wide = value.shape[1]
        flat = value.reshape(-1) if wide == 1 else value
        buffer = scratch.get("gathered", GATHER_BYTES // 8 + 64 * wide)
        lengths, spread, chances, target = model.sizes, model.spread, model.outcomes, model.target
        for kind, begin, stop in pieces:
            length = lengths[kind]
            found = target.take(plan.place[begin:stop] + spread[kind])
            if blocks > 1:
                index = np.multiply(found, blocks, dtype=np.intp)
                index += plan.block[begin:stop]
                index = index.ravel()
            else:
                index = found.ravel()
            count = len(index)
            if wide == 1:
                gathered = flat.take(index, out=buffer[:count], mode="clip")
            else:
                gathered = flat.take(
                    index, axis=0, out=buffer[: count * wide].reshape(count, wide), mode="clip"
                )
            into = sums[(begin - base) * wide : (stop - base) * wide]
            if count * wide < SMALL_PRODUCT:
                np.dot(chances[kind], gathered.reshape(length, -1), out=into)
            else:
                # Large products by einsum: BLAS would start threads that spin between calls.
                np.einsum("k,kx->x", chances[kind], gathered.reshape(length, -1), out=into)

    def flat_sums(self, plan: FlatPlan, stage: FlatStage, scratch: Scratch) -> FloatArray:
        """[row, 1] in natural order: each planned row's sum of p * value[source]."""
        count = len(stage.starts)
        terms = scratch.get("terms", stage.entries.stop - stage.entries.start)
        self.value.reshape(-1).take(plan.source[stage.entries], out=terms, mode="clip")
        terms *= plan.weight[stage.entries]
        values = scratch.get("values", count)
        np.add.reduceat(terms, stage.starts, out=values)
        return values.reshape(count, 1)

    def stage_sums(
        self,
        plan: Plan,
        stage: Stage,
        scratch: Scratch,
        helping: Helper | None = None,
    ) -> FloatArray:
        """[row, column] in natural order: each planned row's sum of p * value[target * blocks + block];
        a large stage is shared with the helper thread, if given."""
        wide = self.value.shape[1]
        count = stage.rows.stop - stage.rows.start
        sums = scratch.get("sums", count * wide)
        base = stage.rows.start
        pieces = stage.pieces
        if helping is not None and len(pieces) > 1 and stage.work[-1] >= SHARED_WORK:
            half = min(len(pieces) - 1, max(1, bisect.bisect_left(stage.work, stage.work[-1] // 2)))
            shared = helping.pool.submit(self._sums, plan, pieces[half:], sums, base, helping.scratch)
            self._sums(plan, pieces[:half], sums, base, scratch)
            shared.result()
        else:
            self._sums(plan, pieces, sums, base, scratch)
        values = scratch.get("values", count * wide).reshape(count, wide)
        np.take(sums.reshape(count, wide), plan.inverse[stage.rows] - base, axis=0, out=values, mode="clip")
        return values


def weights(model: Model, rows: IntArray) -> tuple[FloatArray, IntArray, IntArray]:
    """The probability of every entry of these rows, in order; where each row's entries begin; and their
    number."""
    kinds = model.kind[rows]
    lengths = model.kind_size[kinds]
    starts = np.cumsum(lengths) - lengths
    weight: FloatArray = model.probability.take(counting(model.kind_first[kinds], lengths, starts))
    return weight, starts, lengths


def expand(model: Model, rows: IntArray) -> tuple[IntArray, FloatArray, IntArray]:
    """Every entry of these rows, in order: its target, its probability, and where each row's entries
    begin."""
    weight, starts, lengths = weights(model, rows)
    source: IntArray = model.target.take(counting(model.row_start[rows], lengths, starts)).astype(np.intp)
    return source, weight, starts


@dataclass(frozen=True)
class Run:
    """Every row of a run of stages: targets and probabilities of their entries, and each stage's cuts."""

    source: IntArray  # per entry: its target
    weight: FloatArray  # per entry: its probability
    starts: IntArray  # per row: where its entries begin
    states: slice
    # Per stage: (first state, end state, first entry, end entry, where its rows begin from its first entry)
    stages: tuple[tuple[int, int, int, int, IntArray], ...]


def _run(model: Model, first: int, end: int) -> Run:
    width = model.width
    bounds = model.stages[first : end + 1]
    low, high = int(bounds[0]), int(bounds[-1])
    weight, starts, _ = weights(model, np.arange(low * width, high * width))
    offset = int(model.row_start[low * width])
    source = model.target[offset : int(model.row_start[high * width])].astype(np.intp)
    edges = model.row_start[bounds * width] - offset
    cuts = [
        (
            a,
            b,
            int(edges[number]),
            int(edges[number + 1]),
            starts[(a - low) * width : (b - low) * width] - edges[number],
        )
        for number, (a, b) in enumerate(itertools.pairwise(bounds.tolist()))
    ]
    return Run(source, weight, starts, slice(low, high), tuple(cuts))


@dataclass(frozen=True)
class SignedRun:
    """Every row of a run of stages as constant + sum(weight * W[source]), W being the win probability
    of whoever moves in a state: a win adds p to the constant; the opponent's turn p * (1 - W) (p to the
    constant, -p as weight); an extra turn p * W. A row without such entries gets one of weight 0."""

    source: IntArray  # per entry: the state reached
    weight: FloatArray  # per entry: p, or -p when the opponent moves there
    again: BoolArray  # per entry: the mover moves again there
    constant: FloatArray  # per row
    starts: IntArray  # per row: where its entries begin
    states: slice
    # Per stage: (first state, end state, first entry, end entry, where its rows begin from its first entry)
    stages: tuple[tuple[int, int, int, int, IntArray], ...]


def _signed_run(model: Model, first: int, end: int) -> SignedRun:
    size, width = model.size, model.width
    bounds = model.stages[first : end + 1]
    low, high = int(bounds[0]), int(bounds[-1])
    kinds = model.kind[low * width : high * width]
    lengths = model.kind_size[kinds]
    starts = np.cumsum(lengths) - lengths
    offset = int(model.row_start[low * width])
    target = model.target[offset : int(model.row_start[high * width])]
    # Each outcome's place among the probabilities of every kind.
    code = counting(model.kind_first[kinds], lengths, starts)
    # Live outcomes (the game goes on): below `size` (the opponent moves) or from `mine` on (again).
    live = (target - size).view(np.uint32) >= 2
    count = np.add.reduceat(live, starts, dtype=np.int64)
    # A row without live outcomes keeps its first outcome, as a blank entry.
    blank = count == 0
    live[starts[blank]] = True
    count[blank] = 1
    kept = np.cumsum(count) - count
    reached = target[live]
    theirs = reached < size
    source = reached.astype(np.intp)
    weight = model.probability.take(code[live])
    np.negative(weight, out=weight, where=theirs)
    weight[kept[blank]] = 0.0
    source[kept[blank]] = 0
    again = source >= model.mine
    source[again] = model.again[source[again] - model.mine]
    edges = np.append(kept, len(source))[(bounds - low) * width]
    cuts = tuple(
        (
            a,
            b,
            int(edges[number]),
            int(edges[number + 1]),
            kept[(a - low) * width : (b - low) * width] - edges[number],
        )
        for number, (a, b) in enumerate(itertools.pairwise(bounds.tolist()))
    )
    constant = model.constant[low * width : high * width]
    return SignedRun(source, weight, ~theirs, constant, kept, slice(low, high), cuts)


_SIGNED: "weakref.WeakKeyDictionary[Model, tuple[SignedRun, ...]]" = weakref.WeakKeyDictionary()


def signed_rows(model: Model) -> Iterator[SignedRun]:
    """Every row of the model as a constant and signed entries, a run of stages at a time (kept for
    small models)."""
    if model in _SIGNED:
        yield from _SIGNED[model]
        return
    per_state = len(model.target) / max(1, model.size)
    planned = (_signed_run(model, first, end) for first, end in runs(model, per_state, PLAN_ROWS * 4))
    if not small(model):
        yield from planned
        return
    kept = tuple(planned)
    _SIGNED[model] = kept
    yield from kept


_KEPT: "weakref.WeakKeyDictionary[Model, tuple[Run, ...]]" = weakref.WeakKeyDictionary()


def small(model: Model) -> bool:
    """Whether every row of the model is spelled out once and kept."""
    return len(model.target) <= KEPT_ENTRIES


def all_rows(model: Model) -> Iterator[Run]:
    """Every row of the model spelled out, a run of stages at a time (kept for small models)."""
    if model in _KEPT:
        yield from _KEPT[model]
        return
    per_state = len(model.target) / max(1, model.size)
    planned = (_run(model, first, end) for first, end in runs(model, per_state, PLAN_ROWS * 4))
    if not small(model):
        yield from planned
        return
    kept = tuple(planned)
    _KEPT[model] = kept
    yield from kept


def forget() -> None:
    """Drop every kept plan (the benchmark's cold runs)."""
    _KEPT.clear()
    _SIGNED.clear()
