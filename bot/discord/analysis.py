"""The analysis of a game, as the Analysis button and `/hog analyze` show it: privately, with a chart, and a
button that shares it with the channel."""

from typing import Any

import discord

from bot.discord.parts import Parts
from bot.discord.sharing import analysis_message, share_button, with_buttons


async def send_analysis(parts: Parts, interaction: discord.Interaction[Any], match_id: int) -> None:
    """Answer an interaction acknowledged with a private "thinking…": the solver may take seconds."""
    embed, chart = await analysis_message(parts, interaction, match_id)
    view = with_buttons(share_button("analysis", match_id))
    await interaction.followup.send(
        embed=embed, files=[] if chart is None else [chart], view=view, ephemeral=True
    )
