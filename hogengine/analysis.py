"""Analysis of a played game from the solver's full-state values: how player 0's chance of winning moved,
what each choice cost against the best one (win probability given away, before the dice fell), and the
coach's words for a costly choice, graded as lichess grades a move by the winning chance it gives away."""

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from hogengine.game import State, TurnResult, choice_label, turn_number
from hogengine.text import counted, percent

MISTAKE = 0.005  # a choice that gives away at least half a percentage point of win probability


class Grade(StrEnum):
    """How costly a choice was against perfect play, by the win chance it gave away (lichess's thresholds,
    in percentage points of winning chance: 5, 10 and 15); a smaller loss has no grade."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


GRADES = ((0.15, Grade.BLUNDER), (0.10, Grade.MISTAKE), (0.05, Grade.INACCURACY))  # worst first


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

    @property
    def grade(self) -> Grade | None:
        """The choice's grade by its cost; None for a loss under 5 points of winning chance."""
        return next((grade for least, grade in GRADES if self.cost >= least), None)


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


def judge(values: Values, result: TurnResult) -> Move:
    """A played turn's choice against the best one in the state it was made in (the dice play no part)."""
    choices = values.choice_values(result.before)
    best = max(choices, key=lambda choice: choices[choice])
    before = result.before
    return Move(
        before.turn, result.player, before.scores, result.choice, best, choices[result.choice], choices[best]
    )


def player_summary(player: int, moves: Sequence[Move], most: int = 3) -> PlayerSummary:
    """One seat's play among `moves`, with its `most` costliest choices."""
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
    moves = tuple(judge(values, result) for result in results)
    return Analysis(tuple(series), moves, (player_summary(0, moves, most), player_summary(1, moves, most)))


def advice(move: Move, before: State) -> str | None:
    """The coach's one line on a graded choice, each choice named by what it did then (`before`: the state
    it was made in), or None for a choice within 5 points of perfect play."""
    grade = move.grade
    if grade is None:
        return None
    played, best = choice_label(before, move.choice), choice_label(before, move.best)
    article = "an" if grade is Grade.INACCURACY else "a"
    return (
        f"Turn {turn_number(move.turn)}: {played} was {article} {grade} against perfect play "
        f"({percent(move.value)} to win); {best} had {percent(move.best_value)}."
    )


def summary(played: PlayerSummary, moves: Sequence[Move]) -> str:
    """The coach's one line on a player's whole game (`played`, among `moves`): accuracy against perfect
    play and how many choices earned each grade."""
    grades = [move.grade for move in moves if move.player == played.player]
    found = [counted(grades.count(grade), str(grade)) for _, grade in GRADES if grade in grades]
    said = ", ".join(found) if found else "no inaccuracies, mistakes or blunders"
    return f"Your game against perfect play: accuracy {percent(played.accuracy / 100)}; {said}."


def answered(results: Sequence[TurnResult], seat: int, ended: bool = False) -> int:
    """How many of the first turns the coach may speak about to `seat`: those before the other side's latest
    turn (the coach never speaks before the opponent has moved), or all of them once the game is over (or
    `ended` short of the goal: a forfeit, a timeout)."""
    if ended or (results and results[-1].after.over):
        return len(results)
    return next((index for index in range(len(results) - 1, -1, -1) if results[index].player != seat), 0)


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's line on one graded choice: the turn it was made on (the state's count) and by whom."""

    turn: int
    player: int
    text: str


def coaching(
    values: Values, results: Sequence[TurnResult], seats: Collection[int], ended: bool = False
) -> list[Advice]:
    """The coach's lines to the players in `seats` on their choices that the other side has answered (see
    `answered`), in turn order: one for each graded choice, nothing for the others."""
    said = []
    bounds = {seat: answered(results, seat, ended) for seat in seats}
    for index, result in enumerate(results):
        if index < bounds.get(result.player, 0):
            text = advice(judge(values, result), result.before)
            if text is not None:
                said.append(Advice(result.before.turn, result.player, text))
    return said
