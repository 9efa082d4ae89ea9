"""What follows a change to a match, whoever made it: the house bot plays its turns when it is to move (each
after a short pause, a failed move tried again a few times), and a finished game is rated."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.domain.errors import RecordsUnavailable
from bot.domain.matches import Match
from bot.services.games.service import GameService
from bot.services.ratings import RatingService

log = logging.getLogger(__name__)

# The house bot tries a move up to MOVE_ATTEMPTS times in a row, waiting RETRY_SECONDS times the failures
# so far after each failure; past that it waits for `schedule` again (the bot's clock calls it for every
# game waiting for the house bot).
MOVE_ATTEMPTS = 3
RETRY_SECONDS = 2.0
Shown = Callable[[int], Awaitable[None]]  # the adapter draws the match with this id; must not raise


class FollowUp:
    """At most one run of house-bot moves per match; `shown` draws the board after each move."""

    def __init__(self, games: GameService, ratings: RatingService, move_delay: float, shown: Shown) -> None:
        self._games = games
        self._ratings = ratings
        self._move_delay = move_delay
        self._shown = shown
        self._moves: dict[int, asyncio.Task[None]] = {}  # by match id
        self._closed = False

    async def moved_on(self, match: Match) -> None:
        """After a match changed: let the house bot move if it is its turn; rate a finished game. Never
        raises: a rating that fails is logged (the game is stored either way, and the next game to end
        rates it too)."""
        if match.is_bot_turn:
            self.schedule(match.id)
        elif not match.status.is_open:
            try:
                await self._ratings.record()
            except RecordsUnavailable:
                pass  # the outage is logged once, as it begins; the next game to end rates this one too
            except Exception:
                log.exception("could not rate a finished game", extra={"match": match.id})

    def schedule(self, match_id: int) -> None:
        """Let the house bot play its turn(s) in this match after a short pause, unless it already is, or
        the bot is stopping (the clock of the next start resumes it)."""
        running = self._moves.get(match_id)
        if self._closed or (running is not None and not running.done()):
            return
        task = asyncio.create_task(self._moves_in(match_id), name=f"hog-bot-move-{match_id}")
        self._moves[match_id] = task
        task.add_done_callback(lambda done: self._forget(match_id, done))

    def _forget(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._moves.get(match_id) is task:
            del self._moves[match_id]

    async def _moves_in(self, match_id: int) -> None:
        """Play the bot's turns while it is to move, each after the pause, each shown; a failed turn is
        tried again a few times (a board that cannot be shown never stops the bot)."""
        where = {"match": match_id}
        failures = 0
        while True:
            await asyncio.sleep(RETRY_SECONDS * failures if failures else self._move_delay)
            try:
                played = await self._games.bot_turn(match_id)
            except RecordsUnavailable:
                return  # the outage is logged once, as it begins; the clock starts the bot over once it ends
            except Exception:
                failures += 1
                if failures >= MOVE_ATTEMPTS:
                    log.exception("the house bot could not move; the clock will start it over", extra=where)
                    return
                log.warning("the house bot could not move; trying again", exc_info=True, extra=where)
                continue
            failures = 0
            if played is None:
                return
            await self._shown(match_id)

    async def close(self) -> None:
        """Stop every run of moves and start no more (a move in progress is either stored whole or not at
        all; one stored but not shown is shown at the next start)."""
        self._closed = True
        moves = list(self._moves.values())
        for task in moves:
            task.cancel()
        await asyncio.gather(*moves, return_exceptions=True)
