"""Domain errors: every message is plain, short and safe to show a player."""

# ruff: noqa: N818 - names say what happened (IllegalChoice, GameOver), as callers read them


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
