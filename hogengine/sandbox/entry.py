"""A contest entry checked under its rule set's contest rules: a strategy that answers at random is taken,
with its tables recorded, only where the contest says so (seed 001); elsewhere the refusal names the rule."""

import threading
from dataclasses import replace

from hogengine.contest_rules import GAMES
from hogengine.rules import DEFAULT_RULES, RULE_SETS, RuleSet
from hogengine.sandbox.evaluate import DEFAULT_COURSE_API, evaluate_strategy
from hogengine.sandbox.protocol import choices_text
from hogengine.sandbox.verdict import Verdict


def course_api(rules: RuleSet) -> str:
    """The module offered as `hog` to a file checked under these rules: the course API its semester's
    students wrote their files against. Fall 2020's is the course package itself; every other semester's
    is named as its rule set is known, by its alias (`hogengine.course.sp17`)."""
    api = DEFAULT_COURSE_API
    return api if rules.id == DEFAULT_RULES else f"{api}.{rules.aliases[0]}"


def check_entry(
    source: bytes, rules: RuleSet, time_limit: float = 10.0, stop: threading.Event | None = None
) -> Verdict:
    """The sandbox's verdict on a final_strategy file under these rules. Where random strategies are
    allowed, one gets a recorded table per game of a sampled match (its exact win rate is computed once,
    from the first); elsewhere it is refused as not deterministic, saying which rule sets take it. Setting
    `stop` ends the run with EvaluationStopped (see evaluate_strategy)."""
    allowed = rules.random_strategies
    tables = GAMES if allowed else 0
    verdict = evaluate_strategy(
        source, rules.choices, time_limit, random_tables=tables, course_api=course_api(rules), stop=stop
    )
    if verdict.kind == "illegal_value" and verdict.reason:  # say what -1 does where it is a move
        named = choices_text(rules.choices, rules.choice_label)
        return replace(verdict, reason=verdict.reason.replace(choices_text(rules.choices), named))
    if verdict.kind != "not_deterministic" or allowed:
        return verdict
    takers = " and ".join(each.name for each in RULE_SETS if each.random_strategies)
    rule = f"Under {rules.name} a strategy must be deterministic; only {takers} takes random strategies."
    return replace(verdict, reason=f"{verdict.reason} {rule}")
