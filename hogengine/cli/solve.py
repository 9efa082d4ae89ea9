"""`hog solve`: perfect play of a rule set; --export writes the best score-only table as final_strategy."""

import argparse
import json
from pathlib import Path

from hogengine.cli.solved import best_score_only_table, build_model, cache_dir
from hogengine.cli.specs import add_common
from hogengine.errors import HogError
from hogengine.rules import get_rules
from hogengine.solver import exact_winrates, solve
from hogengine.strategies import Table, always_roll_table
from hogengine.text import shown

BASELINE = 5
PER_LINE = 20  # choices on a line of an exported table: at most 4 characters each


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog solve` and its options."""
    parser = subparsers.add_parser(
        "solve", help="exact perfect play and the best contest table", description=__doc__
    )
    add_common(parser)
    parser.add_argument(
        "--export", metavar="FILE.py", help="write the best score-only table as final_strategy"
    )
    parser.set_defaults(func=run)


def source(table: Table, rules: str, goal: int) -> str:
    """A contest file: final_strategy(score, opponent_score) reading the table, laid out so that the
    project's linters pass it (`ruff check`, `ruff format --check`) wherever it is written."""
    rows = "".join(
        "    (\n"
        + "".join(
            f"        {', '.join(str(int(choice)) for choice in row[start : start + PER_LINE])},\n"
            for start in range(0, len(row), PER_LINE)
        )
        + "    ),\n"
        for row in table
    )
    return (
        f'"""The best score-only strategy for {rules} to {goal} found by `hog solve`."""\n\n'
        "# One row per score, one choice per opponent score; laid out by hand, not by a formatter.\n"
        f"# fmt: off\nTABLE = (\n{rows})\n# fmt: on\n\n\n"
        "def final_strategy(score, opponent_score):\n"
        '    """The number of dice to roll (or a special move) at these scores."""\n'
        "    return TABLE[score][opponent_score]\n"
    )


def run(args: argparse.Namespace) -> int:
    """Print the first mover's chance under perfect play; with --export, write and rate the best table."""
    rules = get_rules(args.rules)
    build_model(rules, args.goal)
    solution = solve(rules, args.goal, cache_dir())
    report = {"rules": rules.id, "goal": args.goal, "first_mover": solution.first_mover}
    if args.export:
        table = best_score_only_table(rules, args.goal)
        baseline = always_roll_table(BASELINE, rules)
        against = exact_winrates(rules, [(table, solution.policy), (table, baseline)], args.goal)
        try:
            Path(args.export).write_text(source(table, rules.id, args.goal), encoding="utf-8")
        except OSError as error:
            raise HogError(f"Cannot write {shown(args.export)}: {error.strerror}.") from None
        report |= {
            "export": args.export,
            "table_vs_perfect": against[0].average,
            f"table_vs_always_roll_{BASELINE}": against[1].average,
        }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{rules.id} to {args.goal}: the first mover wins {solution.first_mover:.12f} under perfect play.")
    if args.export:
        print(
            f"Wrote {args.export}: the best score-only table wins {against[0].average:.6f} against the"
            f" full-state perfect player and {against[1].average:.6f} against always_roll({BASELINE})."
        )
    return 0
