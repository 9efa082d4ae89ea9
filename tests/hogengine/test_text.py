"""Typed numbers are read strictly, and whatever an error quotes stays short."""

from hypothesis import given
from hypothesis import strategies as st

from hogengine.text import listed, shown, whole_number


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


def test_a_long_list_of_names_says_how_many_are_left_out():
    assert listed(["a", "b"]) == "'a', 'b'"
    assert listed([f"k{n}" for n in range(20_000)]) == "'k0', 'k1', 'k2' and 19997 more"
    assert shown(10**5000) == "a number of about 5001 digits"  # more digits than Python will print
