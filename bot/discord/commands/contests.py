"""`/hog contest open|enter|partner|leave|status|close|results|export`: a course-style contest of the
server's stored strategies, run by its managers (Manage Server)."""

from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.discord import contests as words
from bot.discord.commands.common import RULES, Commands
from bot.discord.commands.strategies import own_strategy
from bot.discord.errors import reply
from bot.discord.identity import guild_of, player
from bot.services import FORMATS

FORMAT_CHOICES = [app_commands.Choice(name=name, value=name) for name in FORMATS]


class ContestCommands(Commands):
    """The contest's commands: managers open, close and export; everyone enters, pairs up and looks."""

    contest = app_commands.Group(name="contest", description="The server's strategy contest, course style")

    @contest.command(name="open", description="Open a contest: entries until the close, then one final")
    @app_commands.describe(
        rules="The rule set entries play",
        fmt="exact win rates (seeds 000/003), or 9 sampled games per pair (seed 001)",
        closes='When it closes: "2026-12-01 23:59" or "in 3 days"',
        title="Its name (default: Hog contest)",
        timezone="The time zone of a typed date, such as America/Los_Angeles (default: UTC)",
    )
    @app_commands.rename(fmt="format")
    @app_commands.choices(rules=RULES, fmt=FORMAT_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def open_contest(  # noqa: PLR0917 - discord.py passes a command's options by position
        self,
        interaction: discord.Interaction[Any],
        rules: str,
        fmt: str,
        closes: str,
        title: app_commands.Range[str, 1, 100] | None = None,
        timezone: str | None = None,
    ) -> None:
        contest = await self.parts.services.contests.open(
            guild_of(interaction),
            interaction.channel_id or 0,
            player(interaction.user),
            rules=rules,
            fmt=fmt,
            closes=closes,
            title=title,
            time_zone=timezone,
        )
        await interaction.response.send_message(
            words.opened(contest), allowed_mentions=discord.AllowedMentions.none()
        )

    @contest.command(name="enter", description="Make one of your stored strategies your entry")
    @app_commands.describe(strategy="Your strategy (or your partner's); its rule set's contest takes it")
    @app_commands.autocomplete(strategy=own_strategy)
    async def contest_enter(self, interaction: discord.Interaction[Any], strategy: str) -> None:
        contests = self.parts.services.contests
        found, entry = await contests.enter(guild_of(interaction), player(interaction.user), strategy)
        await interaction.response.defer(ephemeral=True, thinking=True)
        status = await contests.status(guild_of(interaction), interaction.user.id, found.rules)
        text = words.status(status, interaction.user.id)
        name = escape_markdown(entry.strategy_name or "")
        await interaction.followup.send(
            f"Entered '{name}'. Later uploads of it count until the close.\n{text}"
        )

    @contest.command(name="partner", description="Ask someone to enter with you as a pair")
    @app_commands.describe(user="Your partner", rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    async def contest_partner(
        self, interaction: discord.Interaction[Any], user: discord.User, rules: str | None = None
    ) -> None:
        found = await self.parts.services.contests.invite(
            guild_of(interaction), player(interaction.user), player(user), user.bot, rules
        )
        text, view = words.invitation(found, interaction.user, user)
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[user])
        await interaction.response.send_message(text, view=view, allowed_mentions=mentions)

    @contest.command(name="leave", description="Leave your entry (a partner keeps it)")
    @app_commands.describe(rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    async def contest_leave(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        found = await self.parts.services.contests.leave(
            guild_of(interaction), player(interaction.user), rules
        )
        await reply(interaction, f"You left your entry in {words.title(found)}.")

    @contest.command(name="status", description="The contest, your entry and its practice standing")
    @app_commands.describe(rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    async def contest_status(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        contests = self.parts.services.contests
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await contests.status(guild_of(interaction), interaction.user.id, rules)
        await interaction.followup.send(words.status(found, interaction.user.id), ephemeral=True)

    @contest.command(name="close", description="Close the contest now: its final runs at once")
    @app_commands.describe(rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def contest_close(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        found = await self.parts.services.contests.close_early(guild_of(interaction), rules)
        await interaction.response.send_message(
            f"{words.title(found)} has closed: the final tournament runs now, and its results are posted "
            "here when it ends.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @contest.command(name="results", description="The results of the latest contest")
    @app_commands.describe(rules="Only contests under this rule set")
    @app_commands.choices(rules=RULES)
    async def contest_results(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        final = await self.parts.services.contests.final(guild_of(interaction), rules)
        text, file = words.results(final)
        kwargs: dict[str, Any] = {} if file is None else {"file": file}
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )

    @contest.command(name="export", description="Download the latest contest's results (CSV) and record")
    @app_commands.describe(rules="Only contests under this rule set")
    @app_commands.choices(rules=RULES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def contest_export(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        contests = self.parts.services.contests
        final = await contests.final(guild_of(interaction), rules)
        await interaction.response.defer(ephemeral=True, thinking=True)
        csv_text = await contests.export_csv(final.contest.id)
        record = await contests.export_record(final.contest.id)
        files = words.exports(final, csv_text, record)
        await interaction.followup.send(
            f"{words.title(final.contest)}: the results, and the final's record "
            f"(`hog tournament --replay contest-{final.contest.id}-record.json` plays it again and checks "
            "it).",
            files=files,
            ephemeral=True,
        )
