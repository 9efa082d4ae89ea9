"""`hog winrate`: A's exact win rate against B, moving first, moving second and on average."""

import argparse
import json

from hogengine.cli.solved import build_model
from hogengine.cli.specs import HELP, add_common, load
from hogengine.rules import get_rules
from hogengine.solver import exact_winrate


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog winrate A B` and its options."""
    parser = subparsers.add_parser(
        "winrate", help="exact win rate of strategy A against B", description=__doc__
    )
    add_common(parser)
    parser.add_argument("a", metavar="A", help=HELP)
    parser.add_argument("b", metavar="B", help=HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print A's exact win rate against B from the solver: moving first, second and on average."""
    rules = get_rules(args.rules)
    build_model(rules, args.goal)
    a, b = load(args.a, rules, args.goal), load(args.b, rules, args.goal)
    rate = exact_winrate(rules, a, b, args.goal)
    if args.json:
        print(json.dumps({"first": rate.first, "second": rate.second, "average": rate.average}))
        return 0
    print(f"{args.a} against {args.b} under {rules.id} to {args.goal}, exact:")
    print(f"  moving first  {rate.first:.12f}")
    print(f"  moving second {rate.second:.12f}")
    print(f"  average       {rate.average:.12f}")
    return 0
