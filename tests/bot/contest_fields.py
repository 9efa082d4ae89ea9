"""Contest fields the tests enter: three swine-align tables that beat each other in a circle (each 1 win,
1 loss), so only a tie-break orders them, and the two tie-breaks disagree: ranked by the mean win rate
against the field (as `hog tournament` breaks ties in the exact format) they come 'upper 7' first, ranked by
the exact win rate against always_roll(5) (the contest tables' column) 'upper 1 lower 9' first."""

import numpy as np

from hogengine.strategies import Table


def ahead_or_behind(ahead: int, behind: int) -> Table:
    """Roll `ahead` dice when at least level with the opponent, else `behind`."""
    return np.where(np.arange(100)[:, None] >= np.arange(100)[None, :], ahead, behind).astype(np.int8)


def circle() -> dict[str, Table]:
    """The three tables of the circle, by name."""
    return {
        "ahead1-behind5": ahead_or_behind(1, 5),
        "ahead1-behind9": ahead_or_behind(1, 9),
        "ahead7-behind2": ahead_or_behind(7, 2),
    }


def nearly(table: Table) -> Table:
    """The table with one choice changed where games seldom go (60 to 28: one die more, or one fewer): for
    'ahead1-behind9', its exact win rate against always_roll(5) moves by 0.002 points, so both read 27.1%
    to one decimal, and the two tie against each other (both lose)."""
    changed = table.copy()
    changed[60, 28] += 1 if table[60, 28] < 10 else -1
    return changed
