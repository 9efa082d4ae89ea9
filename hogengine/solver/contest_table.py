"""The strongest score-only table we can make: full-state optimal play projected onto the two scores,
then improved by exact evaluations against a panel: the full-state optimal player and always_roll(5).

Each round weighs, per pair of scores, every choice's exact value in each hidden layer by how likely the
table meets that layer against each panel member, takes the best choice per cell, and keeps the new
table only if its mean exact win rate against the panel rose.

At the usual goal the tables ship with the package (`tables/`, made by `make tables`): each names the code
it came from, and one whose code has changed since is passed over, so a table is never older than its rules.
"""

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.game import MAX_GOAL
from hogengine.numeric import FloatArray, IntArray
from hogengine.rules import RuleSet, get_rules
from hogengine.solver import cache as disk
from hogengine.solver.model import Model, Progress, model
from hogengine.solver.optimal import best_columns, solve
from hogengine.solver.rows import all_rows, expand, runs
from hogengine.solver.winrate import Player, columns, exact_winrates, pair_values
from hogengine.strategies import SIZE, Table, always_roll_table, legal_cells

# Rounds of improvement; each costs one exact pair evaluation and one pass over the model.
BEST_TABLE = "best-table"  # the name players, records and commands give the best score-only table
ROUNDS = 6
PANEL_ROLLS = 5
# The best tables at MAX_GOAL, shipped with the package: one file per rule set.
SHIPPED = Path(__file__).with_name("tables")
# The work of making a table, in hundredths of an improvement round (how the progress bar counts it):
# building the model takes about a round and a half, solving it half of one, the first projection a
# quarter; each round is an evaluation against each panel member, then the strength of its candidate.
MODEL_WORK, SOLVE_WORK, PROJECT_WORK, ROUND_WORK, STRENGTH_WORK = 150, 50, 25, 100, 20


def reach(model: Model, a: IntArray, b: IntArray) -> tuple[FloatArray, FloatArray]:
    """How likely each state is to be met with A to move, and with B to move (each seat half the games)."""
    size, width = model.size, model.width
    # met[m * size + s]: the chance of meeting state s with player m (A, B) to move; the last is a sink.
    met = np.zeros(2 * size + 1)
    met[model.start] = met[size + model.start] = 0.5
    for first, end in reversed(list(runs(model, 2 * len(model.target) / max(1, model.size)))):
        low, high = int(model.stages[first]), int(model.stages[end])
        count = high - low
        states = np.arange(low, high)
        rows = np.concatenate([states * width + a[low:high], states * width + b[low:high]])
        source, weight, starts = expand(model, rows)
        lengths = np.diff(np.append(starts, len(source)))
        player = np.repeat(np.arange(len(rows)) >= count, lengths)
        # Where each outcome leads: the other player to move in a state, the same player again, or the sink.
        theirs = source < size
        again = source >= model.mine
        joint = np.full(len(source), 2 * size)
        joint[theirs] = source[theirs] + np.where(player[theirs], 0, size)
        joint[again] = model.again[source[again] - model.mine] + np.where(player[again], size, 0)
        entry = np.concatenate([[0], np.cumsum(lengths)])
        for number in reversed(range(first, end)):
            a_low, a_high = int(model.stages[number]) - low, int(model.stages[number + 1]) - low
            for mover in (0, 1):
                rows_of = slice(a_low + mover * count, a_high + mover * count)
                entries = slice(int(entry[rows_of.start]), int(entry[rows_of.stop]))
                mass = np.repeat(
                    met[mover * size + low + a_low : mover * size + low + a_high], lengths[rows_of]
                )
                mass *= weight[entries]
                met += np.bincount(joint[entries], mass, len(met))
    return met[:size].copy(), met[size : 2 * size].copy()


def choice_values(model: Model, mine: FloatArray, theirs: FloatArray) -> FloatArray:
    """[state, choice]: the mover's win probability after each choice, given both values afterwards."""
    value = np.concatenate([1.0 - theirs, [1.0, 0.0], mine[model.again]])
    result = np.empty(model.size * model.width)
    for run in all_rows(model):
        rows = slice(run.states.start * model.width, run.states.stop * model.width)
        np.add.reduceat(value[run.source] * run.weight, run.starts, out=result[rows])
    return result.reshape(model.size, model.width)


def _project(model: Model, weight: FloatArray, values: FloatArray) -> IntArray:
    """Per (score, opponent score) the choice of best weighted value over the hidden layers."""
    shape = (model.goal, model.goal, len(model.choices))
    total = np.zeros(shape)
    np.add.at(total, (model.mover, model.opponent), (weight + 1e-12)[:, None] * values)
    return best_columns(model.choices, total)


def _table(model: Model, cells: IntArray) -> Table:
    """A full 100x100 contest table; scores at or above the goal (never asked) repeat the last row/column."""
    table = model.choices[cells].astype(np.int8)
    edge = np.minimum(np.arange(SIZE), model.goal - 1)
    full: Table = table[np.ix_(edge, edge)]
    return full


