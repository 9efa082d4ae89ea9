"""Monte-Carlo experiments played by the engine: mean turn score per number of dice, and win rates."""

import math
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from hogengine.course import winner
from hogengine.dice import fair_dice
from hogengine.game import MAX_GOAL, dice_for, new_game, resolve
from hogengine.strategies import Strategy

DICE_COUNTS = range(0, 11)


def _nothing() -> None:
    """The default progress callback."""


def average_turn_scores(
    rules: str,
    trials: int,
    rng: Random,
    *,
    goal: int = MAX_GOAL,
    scores: tuple[int, int] | None = None,
    tick: Callable[[], None] = _nothing,
) -> dict[int, float]:
    """Mean points of a turn rolling 0..10 dice, from `scores` or from a random position each trial
    (so Free Bacon, Hog Wild and Hogtimus count as often as they occur on the board)."""
    averages: dict[int, float] = {}
    for count in DICE_COUNTS:
        total = 0
        for _ in range(trials):
            mover, opponent = scores or (rng.randrange(goal), rng.randrange(goal))
            state = new_game(rules, goal, (mover, opponent))
            dice, sides = dice_for(state, count)
            roll = fair_dice(sides, rng)
            total += resolve(state, count, [roll() for _ in range(dice)]).points
            tick()
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
    a: Strategy,
    b: Strategy,
    rules: str,
    games: int,
    rng: Random,
    *,
    goal: int = MAX_GOAL,
    tick: Callable[[], None] = _nothing,
) -> MatchResult:
    """Play `games` games of A against B with fair dice, A moving first in the even-numbered ones."""
    wins = 0
    for game in range(games):
        a_seat = game % 2
        seats = (a, b) if a_seat == 0 else (b, a)
        wins += winner(*seats, rules=rules, goal=goal, rng=rng) == a_seat
        tick()
    return MatchResult(games, wins)
