"""Types of the compiled sweep (_kernel.c), which takes numpy arrays through the buffer protocol."""

from typing import Any

from numpy.typing import NDArray

MAX_OPPONENTS: int  # the most strategies a side of a block may hold
WIDE: bool  # whether this processor sweeps with AVX2 (the same bits as without)

def sweep(
    target: NDArray[Any],
    row_start: NDArray[Any],
    kind: NDArray[Any],
    kind_first: NDArray[Any],
    probability: NDArray[Any],
    again: NDArray[Any],
    left_columns: NDArray[Any],
    left_matrix: NDArray[Any],
    right_columns: NDArray[Any],
    right_matrix: NDArray[Any],
    wide: bool = ...,
    /,
) -> None:
    """Fill the value matrices of both sides of a block in place (see _kernel.c)."""

def lay(
    codes: NDArray[Any],
    place: NDArray[Any],
    row_start: NDArray[Any],
    rows: NDArray[Any],
    target: NDArray[Any],
    /,
) -> None:
    """Write codes[place[r][k]] to target[row_start[rows[r]] + k] for every row r and outcome k."""
