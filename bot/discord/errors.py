"""Where every failure of a command or a button ends up: domain errors become ephemeral replies; anything
else is logged with its context and answered with a short apology."""

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord.mentions import linked
from hogengine.errors import HogError

log = logging.getLogger(__name__)

# What a call to Discord can fail with: its own refusals, and the network's failures below discord.py
# (aiohttp's errors, and OSError, which includes asyncio's TimeoutError since Python 3.11).
DISCORD_FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError)
APOLOGY = "Sorry, something went wrong on my side. The game is saved; please try again in a moment."


async def reply(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def context(interaction: discord.Interaction, match_id: int | None = None) -> dict[str, object]:
    """What a log line needs to find the failing gesture again: command or button, user, channel, match."""
    data: dict[str, Any] = dict(interaction.data or {})
    command = interaction.command.qualified_name if interaction.command else data.get("custom_id")
    user, channel = interaction.user.id, interaction.channel_id
    return {"command": command, "user": user, "channel": channel, "match": match_id}


def explain(interaction: discord.Interaction, error: Exception, match_id: int | None = None) -> str:
    """What to tell the user about a failure: a refusal's own words, or (logged with its context) the
    apology."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, HogError):
        return str(cause)
    if isinstance(cause, app_commands.AppCommandError):
        return str(cause) or APOLOGY  # Discord-side checks and option conversions: safe to show
    log.error("interaction failed", exc_info=cause, extra=context(interaction, match_id))
    return APOLOGY


async def report(interaction: discord.Interaction, error: Exception, match_id: int | None = None) -> None:
    """The one way a failure is answered (the tree and every button come here); the commands a refusal
    names are clickable."""
    text = linked(interaction, explain(interaction, error, match_id))
    try:
        await reply(interaction, text)
    except DISCORD_FAILURES:
        log.warning("could not answer an interaction", exc_info=True, extra=context(interaction, match_id))
