"""The solver's products every command shares, kept in the user's cache between runs and made with a
progress bar when missing: the model, the best score-only table and the perfect player."""

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from hogengine.cli.progress import Progress
from hogengine.rules import RuleSet
from hogengine.solver.cache import kept_model
from hogengine.solver.contest_table import best_table
from hogengine.solver.optimal import solve
from hogengine.solver.winrate import Player
from hogengine.strategies import Table
from hogengine.text import shown


def cache_dir() -> Path | None:
    """Where the command line keeps solver results between runs: $HOG_CACHE_DIR (set but empty: nowhere),
    else `hog` in the user's cache directory ($XDG_CACHE_HOME or ~/.cache)."""
    configured = os.environ.get("HOG_CACHE_DIR")
    if configured is not None and not configured:
        return None
    folder = (
        Path(configured)
        if configured
        else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hog"
    )
    if folder.exists() and not folder.is_dir():  # say so, and go on without keeping results
        _not_a_folder(folder)
        return None
    return folder


@cache
def _not_a_folder(folder: Path) -> None:
    """Say once per command (which asks for the cache for its model and again for its results)."""
    print(f"hog: the cache {shown(str(folder))} is not a folder: results are not kept.", file=sys.stderr)


def build_model(rules: RuleSet, goal: int) -> None:
    """Have the solver's model of these rules: read from the cache, else built (seconds for the largest,
    with a progress bar) and kept there, so the next command reads it."""
    with progress_bar("build model") as report:
        kept_model(rules, goal, cache_dir(), report)


def best_score_only_table(rules: RuleSet, goal: int) -> Table:
    """The best score-only table, from the cache or made with a progress bar (tens of seconds)."""
    with progress_bar("best table") as report:
        return best_table(rules, goal, report, cache_dir())


def perfect_policy(rules: RuleSet, goal: int) -> Player:
    """The perfect player's choice in every full state [hidden layer][score][opponent score]."""
    build_model(rules, goal)
    return solve(rules, goal, cache_dir()).policy


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A solver progress callback (done, total) drawing the shared stderr bar."""
    with Progress(1, label) as bar:

        def report(done: int, total: int) -> None:
            bar.total = max(total, 1)
            bar.advance(done - bar.done)

        yield report
