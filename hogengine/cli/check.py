"""`hog check FILE`: the contest's `ok` check: run a strategy file once in the sandbox and judge it under
the rule set's contest rules (its TEAM_NAME; whether it may answer at random).

Exit status 0: accepted; 1: rejected (or uploads cannot be checked safely here); 2: usage error.
"""

import argparse
import importlib
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from hogengine.cli import loading
from hogengine.errors import UnknownRules, unreadable
from hogengine.rules import DEFAULT_RULES, RuleSet, get_rules
from hogengine.sandbox import MAX_SOURCE_BYTES, SandboxUnavailable, Verdict, make_undumpable
from hogengine.sandbox.entry import check_entry
from hogengine.sandbox.verdict import rejected
from hogengine.text import shown

if TYPE_CHECKING:
    from hogengine.solver import Player

# The report (numpy, the solver, the picture, the win rates), imported once the file runs (see run).
REPORT = "hogengine.cli.check_report"


def time_limit(text: str) -> float:
    """An argparse type: seconds, more than 0 and at most 60."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and at most 60, not {shown(text)}")
    return value


def rule_set(text: str) -> RuleSet:
    """An argparse type: a rule set id or alias, so an unknown one is a usage error (exit 2)."""
    try:
        return get_rules(text)
    except UnknownRules as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "check",
        help="validate a final_strategy file and report its strength",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="a .py file defining final_strategy, or a .json table"
    )
    parser.add_argument(
        "--rules", type=rule_set, default=DEFAULT_RULES, help=f"rule set id or alias ({DEFAULT_RULES})"
    )
    parser.add_argument("--time-limit", type=time_limit, default=10.0, help="seconds for 10,000 calls (10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def sandboxed(path: Path, rules: RuleSet, time_limit: float, stop: threading.Event) -> Verdict:
    """The verdict on a Python file, run once in the sandbox (`stop` ends the run early); OSError when the
    file cannot be read."""
    with path.open("rb") as file:
        source = file.read(MAX_SOURCE_BYTES + 1)  # enough to tell "too large"; /dev/zero never ends
    make_undumpable()
    try:
        return check_entry(source, rules, time_limit, stop)
    except SandboxUnavailable as error:
        return rejected("unavailable", f"This machine cannot run uploads safely ({error}).")


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    path: Path = args.file
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=1) as pool:
        # A .py file runs in the sandbox from now on, while numpy, the solver and the players the report
        # measures the file against load (a .json table is read once they have): the two take about as
        # long, so a check takes one of them.
        running = (
            None
            if path.suffix.lower() == ".json"
            else pool.submit(sandboxed, path, rules, args.time_limit, stop)
        )
        try:
            with loading.modules():
                report = importlib.import_module(REPORT)
            against: dict[str, Player] = report.opponents(rules)
            verdict: Verdict = running.result() if running else report.read_table(path, rules)
        except OSError as error:  # bad input, like every command's unreadable file: one line, status 1
            raise unreadable(path, error) from None
        finally:
            stop.set()  # Ctrl-C while the file runs: the sandbox stops it, and the pool's thread ends
    status: int = report.answer(verdict, rules, against, args.json)
    return status
