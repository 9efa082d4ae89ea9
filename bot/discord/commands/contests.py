"""`/hog contest open|enter|partner|leave|status|entries|close|results|export`, `/hog staff role|clear` and
`/hog link`: a course-style contest of the server's stored strategies, run by its course staff (Manage
Server, or the staff role a manager sets)."""

from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.discord import contests as words
from bot.discord.commands.common import RULES, Commands
from bot.discord.commands.strategies import own_strategy
from bot.discord.contest_buttons import close_confirmation, invitation
from bot.discord.errors import reply
from bot.discord.identity import guild_of, player
from bot.discord.staff import require_manager, require_staff
from bot.domain.contests import InvitationKey
from bot.services import FORMATS
from bot.services.contests.staff import MAX_COURSE_ID

FORMAT_CHOICES = [app_commands.Choice(name=name, value=name) for name in FORMATS]
STAFF_RUN = (
    "tournaments (`/hog tournament`), contests (`/hog contest open`, `entries`, `close`, `export`) and "
    "deleting anyone's strategy"
)


class ContestCommands(Commands):
    """The contest's commands: staff open, list, close and export; everyone enters, pairs up and looks."""

    contest = app_commands.Group(name="contest", description="The server's strategy contest, course style")
    staff = app_commands.Group(name="staff", description="Who runs contests and tournaments here")

    @contest.command(name="open", description="Open a contest: entries until the close, then one final")
    @app_commands.describe(
        rules="The rule set entries play",
        fmt="exact win rates (seeds 000/003), or 9 sampled games per pair (seed 001)",
        closes='When it closes: "2026-12-01 23:59" or "in 3 days"',
        title="Its name (default: Hog contest)",
        timezone="The time zone of a typed date, such as America/Los_Angeles (default: UTC)",
        ping="A role to notify of the opening and of the reminders a day and an hour before the close",
    )
    @app_commands.rename(fmt="format")
    @app_commands.choices(rules=RULES, fmt=FORMAT_CHOICES)
    async def open_contest(  # noqa: PLR0917 - discord.py passes a command's options by position
        self,
        interaction: discord.Interaction[Any],
        rules: str,
        fmt: str,
        closes: str,
        title: app_commands.Range[str, 1, 100] | None = None,
        timezone: str | None = None,
        ping: discord.Role | None = None,
    ) -> None:
        await require_staff(interaction, self.parts)
        contest = await self.parts.services.contests.open(
            guild_of(interaction),
            interaction.channel_id or 0,
            player(interaction.user),
            rules=rules,
            fmt=fmt,
            closes=closes,
            title=title,
            time_zone=timezone,
            ping_role_id=None if ping is None else ping.id,
        )
        _, mentions = words.pinging(contest)
        await interaction.response.send_message(words.opened(contest), allowed_mentions=mentions)

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
        contests = self.parts.services.contests
        where = (guild_of(interaction), interaction.channel_id or 0)
        found = await contests.invite(where, player(interaction.user), player(user), user.bot, rules)
        text, view = invitation(found, interaction.user, user)
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[user])
        sent = (await interaction.response.send_message(text, view=view, allowed_mentions=mentions)).resource
        if isinstance(sent, discord.Message):
            await contests.invitation_posted(InvitationKey(found.id, interaction.user.id, user.id), sent.id)

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

    @contest.command(name="entries", description="For staff: every entry of the open contest so far")
    @app_commands.describe(rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    async def contest_entries(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        await require_staff(interaction, self.parts)
        contests = self.parts.services.contests
        await contests.current(guild_of(interaction), rules)  # a refusal before "thinking…"
        await interaction.response.defer(ephemeral=True, thinking=True)
        contest, listed = await contests.listing(guild_of(interaction), rules)
        text, file = words.entries_list(contest, listed)
        kwargs: dict[str, Any] = {} if file is None else {"file": file}
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )

    @contest.command(name="close", description="For staff: close the contest now (you confirm first)")
    @app_commands.describe(rules="Which contest (when several are open)")
    @app_commands.choices(rules=RULES)
    async def contest_close(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        await require_staff(interaction, self.parts)
        contests = self.parts.services.contests
        found = await contests.current(guild_of(interaction), rules)
        text, view = close_confirmation(found, len(await contests.entries(found.id)))
        await interaction.response.send_message(text, view=view, ephemeral=True)

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

    @contest.command(name="export", description="For staff: the latest contest's gradebook (CSV) and record")
    @app_commands.describe(rules="Only contests under this rule set")
    @app_commands.choices(rules=RULES)
    async def contest_export(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        await require_staff(interaction, self.parts)
        contests = self.parts.services.contests
        final = await contests.final(guild_of(interaction), rules)
        await interaction.response.defer(ephemeral=True, thinking=True)
        gradebook = await contests.export_gradebook(final)
        record = await contests.export_record(final.contest.id)
        files = words.exports(final, gradebook, record)
        await interaction.followup.send(
            f"{words.title(final.contest)}: the gradebook (a row per student: Discord id, name, the course "
            "id they linked with `/hog link`, entry, place, wins, losses, rate against always_roll(5), "
            "extra credit 3/2/1 for the top three places), and the final's record "
            f"(`hog tournament --replay contest-{final.contest.id}-record.json` plays it again and checks "
            "it).",
            files=files,
            ephemeral=True,
        )

    @staff.command(name="role", description="Who is course staff here, or (Manage Server) set the staff role")
    @app_commands.describe(role="Members with this role run contests and tournaments (Manage Server only)")
    async def staff_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        course = self.parts.services.contests.staff
        if role is not None:
            require_manager(interaction)
            await course.set_role(guild_of(interaction), role.id, player(interaction.user))
            await reply(
                interaction,
                f"Members with the **{escape_markdown(role.name)}** role are now course staff here, beside "
                f"members with Manage Server: they run {STAFF_RUN}.",
            )
            return
        current = await course.role(guild_of(interaction))
        shown = "" if current is None else f" and members with the <@&{current}> role"
        await reply(
            interaction,
            f"Course staff here: members with Manage Server{shown}. They run {STAFF_RUN}. A member with "
            "Manage Server sets the staff role with `/hog staff role role:@TA`.",
        )

    @staff.command(
        name="clear", description="(Manage Server) No staff role: only Manage Server runs contests"
    )
    async def staff_clear(self, interaction: discord.Interaction[Any]) -> None:
        require_manager(interaction)
        await self.parts.services.contests.staff.set_role(
            guild_of(interaction), None, player(interaction.user)
        )
        await reply(
            interaction, "No staff role now: only members with Manage Server run contests and tournaments."
        )

    @app_commands.command(
        name="link", description="Link your course id (only course staff see it, in exports)"
    )
    @app_commands.describe(course_id="Your student id or course email, as your course's gradebook knows you")
    async def link(
        self,
        interaction: discord.Interaction[Any],
        course_id: app_commands.Range[str, 1, MAX_COURSE_ID] | None = None,
    ) -> None:
        course = self.parts.services.contests.staff
        guild = guild_of(interaction)
        if course_id is None:
            linked = await course.linked(guild, interaction.user.id)
            said = (
                "You have linked no course id on this server."
                if linked is None
                else (f"Your course id on this server: `{linked}`.")
            )
            await reply(interaction, f"{said} `/hog link course_id:…` links one (or changes it).")
            return
        stored = await course.link(guild, player(interaction.user), course_id)
        await reply(
            interaction,
            f"Linked: your course id on this server is `{stored}`. Only course staff see it, in the contest "
            "gradebook they export; `/hog link` again changes it, and `/hog forget-me` erases it.",
        )
