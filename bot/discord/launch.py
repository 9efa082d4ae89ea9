"""Opening Hog's Activity from Discord: a button on a live game's board (`hog:activity:<match>`) and the
`/hog play` command both answer with LAUNCH_ACTIVITY (interaction callback 12), and the instance Discord
launched (or joined) is recorded with the game of the board, so the Activity opens on it. Shown only when
the bot serves the Activity (HOG_ACTIVITY_CLIENT_ID and _SECRET set)."""

import re
from typing import Any

import discord

from bot.discord.boards import Controls
from bot.discord.errors import report
from bot.discord.identity import guild_of
from bot.discord.parts import parts_of
from bot.services import Match, MatchStatus

LABEL = "Play in the Activity"
ROW = 0  # beside the specials and Verify dice: a live board keeps its three rows of buttons on a phone


async def launch(interaction: discord.Interaction[Any], match_id: int | None) -> None:
    """Answer by launching the Activity in the interaction's channel (Discord opens it for the person), and
    record the instance it launched, on the game of `match_id` (None: the person's own, if any)."""
    parts = parts_of(interaction)
    try:
        answer = await interaction.response.launch_activity()
        launched = answer.resource
        if isinstance(launched, discord.InteractionCallbackActivityInstance) and interaction.channel_id:
            await parts.services.activities.launched(
                launched.id, guild_of(interaction), interaction.channel_id, match_id
            )
    except Exception as error:
        await report(interaction, error, match_id)


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hog:activity:(?P<match>\d+)"):
    """Open the Activity on this game: to play it there, or to watch it."""

    def __init__(self, match_id: int) -> None:
        button = discord.ui.Button[Any](
            label=LABEL, style=discord.ButtonStyle.secondary, custom_id=f"hog:activity:{match_id}", row=ROW
        )
        super().__init__(button)
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "LaunchButton":
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await parts_of(interaction).in_flight.admit(interaction):  # the command tree admits commands
            await launch(interaction, self.match_id)


def with_launch(controls: Controls) -> Controls:
    """The buttons a match shows, and on a live game's first row the button that opens the Activity."""

    def drawn(match: Match) -> discord.ui.View | None:
        view = controls(match)
        if match.status is not MatchStatus.ACTIVE:
            return view
        view = view or discord.ui.View(timeout=None)
        view.add_item(LaunchButton(match.id))
        return view

    return drawn
