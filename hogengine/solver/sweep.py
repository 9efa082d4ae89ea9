"""The sweeps of strategies (table against table): the rows they choose, grouped by dice kind or spelled
out flat, and the readers that sum them stage by stage.

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
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.numeric import FloatArray, IntArray
from hogengine.solver.model import Model
from hogengine.solver.rows import counting, runs

# Per reader (a strategy) and state: the column of its choice (any integer type).
Columns = npt.NDArray[np.integer[Any]]

# Entries of flat plans made at once: small enough that their arrays reuse freed memory instead of
# fresh pages (which cost more than the sweep spends reading them).
FLAT_ENTRIES = 1 << 17
# Bytes gathered at once: small enough to stay in cache for the matrix-vector product that reads them.
GATHER_BYTES = 1 << 20


def _cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (`taskset`, a
    container's cpuset), so a process held to one core does not start a helper to compete with it."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# Threads that share a large stage (the cores this process may use, at most two), and the values gathered
# in a stage from which it is shared.
THREADS = min(2, _cores())
SHARED_WORK = 1 << 18
# Products smaller than this go to BLAS (which runs them on one thread); larger ones to einsum.
SMALL_PRODUCT = 9216


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
    for first, end in runs(model, per_state, FLAT_ENTRIES):
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
