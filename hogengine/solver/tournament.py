"""The two contest formats of the seeds: exact round robins (000/003) and sampled nine-game matches (001)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

import numpy as np

from hogengine.course import winner
from hogengine.rules import RuleSet, get_rules
from hogengine.solver.model import Progress
from hogengine.solver.winrate import exact_winrates, winrate_matrix
from hogengine.strategies import Table, always_roll, function_from_table, table_from_function

# Seeds 000/003: a match point for an exact win rate above 50.0001%; anything else (ties too) is a loss.
THRESHOLD = 0.500001
# Seed 001: games per match, and the opponent of the tie-break.
GAMES = 9
TIE_BREAK_ROLLS = 5


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
    wins = [int(sum(rates[i, j] > THRESHOLD for j in range(count) if j != i)) for i in range(count)]
    means = [
        float(np.mean([rates[i, j] for j in range(count) if j != i])) if count > 1 else 0.0
        for i in range(count)
    ]
    matches = [
        Match(names[i], names[j], float(rates[i, j]), float(rates[j, i]))
        for i in range(count)
        for j in range(i + 1, count)
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
    """Games with fair dice from `rng` and random seats per pair; most games wins; ties broken exactly.
    `recorded` holds the recorded tables of entries that answer at random, by name: game g of each of
    their matches plays table g (so their games differ, and replay); the tie-break rates the entry's table."""
    ruleset = get_rules(rules) if isinstance(rules, str) else rules
    names = [name for name, _ in entries]
    tables = [(recorded or {}).get(name) or [table] for name, table in entries]
    players = [[function_from_table(table) for table in own] for own in tables]
    count = len(names)
    wins = [0] * count
    matches = []
    played, total = 0, count * (count - 1) // 2 * games
    for i in range(count):
        for j in range(i + 1, count):
            won = 0
            for game in range(games):
                a_first = rng.random() < 0.5
                a, b = players[i][game % len(players[i])], players[j][game % len(players[j])]
                seats = (a, b) if a_first else (b, a)
                won += winner(*seats, rules=ruleset.id, goal=goal, rng=rng) == (0 if a_first else 1)
                played += 1
                if progress:
                    progress(played, total)
            if 2 * won != games:
                wins[i if 2 * won > games else j] += 1
            matches.append(Match(names[i], names[j], float(won), float(games - won)))
    baseline = table_from_function(always_roll(TIE_BREAK_ROLLS), ruleset)
    rates = exact_winrates(ruleset, [(table, baseline) for _, table in entries], goal)
    return Standings("sampled", _ranked(names, wins, [rate.average for rate in rates]), matches)
