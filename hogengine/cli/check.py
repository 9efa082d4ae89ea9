"""`hog check FILE`: the contest's `ok` check: run a strategy file once in the sandbox and judge it under
the rule set's contest rules (its TEAM_NAME; whether it may answer at random).

Exit status 0: accepted; 1: rejected (or uploads cannot be checked safely here); 2: usage error.
"""

import argparse
import json
from pathlib import Path

import numpy as np

from hogengine.cli.specs import best_score_only_table, perfect_policy, progress_bar
from hogengine.errors import UnknownRules
from hogengine.game import MAX_GOAL
from hogengine.rules import DEFAULT_RULES, RuleSet, get_rules
from hogengine.sandbox import MAX_SOURCE_BYTES, SandboxUnavailable, Verdict, make_undumpable
from hogengine.sandbox.entry import check_entry
from hogengine.sandbox.verdict import accepted, rejected
from hogengine.solver import BEST_TABLE, PERFECT, Player, exact_winrates
from hogengine.strategies import (
    BadStrategy,
    Table,
    always_roll,
    load_table_json,
    table_from_function,
    unreadable,
)
from hogengine.text import shown

BASELINES = (4, 5, 6)
PICTURE_ROWS, PICTURE_COLUMNS = 20, 50  # each character stands for 5 scores by 2 opponent scores
SYMBOLS = {-1: "-", 10: "X", **{n: str(n) for n in range(10)}}


def time_limit(text: str) -> float:
    """An argparse type: seconds, more than 0 and at most 60."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and at most 60, not {shown(text)}")
    return value


def rule_set(text: str) -> RuleSet:
    """An argparse type: a rule set id or alias, so an unknown one is a usage error (exit 2)."""
    try:
        return get_rules(text)
    except UnknownRules as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "check",
        help="validate a final_strategy file and report its strength",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="a .py file defining final_strategy, or a .json table"
    )
    parser.add_argument(
        "--rules", type=rule_set, default=DEFAULT_RULES, help=f"rule set id or alias ({DEFAULT_RULES})"
    )
    parser.add_argument("--time-limit", type=time_limit, default=10.0, help="seconds for 10,000 calls (10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


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


def strengths(rules: RuleSet, table: Table) -> dict[str, dict[str, float]]:
    """Exact win rates against always_roll(4), (5), (6), the best score-only table and the full-state
    perfect player (the bot's perfect level, which no table beats on average)."""
    opponents: dict[str, Player] = {
        f"always:{n}": table_from_function(always_roll(n), rules) for n in BASELINES
    }
    opponents[BEST_TABLE] = best_score_only_table(rules, MAX_GOAL)
    opponents[PERFECT] = perfect_policy(rules, MAX_GOAL)
    with progress_bar("win rates") as report:
        found = exact_winrates(rules, [(table, opponent) for opponent in opponents.values()], progress=report)
    return {
        name: {"first": rate.first, "second": rate.second, "average": rate.average}
        for name, rate in zip(opponents, found, strict=True)
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


def judge(path: Path, rules: RuleSet, time_limit: float) -> Verdict:
    """The verdict on a strategy file: a .json table is read (never run), anything else is Python run
    once in the sandbox. OSError when the file cannot be read."""
    if path.suffix.lower() == ".json":
        with path.open("rb"):  # unreadable: the OSError below, in the same one line as for a .py file
            pass
        try:
            table = load_table_json(path, rules)
            return accepted(tuple(tuple(int(choice) for choice in row) for row in table), 0.0)
        except BadStrategy as error:
            return rejected("bad_table", str(error))
    with path.open("rb") as file:
        source = file.read(MAX_SOURCE_BYTES + 1)  # enough to tell "too large"; /dev/zero never ends
    make_undumpable()
    try:
        return check_entry(source, rules, time_limit)
    except SandboxUnavailable as error:
        return rejected("unavailable", f"This machine cannot run uploads safely ({error}).")


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    try:
        verdict = judge(args.file, rules, args.time_limit)
    except OSError as error:  # bad input, like every command's unreadable file: one line, status 1
        raise unreadable(args.file, error) from None
    rates = strengths(rules, np.array(verdict.table, dtype=np.int8)) if verdict.table is not None else {}
    if args.json:
        print(json.dumps({**verdict.to_json(), "rules": rules.id, "winrates": rates or None}))
    else:
        print("\n".join(report(verdict, rules, rates)))
    return 0 if verdict.accepted else 1
