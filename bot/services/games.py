"""The game service: challenges, turns, bots, clocks and exports, one action per match at a time."""

import time
from collections.abc import Callable
from typing import Any

from bot.config import Settings
from bot.services.models import Hint, Match, Played, Player, TurnRecord

Clock = Callable[[], float]


class GameService:
    """Every game action; each call re-reads the match from the database (no game state in memory)."""

    @classmethod
    async def open(cls, settings: Settings, clock: Clock = time.time) -> "GameService":
        """Open (creating if needed) and migrate the database at `settings.database_path`."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the database; the service is unusable afterwards."""
        raise NotImplementedError

    async def challenge(  # noqa: PLR0917 - positional order is the published API
        self,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        opponent_is_bot: bool = False,
        rules: str = "swine-align",
        goal: int = 100,
    ) -> Match:
        """A pending challenge (challenger seat 0, moves first); expires after the challenge timeout.

        Raises CannotChallenge (oneself, a bot account, unknown rules or bad goal) or AlreadyPlaying
        (either player already has an open challenge or game in this channel).
        """
        raise NotImplementedError

    async def accept(self, match_id: int, user_id: int) -> Match:
        """The challenged player accepts: the game starts (seed committed, turn clock running)."""
        raise NotImplementedError

    async def decline(self, match_id: int, user_id: int) -> Match:
        """The challenged player declines."""
        raise NotImplementedError

    async def cancel(self, match_id: int, user_id: int) -> Match:
        """The challenger withdraws a pending challenge."""
        raise NotImplementedError

    async def vs_bot(
        self,
        channel_id: int,
        player: Player,
        rules: str = "swine-align",
        goal: int = 100,
        level: str = "easy",
    ) -> Match:
        """A game against the house bot, active at once; the person takes seat 0 and moves first."""
        raise NotImplementedError

    async def play(self, match_id: int, user_id: int, turn: int, choice: int) -> Played:
        """The person to move plays `choice` on turn number `turn` (from the button they pressed).

        Raises NotYourGame, NotYourTurn, StaleAction (that turn is gone, or the match is not active:
        a double or late press) or IllegalChoice.
        """
        raise NotImplementedError

    async def bot_turn(self, match_id: int) -> Played | None:
        """Play the house bot's turn if it is the bot's turn; None otherwise (nothing to do)."""
        raise NotImplementedError

    async def forfeit(self, match_id: int, user_id: int) -> Match:
        """A player gives up an active game (the other side wins) — or withdraws/declines a pending one."""
        raise NotImplementedError

    async def open_match_in_channel(self, channel_id: int, user_id: int) -> Match | None:
        """The user's pending or active match in this channel, if any (at most one exists)."""
        raise NotImplementedError

    async def expire_due(self) -> list[Match]:
        """Close what is past its clock: challenges → "expired"; games → "timeout" lost by the mover."""
        raise NotImplementedError

    async def rematch(self, match_id: int, user_id: int) -> Match | None:
        """Vote for a rematch of a closed game; once both sides voted (the bot always does) return the
        new active match (same rules and goal, seats swapped), else None."""
        raise NotImplementedError

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """The solver's advice for the asking player; only on their own turn (else NotYourTurn)."""
        raise NotImplementedError

    async def export(self, match_id: int) -> dict[str, Any]:
        """The `hog replay` input of the match so far, plus "seed" and "seed_hash" once it is over."""
        raise NotImplementedError

    async def set_message(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows this match (the board or the challenge)."""
        raise NotImplementedError

    async def get(self, match_id: int) -> Match:
        """The match as stored now; MatchNotFound if there is none."""
        raise NotImplementedError

    async def pending_and_active(self) -> list[Match]:
        """Every open challenge and game, to resume boards, bot turns and clocks after a restart."""
        raise NotImplementedError

    async def turns(self, match_id: int) -> list[TurnRecord]:
        """Every turn of the match in order."""
        raise NotImplementedError
