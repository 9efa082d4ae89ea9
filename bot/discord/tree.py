"""The command tree, the commands' one way in: each is admitted by the work under way, and its failure goes
to `errors.report` (as a button's does through `buttons.HogButton`). A global sync keeps the application's
Entry Point command (the Activity's, which Discord makes when Activities are enabled)."""

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.errors import report
from bot.discord.parts import parts_of

log = logging.getLogger(__name__)

# The Entry Point command (PRIMARY_ENTRY_POINT), which discord.py has no type for: Discord refuses a bulk
# overwrite of the global commands that leaves it out (error 50240), so a global sync carries it over.
ENTRY_POINT = 4
# Of an Entry Point as Discord lists it, what a bulk overwrite takes back (its id keeps it the same command).
KEPT = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "handler",
    "contexts",
    "integration_types",
    "default_member_permissions",
    "nsfw",
)


class HogTree(app_commands.CommandTree[discord.Client]):
    """The command tree with the tree-level error handler; every command is admitted by the work under
    way (turned away once the bot is stopping)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await parts_of(interaction).in_flight.admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report(interaction, error)

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        """Sync as discord.py does; a global sync also sends back the Entry Point commands Discord has."""
        if guild is not None or self.client.application_id is None:
            return await super().sync(guild=guild)
        application = self.client.application_id
        listed: list[dict[str, Any]] = list(await self._http.get_global_commands(application))  # type: ignore[arg-type]
        kept = [
            {key: command[key] for key in KEPT if key in command}
            for command in listed
            if command.get("type") == ENTRY_POINT
        ]
        payload: list[dict[str, Any]] = [command.to_dict(self) for command in self._get_all_commands()]
        try:
            synced = await self._http.bulk_upsert_global_commands(application, payload=payload + kept)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, self._get_all_commands()) from None
            raise
        for command in kept:
            log.info("kept the Entry Point command %r (the Activity's) in the global sync", command["name"])
        ours = [data for data in synced if data.get("type") != ENTRY_POINT]
        return [app_commands.AppCommand(data=data, state=self._state) for data in ours]
