"""`/hog upload strategy`, `/hog strategies`, `/hog strategy show|delete`, and strategy-name autocomplete."""

from collections.abc import Awaitable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.discord import contest_embeds
from bot.discord.commands.common import RULES, Commands
from bot.discord.contest_buttons import delete_confirmation
from bot.discord.errors import explain
from bot.discord.identity import guild_of, player
from bot.discord.parts import parts_of
from bot.discord.pictures import heatmap, shown_in
from bot.discord.sharing import share_button, strategy_message, with_buttons
from bot.discord.staff import is_staff
from bot.discord.views import after_upload
from bot.domain.errors import RecordsUnavailable
from bot.services import MAX_NAME, HogError, Services, StoredStrategy
from hogengine.rules import DEFAULT_RULES, get_rules

MAX_CHOICES = 25  # Discord's limit for autocomplete
Choices = list[app_commands.Choice[str]]


def _services(interaction: discord.Interaction[Any]) -> Services:
    return parts_of(interaction).services


async def _named(found: Awaitable[Sequence[StoredStrategy]], current: str) -> Choices:
    """Autocomplete choices: the strategies found whose name contains what was typed so far (none while the
    game records are out of reach: an autocomplete cannot say why, and the command itself will)."""
    try:
        strategies = await found
    except RecordsUnavailable:
        return []
    typed = current.strip().casefold()
    return [
        app_commands.Choice(
            name=f"{s.name} ({get_rules(s.rules).name}, by {s.owner.name})"[:100], value=s.name
        )
        for s in strategies
        if typed in s.name.casefold()
    ][:MAX_CHOICES]


async def any_strategy(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Every strategy of the server."""
    return await _named(_services(interaction).strategies.active(guild_of(interaction)), current)


async def own_strategy(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The asking person's strategies on the server."""
    strategies = _services(interaction).strategies
    return await _named(strategies.active(guild_of(interaction), interaction.user.id), current)


async def strategy_for_rules(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The server's strategies for the rule set chosen in the same command (of every rule set if none), and
    of the opponent chosen in it, if any."""
    rules = getattr(interaction.namespace, "rules", None)
    opponent = getattr(interaction.namespace, "opponent", None)
    owner = None if opponent is None else opponent.id
    strategies = _services(interaction).strategies
    return await _named(strategies.active(guild_of(interaction), owner, rules), current)


class StrategyCommands(Commands):
    """Uploading, listing, showing and deleting stored strategies."""

    upload = app_commands.Group(name="upload", description="Upload something to the bot")
    strategy = app_commands.Group(name="strategy", description="This server's stored strategies")

    @upload.command(name="strategy", description="Check and store a final_strategy file or a JSON table")
    @app_commands.describe(
        file="A .py file defining final_strategy(score, opponent_score), or a 100x100 JSON list",
        name="Its name (default: the file's TEAM_NAME, else the file name); the same name replaces yours",
        rules="The rule set it plays",
    )
    @app_commands.choices(rules=RULES)
    async def upload_strategy(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        name: app_commands.Range[str, 1, MAX_NAME] | None = None,
        rules: str = DEFAULT_RULES,
    ) -> None:
        strategies = self.parts.services.strategies
        ticket = await strategies.admit(  # refusals here come before anything is downloaded
            guild_of(interaction), player(interaction.user), file.filename, file.size, name=name, rules=rules
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        limit = strategies.limits.time_limit
        where = f" in the sandbox (it has {limit:g} s of CPU time)" if ticket.kind == "py" else ""
        await interaction.edit_original_response(
            content=f"Checking **{escape_markdown(file.filename)}**{where}…"
        )
        try:
            upload = await strategies.evaluate(ticket, await file.read())
            picture = await heatmap(upload.strategy)
        except Exception as error:  # the "Checking…" answer becomes the verdict, whatever happened
            text = explain(interaction, error)
            verdict = contest_embeds.refused(text) if isinstance(error, HogError) else None
            await interaction.edit_original_response(content=None if verdict else text, embed=verdict)
            return
        embed = shown_in(contest_embeds.upload_verdict(upload), picture)
        view = await after_upload(self.parts, guild_of(interaction), upload.strategy)  # play, enter, share
        await interaction.edit_original_response(content=None, embed=embed, attachments=[picture], view=view)

    @app_commands.command(name="strategies", description="The strategies stored on this server")
    @app_commands.describe(user="Only this person's strategies")
    async def strategies(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        owner = None if user is None else user.id
        found = await self.parts.services.strategies.active(guild_of(interaction), owner)
        title = (
            "Strategies on this server"
            if user is None
            else f"{escape_markdown(user.display_name)}'s strategies"
        )
        embed = contest_embeds.strategy_list(found, title)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @strategy.command(name="show", description="A strategy's exact win rates and its choices as a picture")
    @app_commands.describe(name="The strategy's name")
    @app_commands.autocomplete(name=any_strategy)
    async def show_strategy(self, interaction: discord.Interaction[Any], name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, picture = await strategy_message(self.parts, guild_of(interaction), name)
        files = [] if picture is None else [picture]
        view = with_buttons(share_button("strategy", name.strip()))
        await interaction.followup.send(embed=embed, files=files, view=view, ephemeral=True)

    @strategy.command(
        name="delete", description="Delete one of your strategies (staff: anyone's), with its history"
    )
    @app_commands.describe(name="Your strategy's name")
    @app_commands.autocomplete(name=own_strategy)
    async def delete_strategy(self, interaction: discord.Interaction[Any], name: str) -> None:
        strategies, guild = self.parts.services.strategies, guild_of(interaction)
        staff = await is_staff(interaction, self.parts)
        found = await strategies.deletable(guild, name, interaction.user.id, staff)
        versions = len(await strategies.history(guild, found.name))
        text, view = delete_confirmation(found, interaction.user.id, versions)
        await interaction.response.send_message(text, view=view, ephemeral=True)
