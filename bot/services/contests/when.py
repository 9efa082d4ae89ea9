"""A contest's close time as people type it: a date and time ("2026-12-01 23:59", in the server's time
zone) or a span from now ("in 3 days"), checked to lie ahead and within MAX_DAYS."""

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain.errors import ClosePassed, CloseTooFar, CloseUnreadable, UnknownTimeZone

MAX_DAYS = 90
_SPAN = re.compile(r"^in\s+(\d{1,6})\s*(minute|min|hour|h|day|d|week|w)s?$")
_UNIT = {
    "minute": 60,
    "min": 60,
    "hour": 3600,
    "h": 3600,
    "day": 86400,
    "d": 86400,
    "week": 604800,
    "w": 604800,
}
_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d")


def zone(name: str | None) -> ZoneInfo:
    """The time zone of that IANA name (UTC if none), or UnknownTimeZone."""
    try:
        return ZoneInfo((name or "UTC").strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownTimeZone(name or "") from None


def close_time(text: str, now: float, time_zone: str | None = None) -> float:
    """The Unix time `text` names (a date alone: its last minute, 23:59), or BadCloseTime saying why not."""
    typed = " ".join(text.strip().lower().split())
    span = _SPAN.match(typed)
    when = now + int(span[1]) * _UNIT[span[2]] if span is not None else _date(typed, zone(time_zone))
    if when <= now:
        raise ClosePassed
    if when - now > timedelta(days=MAX_DAYS).total_seconds():
        raise CloseTooFar(MAX_DAYS)
    return when


def _date(typed: str, where: ZoneInfo) -> float:
    for form in _FORMATS:
        try:
            found = datetime.strptime(typed.upper(), form)
        except ValueError:
            continue
        if form == "%Y-%m-%d":
            found = found.replace(hour=23, minute=59)
        return found.replace(tzinfo=where).timestamp()
    raise CloseUnreadable(typed)
