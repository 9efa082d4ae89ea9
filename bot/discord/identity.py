"""Who asks and where, as the services know them: a Discord user as a player, an interaction's server.
Commands and buttons alike translate with these."""

from datetime import timedelta
from typing import Any

import discord

from bot.services import Player

TOKEN_MARGIN = timedelta(minutes=1)  # an answer is edited no later than this before its token runs out


def player(user: discord.abc.User) -> Player:
    """A Discord user as the services know people: id and display name."""
    return Player(user.id, user.display_name)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server a command came from (every `/hog` command is server-only)."""
    return interaction.guild_id or 0


def answerable(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's token (15 minutes) still lets the bot edit its answer or follow it up, with
    a margin."""
    return discord.utils.utcnow() < interaction.expires_at - TOKEN_MARGIN
