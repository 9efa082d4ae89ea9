"""Who is course staff on a server: members with Manage Server, and members with the staff role a manager
set (`/hog staff role`). Every staff command and button asks here on every use; a student who tries one
gets the project's own sentence (NotStaff), never the library's.

Discord's own Integrations page can grant a top-level command to a role, but not a subcommand: the staff
commands live under `/hog` beside everyone's, so the staff role is the bot's to keep."""

from typing import Any

import discord
from discord.utils import escape_markdown

from bot.discord.identity import guild_of
from bot.discord.parts import Parts
from bot.domain.errors import NotManager, NotStaff


def manages(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member has Manage Server (Administrator includes it) where they asked."""
    return interaction.permissions.manage_guild


async def is_staff(interaction: discord.Interaction[Any], parts: Parts) -> bool:
    """Whether the member who asked is course staff on this server."""
    if manages(interaction):
        return True
    role = await parts.services.contests.staff.role(guild_of(interaction))
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None


async def require_staff(interaction: discord.Interaction[Any], parts: Parts) -> None:
    """NotStaff unless the member who asked is course staff on this server (the sentence names the staff
    role, if the server has one)."""
    if await is_staff(interaction, parts):
        return
    role_id = await parts.services.contests.staff.role(guild_of(interaction))
    role = None if role_id is None or interaction.guild is None else interaction.guild.get_role(role_id)
    raise NotStaff(None if role is None else escape_markdown(role.name))


def require_manager(interaction: discord.Interaction[Any]) -> None:
    """NotManager unless the member who asked has Manage Server (only they choose the staff role)."""
    if not manages(interaction):
        raise NotManager
