"""A plain memoised recursion over the live `step`, written for clarity: the yardstick of the fast solver."""

import sys
from collections.abc import Callable
from functools import cache

from hogengine.dice import outcomes
from hogengine.position import Position
from hogengine.rules import RuleSet, Step
from hogengine.solver.winrate import Player, WinRate

# A turn adds at least one point (or spends a Pork Chop), so a game is at most a few hundred turns deep.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


def _expected(
    rules: RuleSet, goal: int, position: Position, choice: int, value: Callable[[Step], float]
) -> float:
    """The probability-weighted value of every outcome of this choice's dice, one scalar step each."""
    count, sides = rules.dice(position, choice)
    dice = outcomes(rules, int(count), int(sides))
    return sum(
        float(p) * value(rules.step(position, choice, bool(pig_out), int(rolled), goal))
        for pig_out, rolled, p in zip(dice.pig_out, dice.rolled, dice.prob, strict=True)
    )


def _after(
    step: Step, goal: int, again: Callable[[Position], float], turn: Callable[[Position], float]
) -> float:
    """The mover's win probability after a turn: won, lost, moving again, or the opponent's turn."""
    position = step.position.map(int)
    if position.mover >= goal:
        return 1.0
    if position.opponent >= goal:
        return 0.0
    return again(position) if step.extra else 1.0 - turn(position.flipped())


def optimal_win(rules: RuleSet, goal: int = 100) -> Callable[[Position], float]:
    """The win probability of the player to move under mutual optimal play, for any position."""

    def after(step: Step) -> float:
        return _after(step, goal, win, win)

    @cache
    def win(position: Position) -> float:
        return max(_expected(rules, goal, position, choice, after) for choice in rules.choices)

    return win


def table_winrate(rules: RuleSet, a: Player, b: Player, goal: int = 100) -> WinRate:
    """A's exact win rate against B (tables by scores, or policies by [layer][score][opponent score])."""

    def choice(strategy: Player, position: Position) -> int:
        if strategy.ndim == 3:
            return int(strategy[int(rules.layer(position)), position.mover, position.opponent])
        return int(strategy[position.mover, position.opponent])

    @cache
    def win(position: Position, a_moves: bool) -> float:
        def after(step: Step) -> float:
            return _after(step, goal, lambda p: win(p, a_moves), lambda p: win(p, not a_moves))

        return _expected(rules, goal, position, choice(a if a_moves else b, position), after)

    start = rules.start_position(0, 0)
    return WinRate(win(start, True), 1.0 - win(start, False))
