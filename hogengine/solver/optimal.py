"""Optimal play over the full state (live games show every hidden part): win chances and best choices."""

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.errors import BadState, GameOver
from hogengine.game import State
from hogengine.numeric import FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver import cache as disk
from hogengine.solver.model import Model, Progress, check_goal, model
from hogengine.solver.rows import signed_rows
from hogengine.strategies import legal_cells

Int8Array = npt.NDArray[np.int8]

PERFECT = "perfect"  # the name players, records and commands give the full-state perfect player (`policy`)


def optimal_values(model: Model) -> tuple[FloatArray, FloatArray]:
    """Per state the mover's win probability under mutual optimal play, and per (state, choice) row."""
    size, width = model.size, model.width
    win = np.empty(size, dtype=np.float64)
    rows = np.empty(size * width, dtype=np.float64)
    terms = np.empty(0, dtype=np.float64)
    for run in signed_rows(model):
        if len(terms) <= len(run.source):
            terms = np.empty(len(run.source) + 1, dtype=np.float64)
        base = run.states.start * width
        for first, end, low, high, starts in run.stages:
            part = terms[: high - low]
            np.take(win, run.source[low:high], out=part, mode="clip")
            np.multiply(part, run.weight[low:high], out=part)
            # A zero after the stage's last entry: its row sums as it always has (rounding included).
            terms[high - low] = 0.0
            sums = rows[first * width : end * width]
            np.add.reduceat(terms[: high - low + 1], starts, out=sums)
            sums += run.constant[first * width - base : end * width - base]
            np.max(sums.reshape(-1, width), axis=1, out=win[first:end])
    return win, rows.reshape(size, width)


def best_columns(choices: IntArray, choice_values: FloatArray) -> IntArray:
    """The column of the best choice; exact ties go to fewer dice, and to a special move (-1) last."""
    preference = np.argsort(np.where(choices < 0, choices.max() + 1 - choices, choices), kind="stable")
    best: IntArray = preference[np.argmax(choice_values[..., preference], axis=-1)]
    return best


@dataclass(frozen=True, eq=False)
class Solution:
    """Optimal play of one rule set at one goal; arrays are indexed [layer][mover score][opponent score]."""

    rules: RuleSet
    goal: int
    values: FloatArray  # (layers, goal, goal): the mover's win probability
    choice_table: FloatArray  # (layers, goal, goal, choices): the mover's win probability per choice
    policy: Int8Array  # (layers, goal, goal): the optimal choice

    def __post_init__(self) -> None:
        """Solutions are shared by every caller in the process, so nobody may write into them."""
        for array in (self.values, self.choice_table, self.policy):
            array.flags.writeable = False

    @property
    def first_mover(self) -> float:
        """The first mover's win probability when both players play optimally."""
        return float(self.values[int(self.rules.layer(State(self.rules.id).position())), 0, 0])

    def _cell(self, state: State) -> tuple[int, int, int]:
        if state.rules != self.rules.id or state.goal != self.goal:
            raise BadState(
                f"This solution is for {self.rules.id} to {self.goal}, not {state.rules} to {state.goal}."
            )
        if state.over:
            raise GameOver("The game is over: no more turns.")
        position = state.position()
        return int(self.rules.layer(position)), int(position.mover), int(position.opponent)

    def win_probability(self, state: State) -> float:
        """The win probability of the player to move (1 or 0 once the game is over)."""
        if state.over and state.rules == self.rules.id:
            return float(state.winner == state.mover)
        return float(self.values[self._cell(state)])

    def choice_values(self, state: State) -> dict[int, float]:
        """The mover's win probability after each legal choice, when both play optimally afterwards."""
        row = self.choice_table[self._cell(state)]
        return {choice: float(value) for choice, value in zip(self.rules.choices, row, strict=True)}

    def best_choice(self, state: State) -> int:
        """The optimal choice of the player to move."""
        return int(self.policy[self._cell(state)])


def _solution(rules: RuleSet, goal: int, progress: Progress | None) -> Solution:
    built = model(rules, goal, progress)
    win, rows = optimal_values(built)
    table = rows[built.index]
    policy = built.choices[best_columns(built.choices, table)].astype(np.int8)
    return Solution(rules, goal, win[built.index], table, policy)


def _valid(rules: RuleSet, goal: int, stored: dict[str, npt.NDArray[Any]]) -> bool:
    """Whether stored arrays are a solution of these rules at this goal (else it is solved again)."""
    cells = (rules.layers, goal, goal)
    shapes = {"values": cells, "choice_table": (*cells, len(rules.choices)), "policy": cells}
    if any(name not in stored or stored[name].shape != shape for name, shape in shapes.items()):
        return False
    policy = stored["policy"]
    return policy.dtype == np.int8 and bool(legal_cells(policy, rules).all())


def solve(rules: RuleSet | str, goal: int = 100, cache_dir: Path | str | None = None) -> Solution:
    """Optimal play for these rules and goal, solved once per process (and stored in cache_dir, if given)."""
    ruleset = get_rules(rules)
    return _solve(ruleset, goal, None if cache_dir is None else Path(cache_dir))


@cache
def _solve(rules: RuleSet, goal: int, directory: Path | None) -> Solution:
    return load_or_solve(rules, goal, directory)


def load_or_solve(rules: RuleSet | str, goal: int = 100, cache_dir: Path | str | None = None) -> Solution:
    """Optimal play for these rules and goal, read from cache_dir if stored there, else solved now (and
    stored there, if given); kept nowhere in this process, for long-running callers that keep a few."""
    ruleset = get_rules(rules)
    check_goal(goal)
    if cache_dir is None:
        return _solution(ruleset, goal, None)
    directory = Path(cache_dir)
    stored = disk.load(directory, ruleset, goal, "solution")
    if stored is not None and _valid(ruleset, goal, stored):
        return Solution(ruleset, goal, stored["values"], stored["choice_table"], stored["policy"])
    found = _solution(ruleset, goal, None)
    disk.save(
        directory,
        ruleset,
        goal,
        "solution",
        values=found.values,
        choice_table=found.choice_table,
        policy=found.policy,
    )
    return found
