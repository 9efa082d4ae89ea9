"""What the last run stored but never showed, shown as the bot starts. A crash (kill -9, an OOM kill, a
host reboot) can land between storing a change and showing it: a turn, an accepted challenge, a house-bot
move, a game the clock closed, a rematch, a tournament's standings. Every message remembers what it
shows, so the start redraws exactly what lags. (A game that ended unrated is rated by the next reading of
the ratings, which rates everything pending first.)"""

import logging

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
