"""The backward sweep shared by optimal play and table evaluation: sums of weighted successor values."""

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from hogengine.numeric import FloatArray, IntArray
from hogengine.solver.model import Model


@dataclass(frozen=True)
class Stage:
    """One stage of the sweep: its states, its rows, and the entries of those rows."""

    states: slice
    rows: slice
    entries: slice
    starts: IntArray  # where each row's entries begin, counted from the stage's first entry
    empty: IntArray  # rows without entries (their reduceat result must be zeroed)

    @property
    def length(self) -> int:
        """How many entries the stage's rows hold."""
        return int(self.entries.stop) - int(self.entries.start)


@lru_cache(maxsize=4)
def stages(model: Model) -> tuple[Stage, ...]:
    """The stages in sweep order: every successor of a stage lies in an earlier one."""
    return tuple(_stages(model))


def _stages(model: Model) -> Iterator[Stage]:
    width = len(model.choices)
    for begin, end in zip(model.stages[:-1], model.stages[1:], strict=True):
        rows = slice(int(begin) * width, int(end) * width)
        first, last = int(model.row_start[rows.start]), int(model.row_start[rows.stop])
        starts = model.row_start[rows] - first
        yield Stage(
            slice(int(begin), int(end)),
            rows,
            slice(first, last),
            starts,
            np.flatnonzero(starts == np.append(starts[1:], last - first)),
        )


def segment_sums(terms: FloatArray, stage: Stage) -> FloatArray:
    """Per row of the stage, the sum of its run of `terms` (which ends with one padding zero row)."""
    sums = np.add.reduceat(terms, stage.starts, axis=0)
    sums[stage.empty] = 0
    return sums
