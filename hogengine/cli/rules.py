"""`hog rules [R]`: how a rule set plays, in the very text `/hog rules` shows in Discord."""

import argparse

from hogengine.rules import RULE_SETS, RuleSet, get_rules


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog rules` (every rule set, or the one named)."""
    parser = subparsers.add_parser("rules", help="how each rule set plays", description=__doc__)
    parser.add_argument("rules", nargs="?", help="a rule set id or alias (default: every one)")
    parser.set_defaults(func=run)


def plain(ruleset: RuleSet) -> str:
    """A rule set's rule text for a terminal: the bot's text without its bold marks."""
    return ruleset.explain().replace("**", "")


def run(args: argparse.Namespace) -> int:
    """Print the rules of the rule set named, or of each in turn, each under its names and title."""
    chosen = [get_rules(args.rules)] if args.rules is not None else list(RULE_SETS)
    print("\n\n".join(f"{r.id} ({'/'.join(r.aliases)}): {r.title}\n{plain(r)}" for r in chosen))
    return 0
