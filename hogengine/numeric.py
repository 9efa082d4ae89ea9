"""Types for rule arithmetic that runs on one int (live play) or a numpy array of states (the solver)."""

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

IntArray: TypeAlias = npt.NDArray[np.int64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
FloatArray: TypeAlias = npt.NDArray[np.float64]

# A score, count or choice: a Python int in a live game, an int array when the solver sweeps states.
Num: TypeAlias = int | np.integer | IntArray
# A rule condition: a bool in a live game, a bool array in the solver (numpy's stubs type some
# comparisons as integers, hence Num).
Flag: TypeAlias = bool | np.bool_ | BoolArray | Num
