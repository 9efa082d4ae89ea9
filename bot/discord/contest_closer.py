"""The contests' clockwork, which the clock pokes every tick: it posts the reminders that are due (once
each), plays every final that is due (once, whatever other processes do), posts what was stored but never
posted and tells each entrant their result, and brings finished invitations up to date."""

import asyncio
import logging
from typing import Any

import discord

from bot.discord.contest_buttons import settle_invitations
from bot.discord.contests import pinging, private_result, reminder, results
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.parts import Parts
from bot.services.contests.service import Final

log = logging.getLogger(__name__)


async def post(client: discord.Client, parts: Parts, final: Final) -> None:
    """Post a closed contest's results in the channel it was opened in, then tell each entrant their number
    and rank privately (a DM naming the server and linking to the post; `/hog contest status` says it too,
    for those whose DMs are closed)."""
    contests = parts.services.contests
    text, file = results(final)
    channel = client.get_partial_messageable(final.contest.channel_id)
    kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if file is not None:
        kwargs["file"] = file
    sent = await channel.send(text, **kwargs)
    await contests.posted(final.contest.id, sent.id)
    contest = await contests.get(final.contest.id)
    guild = client.get_guild(contest.guild_id)  # a server of this process's shards: known
    server = None if guild is None else guild.name
    count = len(final.placed)
    for entry in final.placed:
        for member in entry.members:
            try:
                user = client.get_user(member.id) or await client.fetch_user(member.id)
                await user.send(private_result(contest, entry, count, server))
            except DISCORD_FAILURES as error:  # DMs closed, or the person gone: status says it too
                log.info("could not tell %s their contest result: %s", member.id, error)


async def remind(client: discord.Client, parts: Parts) -> None:
    """Post the reminders that are due, each once, pinging the role the contest's staff chose (only it); one
    that Discord does not take is tried again at the next tick."""
    contests = parts.services.contests
    for due in await contests.reminders_due():
        _, mentions = pinging(due.contest)
        channel = client.get_partial_messageable(due.contest.channel_id)
        try:
            await channel.send(reminder(due.contest, due.hours, due.entries), allowed_mentions=mentions)
        except (discord.NotFound, discord.Forbidden) as error:  # its channel is gone: never again
            log.warning("a contest's reminder cannot be posted in its channel: %s", error)
        except DISCORD_FAILURES as error:
            log.warning("could not post a contest's reminder: %s", error)
            await contests.unsent(due)


class Closer:
    """Runs the contests' clockwork one round at a time in the background (the clock pokes it every tick;
    a round under way is not started twice)."""

    def __init__(self, client: discord.Client, parts: Parts) -> None:
        self._client, self._parts = client, parts
        self._round: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Start a round unless one is under way."""
        if self._round is None or self._round.done():
            self._round = asyncio.create_task(self._run(), name="hog-contest-close")
            self._parts.in_flight.track(self._round)

    async def _run(self) -> None:
        contests = self._parts.services.contests
        try:
            await remind(self._client, self._parts)
            await contests.close_due()
            for final in await contests.unposted():
                try:
                    await post(self._client, self._parts, final)
                except (discord.NotFound, discord.Forbidden) as error:  # its channel is gone: never again
                    log.warning("a contest's results cannot be posted in their channel: %s", error)
                    await contests.posted(final.contest.id, None)
                except DISCORD_FAILURES as error:
                    log.warning("could not post a contest's results: %s", error)
            await settle_invitations(self._client, self._parts)
        except Exception:
            log.exception("the contest closer failed")
