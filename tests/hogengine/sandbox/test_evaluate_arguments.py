"""evaluate_strategy as docs/sandbox.md shows it: a file's text is taken as its bytes are, and a bad
argument is the documented ValueError, never an AttributeError or TypeError from inside."""

from pathlib import Path

import pytest

from hogengine.sandbox import evaluate_strategy

ROLL_4 = "TEAM_NAME = 'Fours'\n\ndef final_strategy(score, opponent_score):\n    return 4\n"


def test_the_files_text_is_judged_as_its_bytes_are(tmp_path: Path) -> None:
    path = tmp_path / "final.py"
    path.write_text(ROLL_4)
    from_text = evaluate_strategy(path.read_text(), legal=range(0, 11), time_limit=10.0)
    from_bytes = evaluate_strategy(path.read_bytes(), legal=range(0, 11), time_limit=10.0)
    assert from_text.accepted and from_text.team_name == "Fours"
    assert (from_text.table, from_text.team_name) == (from_bytes.table, from_bytes.team_name)


def test_text_that_is_no_utf8_is_refused_as_such() -> None:
    verdict = evaluate_strategy("def final_strategy(s, o):\n    return 4  # \ud800\n", legal=range(0, 11))
    assert verdict.kind == "not_utf8"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"source": None}, "source must be the file's bytes or its text, not NoneType"),
        ({"source": ["def final_strategy(s, o): return 4"]}, "source must be the file's bytes or its text"),
        ({"legal": [0, 1, 2]}, "legal must be a non-empty range"),
        ({"time_limit": "10"}, "time_limit must be in"),
        ({"time_limit": float("nan")}, "time_limit must be in"),
        ({"random_tables": 1.5}, "random_tables must be from 0 to"),
        ({"random_tables": True}, "random_tables must be from 0 to"),
    ],
)
def test_bad_arguments_are_the_documented_value_error(arguments: dict[str, object], message: str) -> None:
    given: dict[str, object] = {"source": ROLL_4, "legal": range(0, 11)} | arguments
    with pytest.raises(ValueError, match=message):
        evaluate_strategy(**given)  # type: ignore[arg-type]
