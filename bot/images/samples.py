"""A sample of every picture, written to docs/pictures/ to be looked at: `python -m bot.images.samples`.

The data is made up but shaped like a real game, strategy, rating history and tournament."""

import sys
from pathlib import Path

import numpy as np

from bot.images.charts import win_probability_chart
from bot.images.heatmap import strategy_heatmap
from bot.images.picture import Picture
from bot.images.ratings import rating_history_chart
from bot.images.standings import Place, Versus, results_matrix, standings_chart
from hogengine.rules import RULE_SETS
from hogengine.solver.tournament import tournament_exact
from hogengine.strategies import always_roll_table

SWINE, PORK = RULE_SETS[:2]  # a rule set with no Pork Chop, and the one with it (for the heat map's -1)
LABELS = {choice: PORK.choice_label(choice) for choice in PORK.choices}
NAMES = ("alice", "bob")


def strategy_table() -> list[list[int]]:
    """A plausible strategy: bacon near the goal or far ahead, fewer dice when ahead, Pork Chop when far
    behind late; rows are the player's score, columns the opponent's."""
    mine, theirs = np.meshgrid(np.arange(100), np.arange(100), indexing="ij")
    lead = mine - theirs
    table = np.clip(6 - lead // 15, 3, 8)
    table[(mine >= 90) | (lead >= 60)] = 0
    table[(theirs >= 85) & (lead <= -30)] = -1
    table[(mine < 10) & (theirs < 10)] = 5
    rows: list[list[int]] = table.tolist()
    return rows


def results() -> Picture:
    """A real exact tournament's results matrix: always_roll(n) for n from 1 to 8, every pairing solved."""
    entries = [(f"always_roll({n})", always_roll_table(n, SWINE)) for n in range(1, 9)]
    standings = tournament_exact(SWINE, entries)
    places = {row.name: place for place, row in enumerate(standings.rows, start=1)}
    versus = [Versus(places[m.a], places[m.b], m.a_result, m.b_result) for m in standings.matches]
    names = [row.name for row in standings.rows]
    return results_matrix(
        f"exact tournament · {SWINE.name}", names, versus, "row's exact win rate vs the column"
    )


def samples() -> dict[str, Picture]:
    """Each picture by the name of its sample file."""
    series = [0.5, 0.58, 0.47, 0.52, 0.71, 0.64, 0.36, 0.41, 0.33, 0.55, 0.49, 0.62, 0.78, 0.7, 0.92, 1.0]
    ranked = [
        ("ham-hog", 8, 0.712),
        ("bacon-bits", 7, 0.668),
        ("six-or-bust", 5, 0.611),
        ("the-longest-strategy-name-is-32", 5, 0.604),
        ("swine", 4, 0.552),
        ("always-4", 3, 0.481),
        ("greedy", 3, 0.455),
        ("porky", 1, 0.377),
        ("always-1", 0, 0.201),
    ]
    return {
        "win-probability.png": win_probability_chart(series, NAMES, seat=1, mistakes=[6, 10]),
        "strategy.png": strategy_heatmap(strategy_table(), f"ham-hog ({PORK.name})", LABELS),
        "ratings.png": rating_history_chart(
            {SWINE.name: [0, 95, 210, 155, 280, 370, 340, 445], PORK.name: [0, 0, 40, 125]},
            "alice",
        ),
        "results.png": results(),
        "standings.png": standings_chart(
            f"exact tournament · {PORK.name}",
            [Place(rank, name, wins, rate) for rank, (name, wins, rate) in enumerate(ranked, start=1)],
            "mean win rate",
        ),
    }


def main(directory: str = "docs/pictures") -> None:
    """Write every sample into `directory`."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    for name, picture in samples().items():
        (folder / name).write_bytes(picture.png)


if __name__ == "__main__":
    main(*sys.argv[1:])
