"""Strategy tables: built from functions, loaded from JSON, checked against the rules; named on the command
line."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hogengine.errors import BadStrategy
from hogengine.rules import RULE_SETS, get_rules
from hogengine.strategies import (
    always_roll,
    always_roll_table,
    function_from_table,
    load_table_json,
    strategy_from_spec,
    table_from_function,
    table_from_json,
)


def test_table_from_function_asks_every_pair_of_scores():
    table = table_from_function(lambda score, opponent: (score + opponent) % 11, "swine-align")
    assert table.shape == (100, 100)
    assert table.dtype == np.int8
    assert table[3, 4] == 7
    assert function_from_table(table)(99, 2) == 2


def test_function_from_table_returns_plain_ints():
    choice = function_from_table(table_from_function(always_roll(5), "pork-chop"))(10, 20)
    assert choice == 5
    assert type(choice) is int


@pytest.mark.parametrize("bad", [11, True, 2.0, "3", None])
def test_table_from_function_rejects_illegal_values_naming_the_scores(bad):
    with pytest.raises(BadStrategy, match=r"strategy\(0, 0\)"):
        table_from_function(lambda score, opponent: bad, "swine-align")


def test_minus_one_is_legal_only_where_the_rules_have_it():
    assert table_from_function(always_roll(-1), "pork-chop")[0, 0] == -1
    with pytest.raises(BadStrategy, match="0 to 10"):
        table_from_function(always_roll(-1), "piggy-back")


@given(st.sampled_from(RULE_SETS), st.integers(-3, 13))
def test_always_roll_table_is_what_asking_always_roll_gives(rules, n):
    """The table filled at once is the one asked for 10,000 times, and refuses the same choices alike."""
    try:
        asked = table_from_function(always_roll(n), rules)
    except BadStrategy:
        with pytest.raises(BadStrategy, match=f"always_roll\\({n}\\): {n} is not a legal choice"):
            always_roll_table(n, rules)
        return
    filled = always_roll_table(n, rules.id)
    assert filled.dtype == asked.dtype == np.int8
    np.testing.assert_array_equal(filled, asked)


def test_a_table_of_the_wrong_shape_is_refused():
    with pytest.raises(BadStrategy, match="100x100"):
        function_from_table(np.zeros((10, 10), dtype=np.int8))


def test_load_table_json_from_text_and_from_a_file(tmp_path):
    rows = [[(score * opponent) % 11 for opponent in range(100)] for score in range(100)]
    from_text = table_from_json(json.dumps(rows), "swine-align")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(rows))
    assert np.array_equal(load_table_json(path, "swine-align"), from_text)
    assert np.array_equal(load_table_json(str(path), get_rules("fa20")), from_text)
    assert from_text[7, 8] == 56 % 11


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2", "not valid JSON"),
        ("[[5] * 100]", "not valid JSON"),
        (json.dumps([[5] * 100] * 99), "list of 100 rows"),
        (json.dumps([[5] * 100] * 99 + [[5] * 99]), "Row 99 must be a list of 100"),
        (json.dumps([[5] * 100] * 99 + [[5] * 99 + [11]]), "row 99, column 99: 11 is not a legal choice"),
        (json.dumps([[5] * 100] * 99 + [[5] * 99 + [True]]), "row 99, column 99: True"),
        (json.dumps([[5] * 100] * 99 + [[5] * 99 + [4.0]]), "row 99, column 99: 4.0"),
        (json.dumps({"rows": []}), "list of 100 rows"),
        ('{"rows": [], "rows": []}', "^A strategy table is a list of 100 rows, one per score.$"),
    ],
)
def test_load_table_json_errors_say_what_is_wrong(text, message):
    with pytest.raises(BadStrategy, match=message):
        table_from_json(text, "swine-align")


@given(
    st.integers(0, 99),
    st.integers(0, 99),
    st.sampled_from([True, False, 4.0, -2, 11, 2**63, -(2**64), "5", None, [5]]),
    st.integers(0, 99),
)
def test_the_first_bad_cell_is_named_wherever_it_is(score, opponent, bad, ragged):
    """True is an int to Python and 1 to numpy, 2**63 overflows int64: each is still named, at its cell,
    and a ragged row after the bad cell does not hide it (the first offender in reading order wins)."""
    rows = [[5] * 100 for _ in range(100)]
    rows[score][opponent] = bad
    if ragged > score:
        rows[ragged].pop()
    with pytest.raises(BadStrategy, match=rf"^row {score}, column {opponent}: "):
        table_from_json(json.dumps(rows), "swine-align")
    with pytest.raises(BadStrategy, match=rf"^strategy\({score}, {opponent}\): "):
        table_from_function(lambda s, o: rows[s][o] if (s, o) == (score, opponent) else 5, "swine-align")


@given(st.integers(0, 98), st.integers(0, 99))
def test_a_ragged_row_before_any_bad_cell_is_named(ragged, score):
    rows = [[5] * 100 for _ in range(100)]
    rows[ragged].append(5)
    rows[max(score, ragged + 1)][0] = 11
    with pytest.raises(BadStrategy, match=rf"^Row {ragged} must be a list of 100"):
        table_from_json(json.dumps(rows), "swine-align")


def test_json_text_is_never_taken_for_a_file_path(tmp_path):
    path = tmp_path / "table.json"
    path.write_text(json.dumps([[5] * 100] * 100))
    with pytest.raises(BadStrategy, match="not valid JSON"):
        table_from_json(str(path), "swine-align")


def test_load_table_json_missing_file():
    with pytest.raises(BadStrategy, match="Cannot read the strategy file"):
        load_table_json("/nonexistent/strategy.json", "swine-align")


def test_a_table_file_larger_than_any_table_is_refused_unread():
    """/dev/zero named as a table: refused after a megabyte, not read until memory runs out."""
    refusal = r"^The strategy file '/dev/zero' is larger than any table \(1 MB\)\.$"
    with pytest.raises(BadStrategy, match=refusal):
        load_table_json("/dev/zero", "swine-align")


def test_a_table_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "notepad.json"
    path.write_text(json.dumps([[4] * 100] * 100), encoding="utf-8-sig")
    assert (load_table_json(path, "swine-align") == 4).all()


@pytest.mark.parametrize(
    ("load", "message"),
    [
        (lambda: load_table_json("/nonexistent/" + "d" * 5000 + ".json", "fa20"), "File name too long"),
        (lambda: table_from_json("[[%s]]" % ("9" * 5000), "fa20"), "a number 5000 digits long"),
        (lambda: table_from_json(json.dumps([[10**100] * 100] * 100), "fa20"), "a 101-digit number"),
        (lambda: strategy_from_spec("x" * 100_000, "fa20"), "Unknown strategy 'xxxx"),
    ],
)
def test_strategy_errors_quote_long_values_briefly(load, message):
    with pytest.raises(BadStrategy, match=message) as raised:
        load()
    assert len(str(raised.value)) < 200
    assert "sys." not in str(raised.value)


def test_strategy_from_spec():
    assert strategy_from_spec("always:3", "pork-chop")(5, 5) == 3
    assert strategy_from_spec("always:-1", "pork-chop")(5, 5) == -1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("always:11", "11 is not a legal choice"),
        ("always:-1", "-1 is not a legal choice"),
        ("always:x", "always:N needs a whole number N, such as always:4, not 'x'"),
        ("always", "always:N needs a whole number N, such as always:4, not ''"),
        ("always:--1", "not '--1'"),
        ("always:+3", "not '\\+3'"),
        ("always:\u00b2", "not '\u00b2'"),  # a superscript two: a digit to str.isdigit, not to int
        ("always:\u0663", "not '\u0663'"),  # an Arabic-Indic three: int() would take it
        ("always:" + "9" * 5000, r"not '9{60}'\.\.\. \(5000 characters\)\.$"),
        ("best", "Unknown strategy 'best'"),
        ("missing.json", "Cannot read the strategy file"),
    ],
)
def test_strategy_from_spec_errors(spec, message):
    with pytest.raises(BadStrategy, match=message):
        strategy_from_spec(spec, "swine-align")