def _panel(ruleset: RuleSet, goal: int) -> list[Player]:
    """The opponents a contest table is tuned against: the full-state optimal player and always_roll(5)."""
    return [solve(ruleset, goal).policy, always_roll_table(PANEL_ROLLS, ruleset)]


def _strength(ruleset: RuleSet, goal: int, table: Table) -> float:
    """The table's mean exact win rate against the panel."""
    rates = exact_winrates(ruleset, [(table, opponent) for opponent in _panel(ruleset, goal)], goal)
    return float(np.mean([rate.average for rate in rates]))


_MADE: dict[tuple[RuleSet, int], Table] = {}


def best_table(
    rules: RuleSet | str,
    goal: int = 100,
    progress: Progress | None = None,
    cache_dir: Path | str | None = None,
) -> Table:
    """The best score-only table: the shipped one, else made once per process (and stored in cache_dir,
    if given)."""
    ruleset = get_rules(rules)
    key = (ruleset, goal)
    if key not in _MADE:
        found = shipped(ruleset, goal)
        directory = None if cache_dir is None else Path(cache_dir)
        stored = (
            None if found is not None or directory is None else disk.load(directory, ruleset, goal, "table")
        )
        if found is None and stored is not None and _valid(ruleset, stored.get("table")):
            found = stored["table"]
        if found is None:
            found = _improved(ruleset, goal, progress)
            if directory is not None:
                disk.save(directory, ruleset, goal, "table", table=found)
        _MADE[key] = found
    return _MADE[key].copy()


def shipped_path(ruleset: RuleSet) -> Path:
    """Where the package keeps the best table of a rule set at MAX_GOAL."""
    return SHIPPED / f"best-table-{ruleset.id}.npz"


def shipped(ruleset: RuleSet, goal: int) -> Table | None:
    """The table shipped for these rules at this goal, if one is and the code it came from is the code now."""
    if goal != MAX_GOAL:
        return None
    try:
        with np.load(shipped_path(ruleset)) as stored:
            source, table = str(stored["source"]), stored["table"]
        current = disk.source_fingerprint(ruleset, goal)
    except (OSError, ValueError, KeyError):  # none shipped, or the kernel's source is not at hand
        return None
    return table if source == current and _valid(ruleset, table) else None


def ship(ruleset: RuleSet, table: Table) -> None:
    """Write the shipped table of a rule set at MAX_GOAL, naming the code it came from."""
    source = np.array(disk.source_fingerprint(ruleset, MAX_GOAL))
    with shipped_path(ruleset).open("wb") as file:
        np.savez_compressed(file, allow_pickle=False, table=table, source=source)


def _valid(ruleset: RuleSet, table: npt.NDArray[Any] | None) -> bool:
    """Whether a stored table is a legal contest table of these rules."""
    return (
        table is not None
        and table.shape == (SIZE, SIZE)
        and table.dtype == np.int8
        and bool(legal_cells(table, ruleset).all())
    )


class _Work:
    """Tells `progress` the work done out of all of it (see MODEL_WORK...), in the order it is done."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def add(self, amount: int) -> None:
        self.done = min(self.done + amount, self.total)
        if self.progress:
            self.progress(self.done, self.total)

    def part(self, amount: int) -> Progress:
        """A progress callback for one step worth `amount`, reporting its own (done, total) within it."""
        start = self.done

        def report(done: int, total: int) -> None:
            if self.progress:
                self.progress(start + amount * done // max(total, 1), self.total)

        return report


def _improved(ruleset: RuleSet, goal: int, progress: Progress | None) -> Table:
    """Project full-state optimal play onto the scores, then improve it against the panel."""
    work = _Work(progress, MODEL_WORK + SOLVE_WORK + PROJECT_WORK + ROUNDS * ROUND_WORK)
    work.add(0)
    built = model(ruleset, goal, work.part(MODEL_WORK))
    work.add(MODEL_WORK)
    solution = solve(ruleset, goal)
    work.add(SOLVE_WORK)
    optimal = columns(built, solution.policy)
    if ruleset.layers == 1:
        work.add(work.total)
        return _table(built, optimal[built.index[0]])
    chances, _ = reach(built, optimal, optimal)
    values = solution.choice_table[built.layer, built.mover, built.opponent]
    cells = _project(built, chances, values)
    score = _strength(ruleset, goal, _table(built, cells))
    work.add(PROJECT_WORK)
    opponents = [columns(built, opponent) for opponent in _panel(ruleset, goal)]
    for _ in range(ROUNDS):
        mine = cells[built.mover, built.opponent]
        gains = np.zeros((built.size, len(built.choices)))
        for opponent in opponents:
            chances, _ = reach(built, mine, opponent)
            gains += chances[:, None] * choice_values(built, *pair_values(built, mine, opponent))
            work.add((ROUND_WORK - STRENGTH_WORK) // len(opponents))
        candidate = _project(built, np.ones(built.size), gains)
        trial = _strength(ruleset, goal, _table(built, candidate))
        if trial <= score:
            break  # no round after this one could do better: the work is done
        cells, score = candidate, trial
        work.add(STRENGTH_WORK)
    work.add(work.total)
    return _table(built, cells)
