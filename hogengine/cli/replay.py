"""`hog replay`: a recorded game as JSON on stdin, re-played turn by turn by the engine: in words, or with
--json one JSON object per turn (the replay contract)."""

import argparse
import json
import sys

from hogengine.cli.turns import final_line, seat_names, turn_lines
from hogengine.game import choice_label
from hogengine.replay import BadReplay, load_record, read_record, replay
from hogengine.rules import DEFAULT_RULES

EXAMPLE = json.dumps(
    {"rules": DEFAULT_RULES, "goal": 100, "score": [0, 0], "turns": [{"choice": 3, "rolls": [2, 4, 1]}]}
)
NAMES = seat_names()  # a record does not say who played


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog replay` (the record comes on stdin)."""
    parser = subparsers.add_parser(
        "replay",
        help="re-play a recorded game (JSON on stdin)",
        description=f'{__doc__} Input: {EXAMPLE} - or a hex "seed" instead of the rolls.',
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per turn")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Re-play the record on stdin, printing each turn as soon as it is resolved."""
    if sys.stdin is None:  # started with standard input closed (`hog replay <&-`)
        raise BadReplay("There is no record to read: standard input is closed.")
    record = load_record(read_record(sys.stdin.buffer))  # bounded: `hog replay </dev/zero` is one line
    state = record.start
    if not args.json:
        dice = "the dice its seed derives" if record.seed is not None else "its recorded dice"
        print(f"Re-playing {state.ruleset.title}, first to {state.goal}, with {dice}.")
        print(f"Score: {state.scores[0]} to {state.scores[1]}, {NAMES[state.mover]} to move.")
    for result in replay(record):
        if args.json:
            print(json.dumps(result.to_json()), flush=True)
            continue
        label = choice_label(result.before, result.choice)
        print(f"\nTurn {result.before.turn}: {NAMES[result.player]} chooses {label}.")
        print("\n".join(turn_lines(result, NAMES)), flush=True)
        state = result.after
    if not args.json:
        print(f"\n{final_line(state, NAMES)}")
    return 0
