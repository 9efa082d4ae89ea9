"""Argument types the commands share: numbers read as strictly as typed choices, bad values quoted short."""

import argparse

from hogengine.text import shown, whole_number


def whole(text: str) -> int:
    """A plain whole number (where it is used checks its range, e.g. a goal from 1 to 100)."""
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {shown(text)}")
    return number


def positive(text: str) -> int:
    """A whole number of at least 1."""
    number = whole_number(text)
    if number is None or number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {shown(text)}")
    return number
