"""The players every `hog` command takes, by one vocabulary: `perfect` (the full-state perfect player),
`best-table` (the best score-only table), `always:N`, `course`, a .json table or a .py file."""

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hogengine.cli.arguments import whole
from hogengine.cli.solved import best_score_only_table, perfect_policy
from hogengine.errors import BadStrategy, unreadable
from hogengine.game import MAX_GOAL
from hogengine.house import HouseLevel, course_table
from hogengine.rules import DEFAULT_RULES, RuleSet
from hogengine.sandbox import SandboxUnavailable
from hogengine.sandbox.entry import check_entry
from hogengine.solver import BEST_TABLE, PERFECT, Player
from hogengine.strategies import SPECS, Table, load_table_json, strategy_from_spec, table_from_function

# Every player a command takes, as its errors list them (`hog play --vs` takes `human` too); the help
# names them in this order, with a word on some.
PLAYERS = (PERFECT, BEST_TABLE, HouseLevel.COURSE, *SPECS, "FILE.py")
NOTES = {
    PERFECT: "the full-state perfect player",
    BEST_TABLE: "the best score-only table",
    "FILE.json": "100 rows of 100 choices",
    "FILE.py": "defines final_strategy; run in the sandbox",
}
HELP = ", ".join(f"{name} ({NOTES[name]})" if name in NOTES else name for name in PLAYERS)
# What an old name means now: "optimal" meant either player, depending on the command.
RENAMED = {"optimal": f"'optimal' is no longer a player: say {BEST_TABLE} or {PERFECT}."}


@dataclass(frozen=True)
class Entry:
    """A tournament entry: its name, its table, and a random strategy's recorded tables (its table first)."""

    name: str
    table: Table
    tables: tuple[Table, ...] = ()


def _from_python(path: Path, rules: RuleSet) -> Entry:
    """Run a final_strategy file in the sandbox (the only place user code ever runs) under the rule set's
    contest rules; named by its TEAM_NAME, else by the file."""
    try:
        source = path.read_bytes()
    except OSError as error:
        raise unreadable(path, error) from None
    try:
        verdict = check_entry(source, rules)
    except SandboxUnavailable:
        raise BadStrategy("This machine cannot sandbox .py strategies; give a .json table instead.") from None
    if not verdict.accepted or verdict.table is None:
        raise BadStrategy(f"{path.name}: {verdict.reason}")
    tables = tuple(np.array(table, dtype=np.int8) for table in verdict.tables)
    return Entry(verdict.team_name or path.stem, np.array(verdict.table, dtype=np.int8), tables)


def load(spec: str, rules: RuleSet, goal: int) -> Player:
    """The player a command-line argument names, or a one-line BadStrategy: a table by scores, or the
    perfect player's full-state policy."""
    if spec == PERFECT:
        return perfect_policy(rules, goal)
    return load_table(spec, rules, goal)


def load_table(spec: str, rules: RuleSet, goal: int, known: tuple[str, ...] = PLAYERS) -> Table:
    """A score-only player: every spec but `perfect`, which sees what a table cannot; an unknown name's
    error lists `known`, every name the caller accepts."""
    if spec in RENAMED:
        raise BadStrategy(RENAMED[spec])
    if spec == PERFECT:
        raise BadStrategy(
            f"{PERFECT} sees the hidden state a score-only strategy cannot, so it cannot play here;"
            f" {BEST_TABLE} is the best a table can do."
        )
    if spec == BEST_TABLE:
        return best_score_only_table(rules, goal)
    if spec.endswith(".py"):
        return _from_python(Path(spec), rules).table
    if spec.endswith(".json"):
        return load_table_json(spec, rules)
    if spec == HouseLevel.COURSE:
        return course_table(rules.id)
    return table_from_function(strategy_from_spec(spec, rules, known), rules)


def load_entry(spec: str, rules: RuleSet, goal: int) -> Entry:
    """A tournament entry: a .py file as its sandbox run found it (its TEAM_NAME, a random strategy's
    recorded tables), anything else as `load_table` reads it, named by the file's stem or the argument."""
    if spec.endswith(".py"):
        return _from_python(Path(spec), rules)
    name = Path(spec).stem if spec.endswith(".json") else spec
    return Entry(name, load_table(spec, rules, goal))


def add_common(parser: argparse.ArgumentParser) -> None:
    """The arguments every solver command takes: rules, goal and --json."""
    parser.add_argument("--rules", default=DEFAULT_RULES, help=f"rule set id or alias ({DEFAULT_RULES})")
    parser.add_argument("--goal", type=whole, default=MAX_GOAL, help=f"points to win ({MAX_GOAL})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
