"""Which semester's `hog.py` goes with each rule set: the course API its students wrote their files
against, which the strategy sandbox offers a file being checked under that rule set as `hog`."""

from hogengine.rules import RuleSet

COURSE_APIS = {
    "swine-align": "hogengine.course",  # Fall 2020
    "pork-chop": "hogengine.course.sp17",  # Spring 2017
    "pig-fest": "hogengine.course.su15",  # Summer 2015
    "piggy-back": "hogengine.course.sp16",  # Spring 2016 (and Fall 2015)
}


def course_api(rules: RuleSet) -> str:
    """The module of the course API a file checked under `rules` imports as `hog`."""
    return COURSE_APIS[rules.id]
