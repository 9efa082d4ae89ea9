"""Typed numbers are read strictly, and whatever an error quotes stays short."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hogengine.text import (
    NumberTooLong,
    RepeatedKey,
    counted,
    is_whole,
    listed,
    read_json,
    shown,
    whole_number,
)


@given(st.integers(-(10**17), 10**18))
def test_a_plainly_written_whole_number_reads_as_itself(number):
    assert whole_number(str(number)) == number


@given(st.text())
def test_only_ascii_digits_with_one_optional_minus_are_whole_numbers(text):
    number = whole_number(text)
    if number is not None:
        assert text.lstrip("-0") == str(abs(number)).lstrip("0") and text.count("-") <= 1
        assert all(c in "-0123456789" for c in text)


@given(st.one_of(st.text(), st.integers(), st.lists(st.integers()), st.binary()))
def test_a_quoted_value_is_never_long(value):
    assert len(shown(value)) <= 100


def test_a_short_text_of_escapes_is_cut_by_its_quoted_length():
    """Found by Hypothesis: 25 characters whose repr is over 100 (each escape is up to ten characters)."""
    text = "0" * 13 + "\x1f" * 3 + "\U0001089f" * 9

    quoted = shown(text)

    assert len(quoted) <= 100 and quoted.endswith("... (25 characters)")
    assert quoted.startswith("'0000000000000\\x1f")


def test_a_long_list_of_names_says_how_many_are_left_out():
    assert listed(["a", "b"]) == "'a', 'b'"
    assert listed([f"k{n}" for n in range(20_000)]) == "'k0', 'k1', 'k2' and 19997 more"
    assert shown(10**5000) == "a number of about 5001 digits"  # more digits than Python will print


def test_a_whole_number_is_an_int_and_never_a_bool():
    assert [is_whole(value) for value in (0, -1, 10**30)] == [True] * 3
    assert [is_whole(value) for value in (True, False, 3.0, "3", None)] == [False] * 5


@given(st.recursive(st.none() | st.integers() | st.text(), lambda inner: st.dictionaries(st.text(), inner)))
def test_json_without_repeated_keys_reads_as_json_does(value):
    assert read_json(json.dumps(value)) == value


@pytest.mark.parametrize(
    ("text", "key"),
    [('{"a": 1, "a": 1}', "a"), ('[{"b": 1, "a": 2, "b": 3}]', "b"), ('{"x": {"a": 1, "a": 2}}', "a")],
)
def test_an_object_that_gives_a_key_twice_is_refused(text, key):
    with pytest.raises(RepeatedKey, match=f"gives the key '{key}' twice"):
        read_json(text)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (counted(1, "point"), "1 point"),
        (counted(0, "point"), "0 points"),
        (counted(2, "Pig Out"), "2 Pig Outs"),
        (counted(1, "six-sided die", "six-sided dice"), "1 six-sided die"),
        (counted(10, "six-sided die", "six-sided dice"), "10 six-sided dice"),
    ],
)
def test_a_count_agrees_with_its_noun(words, expected):
    assert words == expected


@pytest.mark.parametrize("digits", [1, 640])
def test_a_number_as_long_as_a_number_may_be_is_read(digits):
    number = int("7" * digits)
    assert read_json(f'{{"a": [1, -{number}], "b": "{number}"}}') == {"a": [1, -number], "b": str(number)}


@pytest.mark.parametrize("digits", [641, 5000])
def test_a_longer_number_is_refused_wherever_it_stands(digits):
    number = "7" * digits
    for text in (f"[{number}]", f'{{"a": [1, -{number}]}}', f"\ufeff[[1, 2], [{number}]]"):
        with pytest.raises(NumberTooLong, match=f"a number {digits} digits long"):
            read_json(text)
    assert read_json(f'["{number}"]') == [number]  # digits in a string are no number
