"""The registry of rule sets: find one by id or alias; adding a rule set is adding one module here (or
registering one, as a test's toy rule set does)."""

from hogengine.errors import UnknownRules
from hogengine.rules.base import HiddenPart, RuleSet, Step, game_over
from hogengine.rules.pig_fest import PigFest
from hogengine.rules.piggy_back import PiggyBack
from hogengine.rules.pork_chop import PorkChop
from hogengine.rules.swine_align import SwineAlign
from hogengine.text import shown

RULE_SETS: tuple[RuleSet, ...] = (SwineAlign(), PorkChop(), PigFest(), PiggyBack())
DEFAULT_RULES = "swine-align"

_BY_NAME = {name: rules for rules in RULE_SETS for name in (rules.id, *rules.aliases)}


def register(rules: RuleSet) -> None:
    """Make a rule set known by its id and aliases (refused if one of them is taken)."""
    names = (rules.id, *rules.aliases)
    taken = [name for name in names if name in _BY_NAME]
    if taken:
        raise ValueError(f"The rule set name {taken[0]!r} is taken.")
    _BY_NAME.update(dict.fromkeys(names, rules))


def unregister(rules: RuleSet) -> None:
    """Forget a registered rule set (the built-in ones stay)."""
    if rules in RULE_SETS:
        raise ValueError(f"{rules.id} is built in.")
    for name in (rules.id, *rules.aliases):
        _BY_NAME.pop(name, None)


def get_rules(name: str | RuleSet) -> RuleSet:
    """The rule set with this id or alias (case-insensitive), or a clear UnknownRules error; a rule set
    given as itself is returned as it is (so the solver's entry points take either)."""
    if isinstance(name, RuleSet):
        return name
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(f"{r.id} ({'/'.join(r.aliases)})" for r in RULE_SETS)
        raise UnknownRules(f"Unknown rules {shown(name)}. Known rule sets: {known}.") from None


__all__ = [
    "DEFAULT_RULES",
    "RULE_SETS",
    "HiddenPart",
    "RuleSet",
    "Step",
    "game_over",
    "get_rules",
    "register",
    "unregister",
]
