"""The sweep of strategies against strategies: the compiled kernel (`_kernel.c`, built at install) over the
model's arrays, and the threads that sweep blocks at once.

The kernel knows no rule: it walks the targets and probabilities the rule code put in the model, the
strategies' choices, and the value matrices winrate.py lays out, and lets go of the interpreter while it
sweeps, so blocks run on as many threads as the process has cores (at most two).
"""

import queue
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from hogengine.numeric import FloatArray
from hogengine.solver.compiled import kernel
from hogengine.solver.model import Model
from hogengine.solver.pages import plain_pages
from hogengine.solver.threads import THREADS, in_order

Block = TypeVar("Block")
Result = TypeVar("Result")

# Per strategy and state: the column of its choice (the kernel reads int8 [strategy, state]).
Columns = npt.NDArray[np.int8]
# The most strategies of one side of a block (the kernel's opponents of a mover: one cache line of values).
BLOCK = kernel.MAX_OPPONENTS


def sweep(
    model: Model, left: Columns, left_matrix: FloatArray, right: Columns, right_matrix: FloatArray
) -> None:
    """Fill both sides' value matrices [target, mover, opponent] (their won and lost rows already set) for
    the left strategies [mover, state] against the right ones; a group against itself passes itself as
    both sides."""
    kernel.sweep(
        model.target,
        model.row_start,
        model.kind,
        model.kind_first,
        model.probability,
        model.again,
        left,
        left_matrix,
        right,
        right_matrix,
    )


def in_threads(
    blocks: Sequence[Block], memory: int, work: Callable[[Block, FloatArray], Result]
) -> Iterator[Result]:
    """`work(block, memory)` for every block, in order, THREADS at a time, each with `memory` doubles of
    its own (reused from block to block: fresh pages cost more than the sweep spends reading them)."""
    spare: queue.SimpleQueue[FloatArray] = queue.SimpleQueue()
    for _ in range(min(THREADS, len(blocks))):
        spare.put(plain_pages(memory, np.float64))

    def one(block: Block) -> Result:
        held = spare.get()
        try:
            return work(block, held)
        finally:
            spare.put(held)

    yield from in_order(one, blocks, "hog-sweep")
