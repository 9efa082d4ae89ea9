"""What `hog check` says of a file: its verdict, a picture of its table and its exact win rates. The
solver and numpy load with this module, while the sandbox runs the file (see check.py)."""

import json
from pathlib import Path

import numpy as np

from hogengine.cli.solved import best_score_only_table, perfect_policy, progress_bar
from hogengine.errors import BadStrategy
from hogengine.game import MAX_GOAL
from hogengine.rules import RuleSet
from hogengine.sandbox import Verdict
from hogengine.sandbox.verdict import accepted, rejected
from hogengine.solver import BEST_TABLE, PERFECT, Player, exact_winrates
from hogengine.strategies import Table, always_roll_table, load_table_json

BASELINES = (4, 5, 6)
PICTURE_ROWS, PICTURE_COLUMNS = 20, 50  # each character stands for 5 scores by 2 opponent scores
SYMBOLS = {-1: "-", 10: "X", **{n: str(n) for n in range(10)}}


def read_table(path: Path, rules: RuleSet) -> Verdict:
    """The verdict on a .json table, read (never run); OSError when the file cannot be read."""
    with path.open("rb"):  # unreadable: the OSError of a .py file, in the same one line
        pass
    try:
        table = load_table_json(path, rules)
        return accepted(tuple(tuple(int(choice) for choice in row) for row in table), 0.0)
    except BadStrategy as error:
        return rejected("bad_table", str(error))


def answer(verdict: Verdict, rules: RuleSet, against: dict[str, Player], as_json: bool) -> int:
    """Print the verdict with the table's strengths against these players (one JSON object, or for
    people); the exit status."""
    table = verdict.table
    rates = strengths(rules, np.array(table, dtype=np.int8), against) if table is not None else {}
    if as_json:
        print(json.dumps({**verdict.to_json(), "rules": rules.id, "winrates": rates or None}))
    else:
        print("\n".join(report(verdict, rules, rates)))
    return 0 if verdict.accepted else 1


def picture(table: Table) -> list[str]:
    """The table in 20 lines of 50 characters, each the most common choice of its 5x2 block (the smallest
    of those tied)."""
    choices = np.array(sorted(SYMBOLS))
    blocks = (
        table.reshape(PICTURE_ROWS, 5, PICTURE_COLUMNS, 2)
        .transpose(0, 2, 1, 3)
        .reshape(PICTURE_ROWS, PICTURE_COLUMNS, 10)
    )
    counts = (blocks[..., None] == choices).sum(axis=2)  # per block, how often each choice appears
    common = choices[counts.argmax(axis=2)]  # the first of the most frequent: the smallest choice
    lines = []
    for row in reversed(range(PICTURE_ROWS)):
        lines.append(f"{5 * row:>3} |{''.join(SYMBOLS[int(choice)] for choice in common[row])}")
    lines.append("    +" + "-" * PICTURE_COLUMNS)
    lines.append("     0" + " " * 19 + "opponent score" + " " * 10 + "99")
    return lines


def opponents(rules: RuleSet) -> dict[str, Player]:
    """The players a table's strength is measured against: always_roll(4), (5), (6), the best score-only
    table and the full-state perfect player (the bot's perfect level, which no table beats on average).
    Read from the cache (made on the first check), while the file runs."""
    found: dict[str, Player] = {f"always:{n}": always_roll_table(n, rules) for n in BASELINES}
    found[BEST_TABLE] = best_score_only_table(rules, MAX_GOAL)
    found[PERFECT] = perfect_policy(rules, MAX_GOAL)
    return found


def strengths(rules: RuleSet, table: Table, against: dict[str, Player]) -> dict[str, dict[str, float]]:
    """The table's exact win rates against each of these players: first, second and on average."""
    with progress_bar("win rates") as report:
        found = exact_winrates(rules, [(table, opponent) for opponent in against.values()], progress=report)
    return {
        name: {"first": rate.first, "second": rate.second, "average": rate.average}
        for name, rate in zip(against, found, strict=True)
    }


def report(verdict: Verdict, rules: RuleSet, rates: dict[str, dict[str, float]]) -> list[str]:
    """The human-readable answer: verdict, picture and strengths."""
    if not verdict.accepted or verdict.table is None:
        return [f"Rejected ({verdict.kind}): {verdict.reason}"]
    table = np.array(verdict.table, dtype=np.int8)
    labels = ", ".join(
        f"{symbol} {rules.choice_label(c)}" for c, symbol in sorted(SYMBOLS.items()) if c in rules.choices
    )
    lines = [f"Accepted under {rules.id} ({verdict.cpu_seconds:.2f} s of CPU)."]
    if verdict.team_name is not None:
        lines.append(f"Team: {verdict.team_name}")
    lines += [_randomness(verdict), "", "your score"]
    lines += picture(table)
    lines += [f"     ({labels})", "", "Exact win rate (first / second / average):"]
    for name, rate in rates.items():
        lines.append(f"  vs {name:<10} {rate['first']:7.2%} / {rate['second']:7.2%} / {rate['average']:7.2%}")
    return lines


def _randomness(verdict: Verdict) -> str:
    """Whether the strategy is deterministic, or answers at random (and what was recorded of it)."""
    if not verdict.tables:
        return "Deterministic: the same choice for the same scores, every time."
    return (
        f"Random: {len(verdict.tables)} tables recorded, one per game of a sampled match; the exact win"
        " rates and the picture are the first's."
    )
