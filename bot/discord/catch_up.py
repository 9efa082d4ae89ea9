"""What was stored but never shown, shown by the bot itself. A crash (kill -9, an OOM kill, a host reboot)
can land between storing a change and showing it: a turn, an accepted challenge, a house-bot move, a game
the clock closed, a rematch, a tournament's standings. Every message remembers what it shows, so the start
redraws exactly what lags. While the bot runs, Discord may take neither a board's edit nor its repost
(a house move has no next press to try again): the clock redraws such boards (`Lagging`). (A game that
ended unrated is rated by the next reading of the ratings, which rates everything pending first.)"""

import logging
from collections.abc import Iterable

import discord

from bot.discord.commands.records import announce
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.parts import Parts
from bot.services.games.follow_up import Shown

log = logging.getLogger(__name__)


async def catch_up(client: discord.Client, parts: Parts, started: float, redraw: Shown) -> None:
    """Redraw every match whose message lags, post the first message of the open matches created before
    `started` that have none (`redraw` logs its own failures), announce the standings never shown. Never
    raises: what fails is logged, and tried again at the next start."""
    try:
        for match_id in await parts.services.games.unshown(started):
            await redraw(match_id)
        tournaments = parts.services.tournaments
        for tournament in await tournaments.unshown():
            try:
                await announce(client, tournament)
            except (discord.NotFound, discord.Forbidden) as error:  # its channel is gone: never again
                log.warning("a tournament's standings cannot be posted in their channel: %s", error)
            except DISCORD_FAILURES as error:
                log.warning("could not post a tournament's standings: %s", error)
                continue
            await tournaments.shown(tournament.id)
    except Exception:
        log.exception("could not show what the last run left unshown")


# A board that lags is redrawn by the clock once it has lagged FIRST_PAUSE seconds (a press or a move shows
# its own change at once), then after pauses that double up to LONGEST_PAUSE, so an outage is not hammered.
FIRST_PAUSE = 5.0
LONGEST_PAUSE = 300.0


class Lagging:
    """When the clock redraws each board that lags behind its match; kept in memory only (a new start
    redraws them all at once, see `catch_up`)."""

    def __init__(self) -> None:
        self._next: dict[int, tuple[float, float]] = {}  # by match id: when to redraw, and the pause after

    def due(self, lagging: Iterable[int], now: float) -> list[int]:
        """Of the matches whose message lags now, those to redraw at this tick (each pause then doubles)."""
        retries = {
            match_id: self._next.get(match_id, (now + FIRST_PAUSE, FIRST_PAUSE)) for match_id in lagging
        }
        due = [match_id for match_id, (at, _) in retries.items() if at <= now]
        for match_id in due:
            pause = min(2 * retries[match_id][1], LONGEST_PAUSE)
            retries[match_id] = (now + pause, pause)
        self._next = retries
        return due
