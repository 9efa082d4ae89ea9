"""Monte-Carlo experiments with fair dice, many turns or games at once through the rule set's vectorised
step: mean turn score per number of dice, and win rates."""

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from hogengine.game import MAX_GOAL
from hogengine.rules import RuleSet
from hogengine.solver.games import fair_turn, per_game, play_games
from hogengine.solver.winrate import Player

DICE_COUNTS = range(0, 11)
BATCH = 20_000  # turns or games drawn at once: memory stays small and progress moves, whatever the count
# Game g of a match: the seats' players, A (player 0) moving first in the even-numbered games.
ALTERNATING = np.array([(0, 1), (1, 0)], dtype=np.int64)


def _nothing(done: int) -> None:
    """The default progress callback."""


def _batches(total: int) -> Iterator[tuple[int, int]]:
    """(first, size) of each batch of `total` items."""
    for first in range(0, total, BATCH):
        yield first, min(BATCH, total - first)


def average_turn_scores(
    rules: RuleSet,
    trials: int,
    rng: np.random.Generator,
    *,
    goal: int = MAX_GOAL,
    scores: tuple[int, int] | None = None,
    tick: Callable[[int], None] = _nothing,
) -> dict[int, float]:
    """Mean points of a turn rolling 0..10 dice, from `scores` or from a random position each trial
    (so Free Bacon, Hog Wild and Hogtimus count as often as they occur on the board); `tick` hears each
    batch of turns played."""
    averages: dict[int, float] = {}
    for count in DICE_COUNTS:
        total = 0
        for _, size in _batches(trials):
            mover, opponent = (
                (np.full(size, scores[0]), np.full(size, scores[1]))
                if scores
                else (rng.integers(goal, size=size), rng.integers(goal, size=size))
            )
            start = rules.start_position(mover, opponent)
            position = start.with_values(per_game(value, size) for value in start.values())
            step = fair_turn(rules, position, np.full(size, count), goal, rng)
            total += int(per_game(step.points, size).sum())
            tick(size)
        averages[count] = total / trials
    return averages


def best_count(averages: dict[int, float]) -> int:
    """The number of dice with the highest average; ties go to fewer dice."""
    return max(averages, key=lambda count: (averages[count], -count))


@dataclass(frozen=True)
class MatchResult:
    """Games of A against B with alternating first mover, and how many A won."""

    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def standard_error(self) -> float:
        """The standard error of the win rate: about two of them either side hold the true rate."""
        return math.sqrt(self.win_rate * (1 - self.win_rate) / self.games)


def play_match(
    a: Player,
    b: Player,
    rules: RuleSet,
    games: int,
    rng: np.random.Generator,
    *,
    goal: int = MAX_GOAL,
    tick: Callable[[int], None] = _nothing,
) -> MatchResult:
    """Play `games` games of A against B (tables, or full-state policies such as the perfect player's)
    with fair dice, A moving first in the even-numbered ones; `tick` hears each batch of games played."""
    wins = 0
    for first, size in _batches(games):
        seats = ALTERNATING[(first + np.arange(size)) % 2]
        winner = play_games(rules, [a, b], seats, goal, rng)
        wins += int((seats[np.arange(size), winner] == 0).sum())
        tick(size)
    return MatchResult(games, wins)
