"""The base of every button: one view-level error handler. Each press is admitted (not once the bot is
stopping) and acknowledged first; a stale press on a board redraws the board and says so, except a person's
own repeated press (a double tap), which the redrawn board answers alone; any failure goes to `report`."""

from typing import Any, ClassVar

import discord

from bot.discord.errors import report
from bot.discord.parts import Parts, parts_of
from bot.domain.errors import BoardRedrawn, RepeatedPress
from bot.services import ChallengeClosed, StaleAction


class HogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hog:(?!)"):  # never matches
    """A button (of some match; the base of the registered ones)."""

    ANSWERS_PRIVATELY: ClassVar[bool] = False  # acknowledged with a private "thinking…", not an update

    def __init__(self, button: discord.ui.Button[Any], match_id: int | None) -> None:
        super().__init__(button)
        self.match_id = match_id

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        parts = parts_of(interaction)
        if not await parts.in_flight.admit(interaction):
            return
        try:
            await interaction.response.defer(
                ephemeral=self.ANSWERS_PRIVATELY, thinking=self.ANSWERS_PRIVATELY
            )
            try:
                await self.press(interaction, parts)
            except (StaleAction, ChallengeClosed) as stale:
                if self.ANSWERS_PRIVATELY or self.match_id is None:  # not pressed on a board
                    raise
                await parts.boards.show(self.match_id, interaction)
                if not isinstance(stale, RepeatedPress):
                    raise BoardRedrawn(stale) from None
        except Exception as error:
            await report(interaction, error, self.match_id)

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        """What the button does once the press is acknowledged."""
        raise NotImplementedError
