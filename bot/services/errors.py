"""Domain errors of the game service; every message is safe to show the user who caused it."""

# ruff: noqa: N818 - names say what happened, as the engine's errors do (IllegalChoice, GameOver)

from hogengine.errors import HogError, IllegalChoice


class ServiceError(HogError):
    """Base of the service's own errors."""


class MatchNotFound(ServiceError):
    """No such match (an old button, or a mistyped id)."""


class NotYourGame(ServiceError):
    """The user pressed or asked about a match they are not playing in."""


class NotYourTurn(ServiceError):
    """A player acted while it is the other side's turn."""


class StaleAction(ServiceError):
    """A stale or double press: the turn it was meant for is already played or the match moved on."""


class ChallengeClosed(ServiceError):
    """The challenge was already accepted, declined, cancelled or expired."""


class AlreadyPlaying(ServiceError):
    """A player already has an open challenge or game in this channel."""


class CannotChallenge(ServiceError):
    """A challenge that cannot be made: oneself, a bot account, or bad rules or goal."""


class MatchOver(StaleAction):
    """The match is no longer being played: a late press or request."""


class NotStarted(ServiceError):
    """The match is still a challenge: there is no game to act on yet."""


class RematchUnavailable(ServiceError):
    """A rematch vote on a match that is still open or already rematched."""


__all__ = [
    "AlreadyPlaying",
    "CannotChallenge",
    "ChallengeClosed",
    "HogError",
    "IllegalChoice",
    "MatchNotFound",
    "MatchOver",
    "NotStarted",
    "NotYourGame",
    "NotYourTurn",
    "RematchUnavailable",
    "ServiceError",
    "StaleAction",
]
