"""`hog replay [FILE]`: a recorded game as JSON, from a file or standard input (`-`, the default),
re-played turn by turn by the engine: in words, or with --json one JSON object per turn (the replay
contract)."""

import argparse
import json
import sys
from typing import BinaryIO

from hogengine.cli.turns import final_line, seat_names, turn_lines
from hogengine.game import choice_label, turn_number
from hogengine.replay import BadReplay, load_record, read_record, replay
from hogengine.rules import DEFAULT_RULES

EXAMPLE = json.dumps(
    {"rules": DEFAULT_RULES, "goal": 100, "score": [0, 0], "turns": [{"choice": 3, "rolls": [2, 4, 1]}]}
)
NAMES = seat_names()  # the seats of a record that does not say who played
STDIN = "-"
# What `hog replay` typed alone at a terminal waits for, said before it waits.
WAITING = (
    "hog replay: reading a game record from standard input: paste it, then press Ctrl-D"
    " (or give its file: hog replay FILE.json)."
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog replay [FILE]`."""
    parser = subparsers.add_parser(
        "replay",
        help="re-play a recorded game (a JSON file, or standard input)",
        description=f'{__doc__} Input: {EXAMPLE} - or a hex "seed" instead of the rolls.',
    )
    parser.add_argument(
        "file",
        nargs="?",
        default=STDIN,
        metavar="FILE",
        help="the game record (/hog export, hog play's, the page's hog-game.json); - or none: standard input",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per turn")
    parser.set_defaults(func=run)


def _read(name: str) -> bytes:
    """The record's bytes from the file named, or from standard input (saying what it waits for when that
    is a terminal); bounded, so `hog replay /dev/zero` is one line."""
    if name != STDIN:
        with open(name, "rb") as file:
            return read_record(file)
    if sys.stdin is None:  # started with standard input closed (`hog replay <&-`)
        raise BadReplay("There is no record to read: standard input is closed.")
    stream: BinaryIO = sys.stdin.buffer
    if stream.isatty():
        print(WAITING, file=sys.stderr, flush=True)
    return read_record(stream)


def run(args: argparse.Namespace) -> int:
    """Re-play the record, printing each turn as soon as it is resolved."""
    record = load_record(_read(args.file))
    state = record.start
    names = record.players or NAMES
    if not args.json:
        dice = "the dice its seed derives" if record.seed is not None else "its recorded dice"
        print(f"Re-playing {state.ruleset.title}, first to {state.goal}, with {dice}.")
        print(f"Score: {state.scores[0]} to {state.scores[1]}, {names[state.mover]} to move.")
    for result in replay(record):
        if args.json:
            print(json.dumps(result.to_json()), flush=True)
            continue
        label = choice_label(result.before, result.choice)
        print(f"\nTurn {turn_number(result.before.turn)}: {names[result.player]} chooses {label}.")
        print("\n".join(turn_lines(result, names)), flush=True)
        state = result.after
    if not args.json:
        print(f"\n{final_line(state, names)}")
    return 0
