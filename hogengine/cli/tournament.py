"""`hog tournament`: a round robin of strategy files in a seed contest format (exact or sampled); a record
of it (`--record`) plays again the same (`--replay`), random entries included."""

import argparse
import json
import secrets
from dataclasses import replace
from random import Random

from hogengine.cli.solved import build_model, progress_bar
from hogengine.cli.specs import HELP, Entry, add_common, load_entry
from hogengine.cli.tournament_record import (
    FORMATS,
    Record,
    difference,
    read_record,
    results,
    write_record,
)
from hogengine.errors import HogError
from hogengine.game import MAX_GOAL
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.solver import Standings, tournament_exact, tournament_sampled
from hogengine.text import shown


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog tournament FILE...` and its options."""
    parser = subparsers.add_parser(
        "tournament", help="round robin of strategies, contest style", description=__doc__
    )
    add_common(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="exact win rates (seeds 000/003) or 9 random games per pair (seed 001); default exact",
    )
    parser.add_argument("--seed", help="seed of the sampled format's dice (default: fresh, and reported)")
    parser.add_argument(
        "--record",
        metavar="FILE.json",
        help="also write the tournament's record: every entry's tables as played, a random entry's too,"
        " with the seed and results (what --replay takes)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE.json",
        help="play a recorded tournament again (its rules, goal, format, seed and tables) and check that"
        " the results are the recorded ones",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help=HELP)
    # No defaults for the rules and goal here, so that --replay can tell them given (its record says both).
    parser.set_defaults(func=run, rules=None, goal=None)


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


def _entries(args: argparse.Namespace) -> Record:
    """The tournament the command line asks for (results still empty): its files loaded, its seed drawn."""
    if len(args.files) < 2:
        raise HogError(f"A tournament needs at least two entries, not {len(args.files)}.")
    rules = get_rules(args.rules or DEFAULT_RULES)
    goal = MAX_GOAL if args.goal is None else args.goal
    form = args.format or "exact"
    build_model(rules, goal)
    loaded = _named_apart([load_entry(spec, rules, goal) for spec in args.files])
    seed = None if form == "exact" else str(args.seed) if args.seed is not None else secrets.token_hex(8)
    return Record(rules, goal, form, seed, loaded, {})


def _recorded(args: argparse.Namespace) -> Record:
    """The tournament a record holds; the record says everything, so nothing else may be given."""
    asked = ("files", "rules", "goal", "format", "seed", "record")
    given = [name for name in asked if getattr(args, name) not in (None, [])]
    if given:
        what = "strategy files" if given[0] == "files" else f"--{given[0]}"
        raise HogError(f"--replay plays the record as it is: it takes no {what}.")
    record = read_record(args.replay)
    build_model(record.rules, record.goal)
    return record


def _play(record: Record) -> Standings:
    """The tournament played."""
    entries = [(entry.name, entry.table) for entry in record.entries]
    with progress_bar(f"{record.format} tournament") as report:
        if record.seed is None:
            standings = tournament_exact(record.rules, entries, record.goal, report)
        else:
            recorded = {entry.name: entry.tables for entry in record.entries if entry.tables}
            draws = Random(record.seed)
            standings = tournament_sampled(
                record.rules, entries, draws, record.goal, progress=report, recorded=recorded
            )
    return standings


def run(args: argparse.Namespace) -> int:
    """Play the round robin and print the standings, best first (the sampled format reports its seed);
    with --replay, also say whether they are the recorded ones (exit status 1 if not)."""
    asked = _recorded(args) if args.replay is not None else _entries(args)
    standings = _play(asked)
    played = replace(asked, results=results(standings))
    if args.record:
        write_record(args.record, played)
    at_random = [entry.name for entry in played.entries if entry.tables]
    found = difference(played.results, asked.results) if args.replay is not None else None
    if args.json:
        report = {
            "rules": played.rules.id,
            "goal": played.goal,
            "format": played.format,
            "seed": played.seed,
            "random_entries": at_random,
            "record": args.record,
            "replay": args.replay,
            **played.results,
        }
        print(json.dumps(report))
    else:
        _print(played, standings, args, at_random, found)
    if found:
        raise HogError(f"The replay differs from the record {shown(args.replay)}: {found}.")
    return 0


def _print(
    played: Record, standings: Standings, args: argparse.Namespace, at_random: list[str], found: str | None
) -> None:
    """The standings for people, and what replays them (or whether the replay is the record)."""
    exact = played.format == "exact"
    figure = "mean win rate" if exact else "vs always_roll(5)"
    print(
        f"{played.format} tournament under {played.rules.id} to {played.goal}"
        + ("" if exact else f" (seed {played.seed})")
    )
    print(f"{'rank':>4}  {'entry':<24} {'wins':>4} {'losses':>6}  {figure}")
    for rank, row in enumerate(standings.rows, 1):
        print(f"{rank:>4}  {row.name[:24]:<24} {row.wins:>4} {row.losses:>6}  {row.tie_break:.6f}")
    if args.replay is not None:
        if not found:
            print(f"Replayed {args.replay}: every result is the recorded one.")
    elif args.record:
        print(f"Recorded in {args.record}: `hog tournament --replay {args.record}` plays it again.")
    elif at_random:
        names = ", ".join(at_random)
        again = "" if exact else f"--seed {played.seed} does not replay this tournament: "
        print(
            f"Note: {again}{names} answered at random, with tables drawn for this run only;"
            " --record FILE keeps them for --replay FILE."
        )
