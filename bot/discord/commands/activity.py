"""`/hog play`: Hog's Activity, opened in the channel (only while the bot serves it: see client.py)."""

from typing import Any

import discord
from discord import app_commands

from bot.discord.commands.common import Commands
from bot.discord.launch import launch


class ActivityCommands(Commands):
    """The Activity's command of the `/hog` group."""

    @app_commands.command(
        name="play", description="Play Hog in this channel's Activity: a table all here can join or watch"
    )
    async def play(self, interaction: discord.Interaction[Any]) -> None:
        await launch(interaction, None)
