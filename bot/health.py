"""The container's health check, kept apart from discord.py so `python -m bot --health` stays cheap.

While the bot is connected to Discord its clock writes a heartbeat file on every tick (at most 30 s
apart): empty while all is well, else one line saying what keeps the bot from playing (its database out of
reach). The check passes while that file is recent and empty.
"""

import time
from pathlib import Path

FRESH_SECONDS = 120.0
LONGEST = 1000  # characters of a heartbeat read: the bot writes one line


def beat(path: Path, trouble: str | None = None) -> None:
    """Record that the bot is connected and its clock ticks, now, and what is wrong if anything is: written
    beside and renamed into place, so a check never reads half of it."""
    fresh = path.with_name(f"{path.name}.new")
    fresh.write_text(trouble or "", encoding="utf-8")
    fresh.replace(path)


def ailment(path: Path) -> str | None:
    """Why the bot is not healthy, from its heartbeat at `path` (None while it was written within
    FRESH_SECONDS and says nothing is wrong): for the operator reading the container's health log."""
    try:
        age = time.time() - path.stat().st_mtime
        with path.open(encoding="utf-8", errors="replace") as file:
            trouble = file.read(LONGEST).strip()
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot has not connected to Discord since it started"
    except OSError as error:
        return f"cannot read the heartbeat at {path}: {error.strerror}"
    if age >= FRESH_SECONDS:
        return (
            f"the heartbeat at {path} is {age:.0f} s old (at most {FRESH_SECONDS:.0f} s):"
            " the bot is disconnected from Discord, or its clock is stuck"
        )
    return trouble or None
