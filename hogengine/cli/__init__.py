"""The `hog` command line: one subcommand per module, each with `register(subparsers)`; packages above the
engine add theirs through the `hog.commands` entry-point group (`hog gui`, see installed.py), so this floor
names none of them.

Every subcommand prints for humans by default and JSON with `--json`; usage errors exit 2, rejected
input exits 1 with one clear line on stderr, never a traceback.
"""

import argparse
import gc
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from hogengine.cli import loading
from hogengine.errors import HogError
from hogengine.rules import RULE_SETS
from hogengine.text import shown

# Each module defines `register(subparsers)`, which adds its parser with `func=run(args) -> int`.
COMMANDS = ("play", "rules", "replay", "simulate", "solve", "winrate", "tournament", "check")
INSTALLED = "hogengine.cli.installed"
BLAS_THREADS = "OPENBLAS_NUM_THREADS"  # the version and installed packages' commands (see that module)


class _Version(argparse.Action):
    """`hog --version`: the installed package's version, looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(importlib.import_module(INSTALLED).version_line(parser.prog))
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The `hog` parser, each command's module imported only now (numpy and the solver take a moment):
    given the built-in command about to run, only its own module (a command waits for no other's, nor for
    the installed packages' commands)."""
    known = ", ".join(f"{rules.id} ({'/'.join(rules.aliases)})" for rules in RULE_SETS)
    parser = argparse.ArgumentParser(
        prog="hog",
        description="Hog, the dice game of CS 61A.",
        epilog=f"Rule sets (--rules): {known}; `hog rules` explains each.",
    )
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in (command,) if command in COMMANDS else COMMANDS:
        importlib.import_module(f"hogengine.cli.{name}").register(subparsers)
    if command not in COMMANDS:
        importlib.import_module(INSTALLED).register_plugins(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `hog` command; Ctrl-C at any point, even while the commands load, exits 130 quietly."""
    # The engine makes no BLAS calls: OpenBLAS's threads, started with numpy, would only spin (some 50 ms
    # of CPU on every core, which `hog check`'s sandbox wants while numpy loads).
    os.environ.setdefault(BLAS_THREADS, "1")
    arguments = sys.argv[1:] if argv is None else list(argv)
    try:
        with loading.modules():  # the command's modules (numpy among them)
            parser = build_parser(arguments[0] if arguments else None)
        return _run(parser.parse_args(arguments))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def program() -> NoReturn:
    """The `hog` program (its console script, and `python -m hogengine`): one command, then exit. What its
    modules made is frozen once loaded (see loading.py), and what the command made before the interpreter's
    last garbage collections, which would walk every object numpy and the solver made for nothing (some
    20 ms of every command)."""
    loading.own_process()
    status = main()
    gc.freeze()
    sys.exit(status)


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command and flush its output here, so every failed write meets the handlers below."""
    if sys.stdout is None:  # started with standard output closed (`hog ... >&-`): nothing could be shown
        print(f"hog {args.command}: cannot write the output: standard output is closed", file=sys.stderr)
        return 1
    if isinstance(sys.stdout, io.TextIOWrapper):  # an ASCII-only terminal shows '±' as \xb1, not a crash
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        status = _command(args)
        sys.stdout.flush()  # a write that fails now is reported, not left to a warning at exit
    except BrokenPipeError:
        # The reader went away (`hog replay | head`): stop quietly, as Unix tools do.
        _discard_output()
        return 141
    except OSError as error:  # a full disk, a vanished terminal, or a file the command needed
        _discard_output()
        what = "cannot write the output" if error.filename is None else f"cannot use {shown(error.filename)}"
        print(f"hog {args.command}: {what}: {error.strerror or error}", file=sys.stderr)
        return 1
    return status


def _command(args: argparse.Namespace) -> int:
    """The command's exit status; domain errors become one line on stderr and exit status 1."""
    try:
        status: int = args.func(args)
    except HogError as error:
        print(f"hog {args.command}: {error}", file=sys.stderr)
        return 1
    return status


def _discard_output() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of unwritten output cannot fail again."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):  # not a real file (tests capture it): nothing is flushed at exit
        return
    os.dup2(os.open(os.devnull, os.O_WRONLY), descriptor)
