"""What people type, read strictly, and echoed back short: error lines must stay one readable line."""

import json
import re
import unicodedata
from collections.abc import Collection
from itertools import islice
from typing import BinaryIO, TypeGuard

# ASCII digits only (int() would also take '٣' and str.isdigit() passes '²'), an optional single '-'.
_WHOLE = re.compile(r"-?[0-9]+")
MAX_DIGITS = 18  # far beyond any score, choice or roll; keeps int() away from huge inputs
SHOWN = 60  # characters of a value an error line quotes
SAFE_BITS = 2000  # ints this long have at most 603 digits: str() works whatever the limit (640 at least)
LOG10_2 = 0.30103
LONGEST_NUMBER = 640  # digits of a JSON number read: Python converts this many whatever its limit


# Characters that render as nothing besides every format character (category Cf: zero-width, bidi, tags):
# the whole tag block, and letters and marks that show as blanks (Hangul fillers, braille blank, CGJ).
_TAGS = range(0xE0000, 0xE0080)
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def visible(char: str) -> bool:
    """Whether a character shows as something (a space does; a zero-width or blank-looking one does not)."""
    return unicodedata.category(char) != "Cf" and char not in _BLANKS and ord(char) not in _TAGS


def readable(text: str) -> bool:
    """One line with something to read: no control character, and a visible character besides spaces (a
    name as people write it, apostrophes, accents and emoji included)."""
    return all(unicodedata.category(char) != "Cc" for char in text) and any(
        visible(char) and not char.isspace() for char in text
    )


def is_whole(value: object) -> TypeGuard[int]:
    """A whole number as JSON and Python callers give one: an int, but not True or False."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(text: str) -> int | None:
    """`text` as a whole number if it is one written plainly ('-1', '7', '007'), else None."""
    if len(text) > MAX_DIGITS + 1 or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def shown(value: object, limit: int = SHOWN) -> str:
    """`value` quoted for an error line: its repr, cut to `limit` characters and saying how long it was."""
    if isinstance(value, str):
        most = limit + 2  # `limit` characters and their quotes
        text = repr(value)
        if len(text) <= most:
            return text
        cut = value[:limit]
        while len(repr(cut)) > most:  # escapes (\x1f, \U0001089f) make a repr up to ten times longer
            cut = cut[:-1]
        return f"{cut!r}... ({len(value)} characters)"
    if is_whole(value):
        if value.bit_length() > SAFE_BITS:  # str() could exceed Python's digit limit: estimate instead
            return f"a number of about {int(value.bit_length() * LOG10_2) + 1} digits"
        text = repr(value)
        return text if len(text) <= limit else f"a {len(text.lstrip('-'))}-digit number"
    try:
        text = repr(value)
    except ValueError:  # a container holding a number too long to print
        return "a value too large to show"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def counted(number: int, noun: str, plural: str = "") -> str:
    """A count and its noun, singular for exactly one: "1 point", "2 points", "1 die", "0 dice"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def percent(fraction: float) -> str:
    """A share as players read it, with one decimal: 0.60223 is "60.2%". Every percentage shown to
    players goes through here, so they all look alike."""
    return f"{fraction:.1%}"


def listed(values: Collection[object], most: int = 3) -> str:
    """Up to `most` values as `shown` quotes them, then how many more there are."""
    items = ", ".join(shown(value) for value in islice(values, most))
    return items if len(values) <= most else f"{items} and {len(values) - most} more"


class NumberTooLong(ValueError):  # noqa: N818 - named like the engine's errors
    """A JSON number with more digits than any score, choice or roll."""


class RepeatedKey(ValueError):  # noqa: N818 - named like the engine's errors
    """A JSON object that gives one key twice: which value was meant cannot be known."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise RepeatedKey(f"gives the key {shown(key)} twice")
        seen.add(key)
    return dict(pairs)


def _json_int(digits: str) -> int:
    length = len(digits.lstrip("-"))
    if length > LONGEST_NUMBER:
        raise NumberTooLong(f"a number {length} digits long; no score, choice or roll is")
    return int(digits)


# Every ASCII digit as "0", so that one search finds a run of more digits than any number read.
_DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"0" * 9)
_TOO_MANY_DIGITS = b"0" * (LONGEST_NUMBER + 1)


def _may_hold_a_long_number(text: str) -> bool:
    """Whether `text` has a run of more digits than a number may have (in a string too): only then is each
    number checked as it is read, a Python call per number (a table's 10,000 took 1 ms, the search 13 us)."""
    return _TOO_MANY_DIGITS in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZEROS)


def read_json(text: str) -> object:
    """JSON as people save it: a leading byte order mark is fine; a number too long to be a score,
    choice or roll raises NumberTooLong (not Python's message about its digit limit), and an object
    that gives a key twice raises RepeatedKey (Python would silently keep the last)."""
    text = text.removeprefix("\ufeff")
    if _may_hold_a_long_number(text):
        return json.loads(text, parse_int=_json_int, object_pairs_hook=_unique_keys)
    return json.loads(text, object_pairs_hook=_unique_keys)


def read_at_most(source: BinaryIO, limit: int) -> bytes | None:
    """All of `source` if it holds at most `limit` bytes, else None, read no further than one byte past the
    limit (a file named /dev/zero is not read to the end of memory)."""
    data = source.read(limit + 1)
    return None if len(data) > limit else data
