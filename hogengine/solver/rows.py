"""The model's rows spelled out as (target, probability) entries, a run of stages at a time: what optimal
play and the contest table's passes sum, and the index arithmetic they share.

Stages are swept in order (every successor of a stage lies in an earlier one); work is planned a run of
stages at a time, so index arrays stay within a budget however large the model.
"""

import itertools
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from hogengine.numeric import FloatArray, IntArray
from hogengine.solver.model import Model

# What a run of stages is spelled out as (Run or SignedRun).
Spelled = TypeVar("Spelled")
# Rows (or, for spelled-out rows, entries) planned at once.
PLAN_ROWS = 1 << 20
# Models whose every row is spelled out once and kept (a few tens of megabytes at most).
KEPT_ENTRIES = 1 << 22


def runs(model: Model, per_state: float, budget: int | None = None) -> Iterator[tuple[int, int]]:
    """Consecutive runs of stages (first stage, end stage) of about `budget` (else PLAN_ROWS) rows or
    entries each."""
    bounds = model.stages
    states = max(1.0, (PLAN_ROWS if budget is None else budget) / max(per_state, 1e-9))
    first = 0
    while first < len(bounds) - 1:
        end = int(np.searchsorted(bounds, bounds[first] + states, side="right")) - 1
        end = max(first + 1, min(end, len(bounds) - 1))
        yield first, end
        first = end


def counting(first: IntArray, lengths: IntArray, starts: IntArray) -> IntArray:
    """first[r], first[r] + 1, ..., first[r] + lengths[r] - 1 for every r in turn (lengths at least 1;
    starts: where each run begins), by one cumulative sum."""
    steps = np.ones(int(starts[-1] + lengths[-1]) if len(starts) else 0, dtype=np.int64)
    if len(steps):
        steps[0] = first[0]
        steps[starts[1:]] = first[1:] - first[:-1] - lengths[:-1] + 1
        np.cumsum(steps, out=steps)
    return steps


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
    """Every row of a run of stages: targets and probabilities of their entries."""

    source: IntArray  # per entry: its target
    weight: FloatArray  # per entry: its probability
    starts: IntArray  # per row: where its entries begin
    states: slice


def _run(model: Model, first: int, end: int) -> Run:
    width = model.width
    bounds = model.stages[first : end + 1]
    low, high = int(bounds[0]), int(bounds[-1])
    weight, starts, _ = weights(model, np.arange(low * width, high * width))
    offset = int(model.row_start[low * width])
    source = model.target[offset : int(model.row_start[high * width])].astype(np.intp)
    return Run(source, weight, starts, slice(low, high))


@dataclass(frozen=True)
class SignedRun:
    """Every row of a run of stages as constant + sum(weight * W[source]), W being the win probability
    of whoever moves in a state: a win adds p to the constant; the opponent's turn p * (1 - W) (p to the
    constant, -p as weight); an extra turn p * W. A row without such entries gets one of weight 0."""

    source: IntArray  # per entry: the state reached
    weight: FloatArray  # per entry: p, or -p when the opponent moves there
    constant: FloatArray  # per row
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
    return SignedRun(source, weight, constant, slice(low, high), cuts)


_SIGNED: "weakref.WeakKeyDictionary[Model, tuple[SignedRun, ...]]" = weakref.WeakKeyDictionary()
_KEPT: "weakref.WeakKeyDictionary[Model, tuple[Run, ...]]" = weakref.WeakKeyDictionary()


def small(model: Model) -> bool:
    """Whether every row of the model is spelled out once and kept."""
    return len(model.target) <= KEPT_ENTRIES


def _spelled(
    model: Model,
    make: Callable[[Model, int, int], Spelled],
    kept: "weakref.WeakKeyDictionary[Model, tuple[Spelled, ...]]",
) -> Iterator[Spelled]:
    """Every row of the model as `make` spells a run of stages, run by run (kept for small models)."""
    if model in kept:
        yield from kept[model]
        return
    per_state = len(model.target) / max(1, model.size)
    planned = (make(model, first, end) for first, end in runs(model, per_state, PLAN_ROWS * 4))
    if not small(model):
        yield from planned
        return
    kept[model] = tuple(planned)
    yield from kept[model]


def signed_rows(model: Model) -> Iterator[SignedRun]:
    """Every row of the model as a constant and signed entries, a run of stages at a time."""
    return _spelled(model, _signed_run, _SIGNED)


def all_rows(model: Model) -> Iterator[Run]:
    """Every row of the model spelled out, a run of stages at a time."""
    return _spelled(model, _run, _KEPT)


def forget() -> None:
    """Drop every kept plan (the benchmark's cold runs)."""
    _KEPT.clear()
    _SIGNED.clear()
