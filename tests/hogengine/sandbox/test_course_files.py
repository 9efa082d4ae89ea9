"""A student's own hog.py, as the course hands it out, accepted unchanged under its semester's rule set:
the sandbox offers our stand-ins of the course's dice, ucb and hog, and the table it takes equals the one
the file gives natively beside the course's own modules (tests/course.py)."""

import importlib
from pathlib import Path

import pytest

from hogengine.cli import main
from hogengine.rules import RULE_SETS, RuleSet, get_rules
from hogengine.sandbox.entry import check_entry, course_api
from tests.course import COURSE_FILES, CourseFile, native_table


@pytest.mark.parametrize("course_file", COURSE_FILES, ids=[each.name for each in COURSE_FILES])
def test_a_course_file_is_accepted_unchanged_with_its_native_table(
    course_file: CourseFile, tmp_path: Path
) -> None:
    verdict = check_entry(course_file.source, get_rules(course_file.rules))

    assert verdict.accepted, verdict.reason
    assert verdict.team_name == course_file.team_name
    assert verdict.tables == ()  # deterministic, as natively
    assert verdict.table == native_table(tmp_path, course_file.source, course_file.hog)


@pytest.mark.parametrize("course_file", COURSE_FILES[:4], ids=[each.name for each in COURSE_FILES[:4]])
def test_hog_check_takes_a_course_file_as_it_is(
    course_file: CourseFile, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(Path("tests/course_files") / course_file.name)
    assert main(["check", "--rules", course_file.rules, path]) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.startswith(f"Accepted under {course_file.rules}")


def test_dice_rolled_at_import_are_the_random_modules_as_the_courses_are(tmp_path: Path) -> None:
    """The course's fair dice draw from `random`: a file that seeds it and rolls at import gets the same
    rolls in the sandbox as natively, so its table is deterministic and the same."""
    source = (
        b"import random\nfrom dice import six_sided, four_sided\nrandom.seed(2015)\n"
        b"ROLLS = [six_sided() + four_sided() for _ in range(10000)]\n"
        b"def final_strategy(score, opponent_score):\n    return ROLLS[100 * score + opponent_score]\n"
    )
    verdict = check_entry(source, get_rules("swine-align"))
    assert verdict.accepted and verdict.table == native_table(tmp_path, source)


def test_dice_rolled_inside_final_strategy_are_random_as_natively() -> None:
    """Refused where the contest wants one answer per pair of scores, recorded where it takes chance."""
    source = (
        b"from dice import six_sided\n\ndef final_strategy(score, opponent_score):\n    return six_sided()\n"
    )
    refused = check_entry(source, get_rules("pork-chop"))
    assert refused.kind == "not_deterministic"
    assert (refused.reason or "").endswith("only Ham Hijinks + Pig Fest takes random strategies.")
    recorded = check_entry(source, get_rules("pig-fest"))
    assert recorded.accepted and len(recorded.tables) == 9
    assert {value for table in recorded.tables for row in table for value in row} == set(range(1, 7))


def test_test_dice_and_select_dice_compare_as_the_courses_do() -> None:
    source = (
        b"from dice import four_sided, six_sided, make_test_dice\n"
        b"def select_dice(score, opponent_score):\n"
        b"    return four_sided if (score + opponent_score) % 7 == 0 else six_sided\n"
        b"cycle = make_test_dice(3, 1, 4)\n"
        b"FIRST = [cycle() for _ in range(4)]\n"
        b"def final_strategy(score, opponent_score):\n"
        b"    if FIRST != [3, 1, 4, 3]:\n        return 10\n"
        b"    return 2 if select_dice(score, opponent_score) is four_sided else 5\n"
    )
    verdict = check_entry(source, get_rules("pork-chop"))
    assert verdict.accepted and verdict.table is not None
    assert verdict.table[0][0] == 2 and verdict.table[3][4] == 2 and verdict.table[1][0] == 5


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (
            b"def final_strategy(score, opponent_score):\n    return 11\n",
            "final_strategy returned 11 at (0, 0): it must return 0 to 10 (or -1 for Pork Chop).",
        ),
        (
            b"def roll_dice(n):\n    return n\ndef Final_strategy(score, opponent_score):\n    return 4\n",
            "The file defines no final_strategy, but it defines Final_strategy: name it final_strategy "
            "(Python tells capitals apart).",
        ),
        (
            b"from dice import six_sided\n\n\ndef final_strategy(score, opponent_score):\n"
            b"    return int(input('How many dice? '))\n",
            "final_strategy reads from the keyboard at line 5 for (score 0, opponent 0): strategies "
            "cannot use input(), so take the question out.",
        ),
    ],
    ids=["illegal", "misspelt", "keyboard"],
)
def test_refusals_a_student_can_fix_say_how(source: bytes, reason: str) -> None:
    assert check_entry(source, get_rules("pork-chop")).reason == reason


@pytest.mark.parametrize("rules", RULE_SETS, ids=[rules.id for rules in RULE_SETS])
def test_each_rule_set_offers_its_own_semesters_course_api_as_hog(rules: RuleSet) -> None:
    api = importlib.import_module(course_api(rules))
    assert api.free_bacon(42) == int(rules.free_bacon(42))  # the engine's rule, through the course's name
    given: dict[str, object] = {}
    exec(f"from {api.__name__} import *", given)  # what a contest file's `from hog import *` gets
    assert {"roll_dice", "take_turn", "play", "bacon_strategy", "final_strategy", "GOAL_SCORE"} <= set(given)
    assert {"six_sided", "four_sided", "make_test_dice", "main", "trace", "interact"} <= set(given)
    ours = {name for name in given if name[0].isupper()} - {"GOAL_SCORE", "FIRST_101_DIGITS_OF_PI"}
    assert ours <= {"Commentary", "Strategy"}  # the course's names, not our helpers (Classic, pieces)
