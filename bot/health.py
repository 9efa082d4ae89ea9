"""The container's health check, kept apart from discord.py so `python -m bot --health` stays cheap.

While the bot is connected to Discord its clock touches a heartbeat file on every tick (at most 30 s
apart); the check passes while that file is recent.
"""

import time
from pathlib import Path

FRESH_SECONDS = 120.0


def beat(path: Path) -> None:
    """Record that the bot is connected and its clock ticks, now."""
    path.touch()


def ailment(path: Path) -> str | None:
    """Why the bot is not healthy, from its heartbeat at `path` (None while it was touched within
    FRESH_SECONDS): for the operator reading the container's health log."""
    try:
        age = time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot has not connected to Discord since it started"
    except OSError as error:
        return f"cannot read the heartbeat at {path}: {error.strerror}"
    if age >= FRESH_SECONDS:
        return (
            f"the heartbeat at {path} is {age:.0f} s old (at most {FRESH_SECONDS:.0f} s):"
            " the bot is disconnected from Discord, or its clock is stuck"
        )
    return None
