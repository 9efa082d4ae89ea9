"""What every group of `/hog` commands shares: rule-set choices, who is asking, and where."""

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.parts import Parts
from bot.services import Player
from hogengine.rules import RULE_SETS

RULES = [app_commands.Choice(name=rules.title[:100], value=rules.id) for rules in RULE_SETS]


class Commands(commands.Cog):
    """A part of the `/hog` cog, never added alone: the cog class inherits the parts, and discord.py
    collects their commands along its MRO."""

    parts: Parts


def player(user: discord.abc.User) -> Player:
    """A Discord user as the services know people: id and display name."""
    return Player(user.id, user.display_name)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server a command came from (every `/hog` command is server-only)."""
    return interaction.guild_id or 0
