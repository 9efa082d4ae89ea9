"""Domain errors of strategies, tournaments, ratings and analysis; every message is safe to show the user."""

# ruff: noqa: N818 - names say what happened, as the game service's errors do

from bot.services.errors import ServiceError


class UploadRefused(ServiceError):
    """An upload refused before it was run: too large, the wrong file type, a bad name or rules."""


class StrategyRefused(ServiceError):
    """The strategy was checked and refused; `kind` is the sandbox's code (or "bad_table" for JSON), and
    `cpu_seconds` the sandbox's CPU time (None when it did not run)."""

    def __init__(self, reason: str, kind: str, cpu_seconds: float | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.cpu_seconds = cpu_seconds


class OnCooldown(ServiceError):
    """The user uploaded too recently; `retry_after` is in seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"You can upload again in {max(1, round(retry_after))} s.")
        self.retry_after = retry_after


class UploadsBusy(ServiceError):
    """Too many uploads are waiting to be checked, or one of the same person's still is."""


class UploadsUnavailable(ServiceError):
    """This host cannot run the sandbox safely, so Python uploads are switched off."""


class NameTaken(ServiceError):
    """Someone else on this server already has a strategy of that name."""


class TooManyStrategies(ServiceError):
    """The owner already keeps as many strategies under these rules on this server as one person may."""


class StrategyNotFound(ServiceError):
    """No active strategy of that name on this server."""


class NotYourStrategy(ServiceError):
    """Only a strategy's owner may delete it."""


class WrongRules(ServiceError):
    """A strategy used under a rule set it was not made for."""


class TournamentRefused(ServiceError):
    """A tournament that cannot run: too few strategies, an unknown format, or one already running."""


class StillPlaying(ServiceError):
    """Forget-me while the user still has an open game or challenge."""


class GameNotOver(ServiceError):
    """An analysis asked for while the game is still open: it would tell the players their live chances."""


class NothingToAnalyse(ServiceError):
    """The match has no turns to analyse."""


__all__ = [
    "GameNotOver",
    "NameTaken",
    "NotYourStrategy",
    "NothingToAnalyse",
    "OnCooldown",
    "StillPlaying",
    "StrategyNotFound",
    "StrategyRefused",
    "TooManyStrategies",
    "TournamentRefused",
    "UploadRefused",
    "UploadsBusy",
    "UploadsUnavailable",
    "WrongRules",
]
