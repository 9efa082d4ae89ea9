"""`hog replay`: a recorded game as JSON on stdin, one JSON object per re-played turn on stdout."""

import argparse
import json
import sys

from hogengine.replay import BadReplay, load_record, replay
from hogengine.rules import DEFAULT_RULES

EXAMPLE = json.dumps(
    {"rules": DEFAULT_RULES, "goal": 100, "score": [0, 0], "turns": [{"choice": 3, "rolls": [2, 4, 1]}]}
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog replay` (no options: the record comes on stdin)."""
    parser = subparsers.add_parser(
        "replay",
        help="re-play a recorded game (JSON on stdin)",
        description=f'{__doc__} Input: {EXAMPLE} - or a hex "seed" instead of the rolls.',
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Re-play the record on stdin, printing each turn as soon as it is resolved."""
    if sys.stdin is None:  # started with standard input closed (`hog replay <&-`)
        raise BadReplay("There is no record to read: standard input is closed.")
    for result in replay(load_record(sys.stdin.buffer.read())):
        print(json.dumps(result.to_json()), flush=True)
    return 0
