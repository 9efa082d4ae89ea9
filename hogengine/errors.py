"""Domain errors: every message is plain, short and safe to show a player."""

# ruff: noqa: N818 - names say what happened (IllegalChoice, GameOver), as callers read them

from pathlib import Path

from hogengine.text import shown


class HogError(Exception):
    """Base of every error the engine raises on purpose; str(error) is user-facing."""


class UnknownRules(HogError):
    """A rule-set id or alias that the registry does not know."""


class IllegalChoice(HogError):
    """A choice the rules forbid in this state."""


class BadRolls(HogError):
    """Dice outcomes that do not fit the turn (wrong count or off the die)."""


class GameOver(HogError):
    """A turn was asked for after the game ended."""


class BadState(HogError):
    """A game state that cannot occur (goal or scores out of range)."""


class BadStrategy(HogError):
    """A strategy, table or strategy name that cannot be used under these rules."""


def unreadable(path: str | Path, error: OSError) -> BadStrategy:
    """The one line every command gives for a strategy file it cannot read (missing, a folder, no access)."""
    return BadStrategy(f"Cannot read the strategy file {shown(str(path))}: {error.strerror}.")
