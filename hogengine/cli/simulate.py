"""`hog simulate`: Monte-Carlo experiments with fair dice: points per number of dice, and win rates."""

import argparse
import json
import secrets
from random import Random

import numpy as np

from hogengine.cli.arguments import positive, whole
from hogengine.cli.progress import Progress
from hogengine.cli.specs import HELP, load
from hogengine.game import MAX_GOAL, new_game
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.simulate import DICE_COUNTS, average_turn_scores, best_count, play_match


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog simulate turns` and `hog simulate games`."""
    parser = subparsers.add_parser(
        "simulate", help="Monte-Carlo experiments with fair dice", description=__doc__.split(":")[0]
    )
    experiments = parser.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")
    turns = experiments.add_parser(
        "turns",
        help="average turn score for 0 to 10 dice",
        description="Average turn score per number of dice.",
    )
    turns.add_argument("--trials", type=positive, default=10_000, help="turns per number of dice (10000)")
    turns.add_argument(
        "--score",
        type=whole,
        nargs=2,
        metavar=("MINE", "THEIRS"),
        help="fixed scores (default: random each turn)",
    )
    turns.set_defaults(func=run_turns)
    games = experiments.add_parser(
        "games",
        help="win rate of strategy A against B",
        description="Win rate of A against B, seats alternating.",
    )
    games.add_argument("a", metavar="A", help=HELP)
    games.add_argument("b", metavar="B", help=HELP)
    games.add_argument("--games", type=positive, default=1000, help="games to play (1000)")
    games.set_defaults(func=run_games)
    for experiment in (turns, games):
        experiment.add_argument(
            "--rules", default=DEFAULT_RULES, help=f"rule set id or alias ({DEFAULT_RULES})"
        )
        experiment.add_argument("--goal", type=whole, default=MAX_GOAL, help=f"points to win ({MAX_GOAL})")
        experiment.add_argument("--seed", help="seed of the random dice, for a repeatable run")
        experiment.add_argument("--json", action="store_true", help="print one JSON object")


def _seed(args: argparse.Namespace) -> str:
    """The run's seed: given, or fresh and reported so the run can be repeated."""
    return str(args.seed) if args.seed is not None else secrets.token_hex(8)


def _dice(seed: str) -> np.random.Generator:
    """The run's random dice, drawn from its seed (any text) alone."""
    return np.random.default_rng(Random(seed).getrandbits(128))


def run_turns(args: argparse.Namespace) -> int:
    """Print the mean turn score per number of dice, and the best."""
    rules, seed = get_rules(args.rules), _seed(args)
    scores = (args.score[0], args.score[1]) if args.score else None
    new_game(rules.id, args.goal, scores or (0, 0))  # checks the goal and the scores before the run
    with Progress(args.trials * len(DICE_COUNTS), "simulate turns") as progress:
        averages = average_turn_scores(
            rules, args.trials, _dice(seed), goal=args.goal, scores=scores, tick=progress.advance
        )
    best = best_count(averages)
    if args.json:
        rows = [{"dice": count, "average": average} for count, average in averages.items()]
        report = {"rules": rules.id, "goal": args.goal, "trials": args.trials, "seed": seed}
        print(json.dumps({**report, "scores": args.score, "averages": rows, "best": best}))
        return 0
    where = f"from {args.score[0]}-{args.score[1]}" if args.score else "from random positions"
    print(f"Average turn score under {rules.id}, {args.trials} turns each, {where} (seed {seed}):")
    print("  dice  average")
    for count, average in averages.items():
        print(f"  {count:4d}  {average:7.2f}{'  <- best' if count == best else ''}")
    return 0


def run_games(args: argparse.Namespace) -> int:
    """Print how often A beat B, with its standard error."""
    rules, seed = get_rules(args.rules), _seed(args)
    new_game(rules.id, args.goal)  # checks the goal before the run
    a, b = (load(spec, rules, args.goal) for spec in (args.a, args.b))
    with Progress(args.games, "simulate games") as progress:
        result = play_match(a, b, rules, args.games, _dice(seed), goal=args.goal, tick=progress.advance)
    if args.json:
        report = {"rules": rules.id, "goal": args.goal, "a": args.a, "b": args.b, "games": result.games}
        extra = {"wins": result.wins, "win_rate": result.win_rate, "standard_error": result.standard_error}
        print(json.dumps({**report, **extra, "seed": seed}))
        return 0
    print(
        f"{args.a} beat {args.b} in {result.wins} of {result.games} games under {rules.id}: "
        f"{result.win_rate:.1%} ± {2 * result.standard_error:.1%} (seats alternating, seed {seed})."
    )
    return 0
