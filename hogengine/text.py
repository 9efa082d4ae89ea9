"""What people type, read strictly, and echoed back short: error lines must stay one readable line."""

import re

# ASCII digits only (int() would also take '٣' and str.isdigit() passes '²'), an optional single '-'.
_WHOLE = re.compile(r"-?[0-9]+")
MAX_DIGITS = 18  # far beyond any score, choice or roll; keeps int() away from huge inputs
SHOWN = 60  # characters of a value an error line quotes


def whole_number(text: str) -> int | None:
    """`text` as a whole number if it is one written plainly ('-1', '7', '007'), else None."""
    if len(text) > MAX_DIGITS + 1 or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def shown(value: object, limit: int = SHOWN) -> str:
    """`value` quoted for an error line: its repr, cut to `limit` characters and saying how long it was."""
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        digits = value.bit_length() * 0.30103  # log10(2): no str() of a number Python refuses to print
        return repr(value) if digits < limit else f"a number of about {int(digits) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # a container holding a number too long to print
        return "a value too large to show"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
