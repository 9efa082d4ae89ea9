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


def healthy(path: Path) -> bool:
    """Whether the heartbeat at `path` was touched within FRESH_SECONDS."""
    try:
        return time.time() - path.stat().st_mtime < FRESH_SECONDS
    except FileNotFoundError:
        return False
