"""Press tokens: for a while after a person's press (or command) the adapter may answer it through a route of
its own that costs the platform's global rate limit nothing (on Discord: the interaction's webhook, for 15
minutes). The game service keeps them with the match, so whichever process shows the game next (the house
bot's move, the clock, a restart) answers the same way; each is a secret until it expires."""

from dataclasses import dataclass, field
from enum import IntEnum


class Reach(IntEnum):
    """What a game's stored press token reaches (stored by value)."""

    BOARD = 0  # the board: the token of the press the board last answered
    NOTICE = 1  # the game's live notice, posted through it


@dataclass(frozen=True, slots=True)
class PressToken:
    """A press's token (a secret: never in a repr, hence never in a log), the message it reaches (None: none
    of a game's, as a command answered privately), whether as the press's own message (the message pressed,
    or the command's answer) or as one it posted, and the time after which it is no longer used (unix time).
    Only tokens that reach a message are stored."""

    secret: str = field(repr=False)
    message_id: int | None
    original: bool
    usable_until: float

    def reaching(self, message_id: int) -> "PressToken":
        """The same token, as it reaches a message it posted."""
        return PressToken(self.secret, message_id, False, self.usable_until)


@dataclass(frozen=True, slots=True)
class PressTokens:
    """A game's press tokens still usable: the board's and the live notice's (None: none)."""

    board: PressToken | None = None
    notice: PressToken | None = None
