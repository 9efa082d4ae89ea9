"""The exact solver: optimal play, exact win rates, tournaments and the best score-only table."""

from hogengine.solver.optimal import Solution, solve
from hogengine.solver.winrate import (
    Player,
    WinMatrix,
    WinRate,
    exact_winrate,
    exact_winrates,
    winrate_matrix,
)

__all__ = [
    "Player",
    "Solution",
    "WinMatrix",
    "WinRate",
    "exact_winrate",
    "exact_winrates",
    "solve",
    "winrate_matrix",
]
