"""`hog tournament`: a round robin of strategy files in a seed contest format (exact or sampled)."""

import argparse
import json
import secrets
from dataclasses import replace
from random import Random

from hogengine.cli.specs import HELP, Entry, add_common, build_model, load_entry, progress_bar
from hogengine.errors import HogError
from hogengine.rules import get_rules
from hogengine.solver import tournament_exact, tournament_sampled


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog tournament FILE...` and its options."""
    parser = subparsers.add_parser(
        "tournament", help="round robin of strategies, contest style", description=__doc__
    )
    add_common(parser)
    parser.add_argument(
        "--format",
        choices=("exact", "sampled"),
        default="exact",
        help="exact win rates (seeds 000/003) or 9 random games per pair (seed 001); default exact",
    )
    parser.add_argument("--seed", help="seed of the sampled format's dice (default: fresh, and reported)")
    parser.add_argument("files", nargs="+", metavar="FILE", help=HELP)
    parser.set_defaults(func=run)


def _named_apart(entries: list[Entry]) -> list[Entry]:
    """The entries with every name told apart: a name given again (two files with one TEAM_NAME, or one
    stem) gets " (2)", " (3)"... after it, so the standings say which entry is which."""
    used: set[str] = set()
    apart = []
    for entry in entries:
        name, copy = entry.name, 1
        while name in used:
            copy += 1
            name = f"{entry.name} ({copy})"
        used.add(name)
        apart.append(replace(entry, name=name))
    return apart


def run(args: argparse.Namespace) -> int:
    """Play the round robin and print the standings, best first (the sampled format reports its seed)."""
    rules = get_rules(args.rules)
    if len(args.files) < 2:
        raise HogError(f"A tournament needs at least two entries, not {len(args.files)}.")
    build_model(rules, args.goal)
    loaded = _named_apart([load_entry(spec, rules, args.goal) for spec in args.files])
    entries = [(entry.name, entry.table) for entry in loaded]
    recorded = {entry.name: entry.tables for entry in loaded if entry.tables}
    seed = str(args.seed) if args.seed is not None else secrets.token_hex(8)
    with progress_bar(f"{args.format} tournament") as report:
        if args.format == "exact":
            standings = tournament_exact(rules, entries, args.goal, report)
        else:
            standings = tournament_sampled(
                rules, entries, Random(seed), args.goal, progress=report, recorded=recorded
            )
    if args.json:
        print(
            json.dumps(
                {
                    "rules": rules.id,
                    "goal": args.goal,
                    "format": standings.format,
                    "seed": seed if args.format == "sampled" else None,
                    "standings": [vars(row) for row in standings.rows],
                    "matches": [vars(match) for match in standings.matches],
                }
            )
        )
        return 0
    figure = "mean win rate" if args.format == "exact" else "vs always_roll(5)"
    print(
        f"{standings.format} tournament under {rules.id} to {args.goal}"
        + (f" (seed {seed})" if args.format == "sampled" else "")
    )
    print(f"{'rank':>4}  {'entry':<24} {'wins':>4} {'losses':>6}  {figure}")
    for rank, row in enumerate(standings.rows, 1):
        print(f"{rank:>4}  {row.name[:24]:<24} {row.wins:>4} {row.losses:>6}  {row.tie_break:.6f}")
    return 0
