"""The exact solver: optimal play, exact win rates, tournaments and the best score-only table."""

from hogengine.solver.contest_table import BEST_TABLE, best_table
from hogengine.solver.optimal import PERFECT, Solution, load_or_solve, solve
from hogengine.solver.tournament import Match, Row, Standings, tournament_exact, tournament_sampled
from hogengine.solver.winrate import (
    Player,
    WinMatrix,
    WinRate,
    exact_winrate,
    exact_winrates,
    winrate_matrix,
)

__all__ = [
    "BEST_TABLE",
    "PERFECT",
    "Match",
    "Player",
    "Row",
    "Solution",
    "Standings",
    "WinMatrix",
    "WinRate",
    "best_table",
    "exact_winrate",
    "exact_winrates",
    "load_or_solve",
    "solve",
    "tournament_exact",
    "tournament_sampled",
    "winrate_matrix",
]
