"""A tournament played from its tables alone (no storage, no event loop): the solver's exact round robin or
sampled matches, as `hog tournament` plays them. The bot's tournaments call it in a worker thread, a
contest's final in a process of its own (see contests/final_child.py)."""

import random
from collections.abc import Mapping, Sequence

from hogengine.solver import Row, Standings, tournament_exact, tournament_sampled
from hogengine.solver.model import Progress
from hogengine.strategies import Table


def play(
    rules: str,
    seed: str | None,
    entries: Sequence[tuple[str, Table]],
    recorded: Mapping[str, Sequence[Table]],
    *,
    goal: int,
    progress: Progress | None = None,
) -> Standings:
    """The standings of these entries (by name, in name order, as `hog tournament` takes files named after
    them): exact without a seed; sampled with one (hex, as `--seed` takes it), where an entry that answers
    at random plays its `recorded` tables, so its games replay. Fewer than two entries play no match."""
    if len(entries) < 2:
        return Standings(
            "exact" if seed is None else "sampled", [Row(name, 0, 0, 0.0) for name, _ in entries], []
        )
    if seed is None:
        return tournament_exact(rules, entries, goal, progress)
    return tournament_sampled(rules, entries, random.Random(seed), goal, progress=progress, recorded=recorded)
