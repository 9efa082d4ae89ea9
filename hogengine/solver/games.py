"""Many live games at once, for the sampled contest format and `hog simulate`: each round is one call of
the rule set's own vectorised `step` over every game still going, and each roll is drawn from the exact
distribution of its dice (`dice.outcomes`: Pig Out or not, and the points), which is what rolling them one
by one gives."""

from __future__ import annotations  # numpy.random loads with the first game played, not with the solver

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.dice import outcomes
from hogengine.errors import BadStrategy
from hogengine.numeric import BoolArray, Flag, IntArray
from hogengine.position import Position
from hogengine.rules import RuleSet
from hogengine.rules.base import Step, game_over
from hogengine.solver.winrate import Player
from hogengine.strategies import SIZE, legal_cells


def per_game(value: Flag, count: int) -> npt.NDArray[Any]:
    """A rule's result (scalar or array) as one value per game."""
    return np.broadcast_to(np.asarray(value), (count,))


def roll(
    rules: RuleSet, count: IntArray, sides: IntArray, rng: np.random.Generator
) -> tuple[BoolArray, IntArray]:
    """Pig Out and the points of each game's dice, drawn from their exact distribution."""
    draw = rng.random(len(count))
    pig_out = np.zeros(len(count), dtype=np.bool_)
    rolled = np.zeros(len(count), dtype=np.int64)
    # The games grouped by their dice in one stable radix sort of small codes, then each group drawn from
    # its distribution: a pass over every game per kind of dice would cost far more.
    kind = (count * 8 + sides).astype(np.int16)
    order = np.argsort(kind, kind="stable")
    sizes = np.bincount(kind, minlength=1)
    ends = np.cumsum(sizes)
    for code in np.flatnonzero(sizes).tolist():
        chosen = order[ends[code] - sizes[code] : ends[code]]
        dice = outcomes(rules, code // 8, code % 8)
        found = np.searchsorted(np.cumsum(dice.prob), draw[chosen], side="right")
        found = np.minimum(found, len(dice.prob) - 1)  # a draw above the rounded total
        pig_out[chosen], rolled[chosen] = dice.pig_out[found], dice.rolled[found]
    return pig_out, rolled


def fair_turn(
    rules: RuleSet, position: Position, choice: IntArray, goal: int, rng: np.random.Generator
) -> Step:
    """One turn of every game at once with fair dice: the rule set's dice for the choices, a roll of them,
    and the rule set's step."""
    count = len(choice)
    dice, sides = rules.dice(position, choice)
    pig_out, rolled = roll(rules, per_game(dice, count), per_game(sides, count), rng)
    return rules.step(position, choice, pig_out, rolled, goal)


def _stacked(rules: RuleSet, players: Sequence[Player], goal: int) -> tuple[npt.NDArray[Any], bool]:
    """The players as one array [player][layer][score][opponent score], and whether any of them tells the
    hidden layers apart (else the array has one layer and the games need not work out theirs)."""
    layers = (rules.layers, goal, goal)
    for player in players:
        if np.shape(player) not in ((SIZE, SIZE), layers) or not legal_cells(player, rules).all():
            raise BadStrategy(
                f"Every entry must be a {SIZE}x{SIZE} table of legal choices under {rules.id}, or a"
                f" full-state policy ({'x'.join(map(str, layers))})."
            )
    if all(np.ndim(player) == 2 for player in players):
        return np.stack(players)[:, np.newaxis], False
    full = [np.broadcast_to(p[:goal, :goal], layers) if np.ndim(p) == 2 else p for p in players]
    return np.stack(full), True


def play_games(
    rules: RuleSet,
    players: Sequence[Player],
    seats: IntArray,
    goal: int,
    rng: np.random.Generator,
    *,
    progress: Callable[[int], None] | None = None,
) -> IntArray:
    """Per game, the seat that won (0 or 1, as the course's `winner`: the higher final score); `seats`
    [game] holds the players (numbers into `players`: 100x100 tables, or full-state policies such as the
    perfect player's) of seat 0, who moves first, and seat 1; `progress` hears how many games have ended."""
    stacked, layered = _stacked(rules, players, goal)
    games = len(seats)
    if not games:
        return np.zeros(0, dtype=np.int64)
    winner = np.zeros(games, dtype=np.int64)
    live = np.arange(games)
    who = np.zeros(games, dtype=np.int64)
    start = rules.start_position(0, 0)
    position = start.with_values(np.full(games, value, dtype=np.int64) for value in start.values())
    while len(live):
        count = len(live)
        layer = rules.layer(position) if layered else 0
        choice = stacked[seats[live, who], layer, position.mover, position.opponent].astype(np.int64)
        step = fair_turn(rules, position, choice, goal, rng)
        after = step.position.with_values(per_game(value, count) for value in step.position.values())
        extra = per_game(step.extra, count).astype(np.bool_)
        over = per_game(game_over(after, goal), count).astype(np.bool_)
        first = np.where(who == 0, after.mover, after.opponent)
        second = np.where(who == 0, after.opponent, after.mover)
        winner[live[over]] = np.where(first > second, 0, 1)[over]
        flipped = after.flipped().values()
        following = after.with_values(
            np.where(extra, mine, theirs) for mine, theirs in zip(after.values(), flipped, strict=True)
        )
        going = ~over
        live, who = live[going], np.where(extra, who, 1 - who)[going]
        position = following.with_values(np.asarray(value)[going] for value in following.values())
        if progress:
            progress(games - len(live))
    return winner
