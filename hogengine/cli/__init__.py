"""The `hog` command line: one subcommand per module, each with `register(subparsers)`.

Every subcommand prints for humans by default and JSON with `--json`; usage errors exit 2, rejected
input exits 1 with one clear line on stderr, never a traceback.
"""

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from hogengine.errors import HogError

# Each module defines `register(subparsers)`, which adds its parser with `func=run(args) -> int`.
COMMANDS = ("play", "replay", "simulate", "solve", "winrate", "tournament", "check")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hog", description="Hog, the dice game of CS 61A.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"hogengine.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `hog` command; domain errors become one line on stderr and exit status 1."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except HogError as error:
        print(f"hog {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`hog replay | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no flush to it at exit
        return 141
    return status
