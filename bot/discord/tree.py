"""The command tree, the commands' one way in: each is admitted by the work under way, and its failure goes
to `errors.report` (as a button's does through `buttons.HogButton`)."""

import discord
from discord import app_commands

from bot.discord.errors import report
from bot.discord.parts import parts_of


class HogTree(app_commands.CommandTree[discord.Client]):
    """The command tree with the tree-level error handler; every command is admitted by the work under
    way (turned away once the bot is stopping)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await parts_of(interaction).in_flight.admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report(interaction, error)
