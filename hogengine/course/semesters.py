"""Which semester's `hog.py` goes with each rule set: the course API its students wrote their files
against, which the strategy sandbox offers a file being checked under that rule set as `hog`."""

from hogengine.rules import DEFAULT_RULES, RuleSet

PACKAGE = "hogengine.course"


def course_api(rules: RuleSet) -> str:
    """The module of that course API: the course's own hog.py (Fall 2020, the default rule set's) is this
    package; every other semester's module is named as its rule set is known, by its alias
    (`hogengine.course.sp17`)."""
    return PACKAGE if rules.id == DEFAULT_RULES else f"{PACKAGE}.{rules.aliases[0]}"
