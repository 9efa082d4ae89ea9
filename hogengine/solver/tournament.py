"""The two contest formats of the seeds: exact round robins (000/003) and sampled nine-game matches (001)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

import numpy as np

from hogengine.contest_rules import GAMES, THRESHOLD, TIE_BREAK_ROLLS
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.games import play_games
from hogengine.solver.model import Progress
from hogengine.solver.winrate import exact_winrates, winrate_matrix
from hogengine.strategies import Table, always_roll_table


@dataclass(frozen=True)
class Match:
    """One pairing: A's and B's result (exact average win rate, or games won)."""

    a: str
    b: str
    a_result: float
    b_result: float


@dataclass(frozen=True)
class Row:
    """One entry's line of the standings."""

    name: str
    wins: int
    losses: int
    tie_break: float  # exact: mean win rate over all matches; sampled: exact win rate vs always_roll(5)


@dataclass(frozen=True)
class Standings:
    """Entries ranked by match points, then by the tie-break figure; and every match."""

    format: str
    rows: list[Row]
    matches: list[Match]


def _ranked(names: Sequence[str], wins: list[int], tie_break: list[float]) -> list[Row]:
    losses = len(names) - 1
    rows = [Row(name, wins[n], losses - wins[n], tie_break[n]) for n, name in enumerate(names)]
    return sorted(rows, key=lambda row: (-row.wins, -row.tie_break))


def tournament_exact(
    rules: RuleSet | str,
    entries: Sequence[tuple[str, Table]],
    goal: int = 100,
    progress: Progress | None = None,
) -> Standings:
    """Every pair's exact win rate averaged over seatings; a point for a rate above 50.0001%, ties lose."""
    names = [name for name, _ in entries]
    rates = winrate_matrix(rules, [table for _, table in entries], goal, progress).average
    count = len(names)
    others = ~np.eye(count, dtype=np.bool_)  # nobody plays themselves
    wins = ((rates > THRESHOLD) & others).sum(axis=1).tolist()
    means = (np.where(others, rates, 0.0).sum(axis=1) / (count - 1)).tolist() if count > 1 else [0.0] * count
    upper_i, upper_j = np.triu_indices(count, 1)
    matches = [
        Match(names[i], names[j], a, b)
        for i, j, a, b in zip(
            upper_i.tolist(),
            upper_j.tolist(),
            rates[upper_i, upper_j].tolist(),
            rates[upper_j, upper_i].tolist(),
            strict=True,
        )
    ]
    return Standings("exact", _ranked(names, wins, means), matches)


def tournament_sampled(
    rules: RuleSet | str,
    entries: Sequence[tuple[str, Table]],
    rng: Random,
    goal: int = 100,
    *,
    games: int = GAMES,
    progress: Progress | None = None,
    recorded: Mapping[str, Sequence[Table]] | None = None,
) -> Standings:
    """Games with fair dice drawn from `rng` and random seats per pair, all played at once; most games
    wins; ties broken exactly. `recorded` holds the recorded tables of entries that answer at random, by
    name: game g of each of their matches plays table g (so their games differ, and replay); the tie-break
    rates the entry's table."""
    ruleset = get_rules(rules)
    names = [name for name, _ in entries]
    own = [list((recorded or {}).get(name) or [table]) for name, table in entries]
    sizes = np.array([len(tables) for tables in own], dtype=np.int64)
    offsets = np.cumsum(sizes) - sizes  # where each entry's tables start in the list of them all
    count = len(names)
    pairs = np.array([(i, j) for i in range(count) for j in range(i + 1, count)], dtype=np.int64)
    pairs = pairs.reshape(-1, 2)
    draws = np.random.default_rng(rng.getrandbits(128))
    a_first = draws.random((len(pairs), games)) < 0.5
    a, b = (np.repeat(pairs[:, side], games).reshape(-1, games) for side in (0, 1))
    game = np.arange(games)
    table_a, table_b = offsets[a] + game % sizes[a], offsets[b] + game % sizes[b]  # game g plays table g
    seats = np.stack(
        [np.where(a_first, table_a, table_b).ravel(), np.where(a_first, table_b, table_a).ravel()], axis=1
    )
    total = len(seats)
    every = [table for tables in own for table in tables]
    winners = play_games(
        ruleset, every, seats, goal, draws, progress=progress and (lambda ended: progress(ended, total))
    )
    a_won = (winners.reshape(-1, games) == 0) == a_first
    wins = [0] * count
    matches = []
    for (i, j), won in zip(pairs.tolist(), a_won.sum(axis=1).tolist(), strict=True):
        if 2 * won != games:
            wins[i if 2 * won > games else j] += 1
        matches.append(Match(names[i], names[j], float(won), float(games - won)))
    baseline = always_roll_table(TIE_BREAK_ROLLS, ruleset)
    rates = exact_winrates(ruleset, [(table, baseline) for _, table in entries], goal)
    return Standings("sampled", _ranked(names, wins, [rate.average for rate in rates]), matches)
