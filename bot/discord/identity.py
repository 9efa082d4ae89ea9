"""Who asks and where, as the services know them: a Discord user as a player, an interaction's server.
Commands and buttons alike translate with these."""

from typing import Any

import discord

from bot.services import Player


def player(user: discord.abc.User) -> Player:
    """A Discord user as the services know people: id and display name."""
    return Player(user.id, user.display_name)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server a command came from (every `/hog` command is server-only)."""
    return interaction.guild_id or 0
