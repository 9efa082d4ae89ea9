"""Analysis of a played game from the solver's full-state values: how player 0's chance of winning moved,
and what each choice cost against the best one (win probability given away, before the dice fell)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from hogengine.game import State, TurnResult

MISTAKE = 0.005  # a choice that gives away at least half a percentage point of win probability


class Values(Protocol):
    """What the analysis reads of a solver Solution: win probabilities of the player to move."""

    def win_probability(self, state: State) -> float: ...

    def choice_values(self, state: State) -> dict[int, float]: ...


@dataclass(frozen=True, slots=True)
class Move:
    """One choice: its value and the best choice's value, for the player who made it."""

    turn: int
    player: int
    scores: tuple[int, int]  # by seat, before the turn
    choice: int
    best: int
    value: float
    best_value: float

    @property
    def cost(self) -> float:
        """Win probability given away by this choice (0 for an optimal one)."""
        return max(0.0, self.best_value - self.value)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat's play: accuracy is 100 minus the mean cost per choice in percentage points."""

    player: int
    moves: int
    expected_loss: float  # the sum of the costs of the seat's choices
    accuracy: float
    mistakes: tuple[Move, ...]  # the costliest choices of at least MISTAKE, worst first


@dataclass(frozen=True, slots=True)
class Analysis:
    """P(player 0 wins) before each turn and at the end, every move, and a summary per seat."""

    series: tuple[float, ...]
    moves: tuple[Move, ...]
    players: tuple[PlayerSummary, PlayerSummary]


def player0_chance(values: Values, state: State, winner: int | None = None) -> float:
    """Player 0's chance of winning from this state: certain once the game is over or decided."""
    decided = state.winner if state.over else winner
    if decided is not None:
        return 1.0 if decided == 0 else 0.0
    chance = values.win_probability(state)
    return chance if state.mover == 0 else 1.0 - chance


def _move(values: Values, result: TurnResult) -> Move:
    choices = values.choice_values(result.before)
    best = max(choices, key=lambda choice: choices[choice])
    before = result.before
    return Move(
        before.turn, result.player, before.scores, result.choice, best, choices[result.choice], choices[best]
    )


def _summary(player: int, moves: Sequence[Move], most: int) -> PlayerSummary:
    mine = [move for move in moves if move.player == player]
    loss = sum(move.cost for move in mine)
    worst = sorted((move for move in mine if move.cost >= MISTAKE), key=lambda move: -move.cost)
    accuracy = 100.0 * (1.0 - loss / len(mine)) if mine else 100.0
    return PlayerSummary(player, len(mine), loss, accuracy, tuple(worst[:most]))


def analyse(
    start: State, results: Sequence[TurnResult], values: Values, winner: int | None = None, most: int = 3
) -> Analysis:
    """Analyse a game played from `start`; `winner` decides a game that ended early (forfeit, timeout)."""
    end = results[-1].after if results else start
    series = [player0_chance(values, result.before) for result in results]
    series.append(player0_chance(values, end, winner))
    moves = tuple(_move(values, result) for result in results)
    return Analysis(tuple(series), moves, (_summary(0, moves, most), _summary(1, moves, most)))
