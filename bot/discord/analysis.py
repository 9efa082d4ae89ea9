"""The analysis of a game, as the Analysis button and `/hog analyze` show it: privately, with a chart."""

from typing import Any

import discord

from bot.discord import contest_embeds
from bot.discord.identity import guild_of
from bot.discord.parts import Parts
from bot.discord.pictures import rendered, shown_in
from bot.images import win_probability_chart


async def send_analysis(parts: Parts, interaction: discord.Interaction[Any], match_id: int) -> None:
    """Answer an interaction acknowledged with a private "thinking…": the solver may take seconds."""
    found = await parts.services.analysis.analyse(
        match_id, guild_id=guild_of(interaction), user_id=interaction.user.id
    )
    seat = found.match.seat_of(interaction.user.id)
    seat = 0 if seat is None else seat  # someone who did not play sees player 0's chances
    mistakes = [move.turn for move in found.analysis.players[seat].mistakes]  # as the text lists them
    chart = await rendered(win_probability_chart, found.analysis.series, found.names, seat, mistakes)
    embed = shown_in(contest_embeds.analysis(found), chart)
    await interaction.followup.send(embed=embed, file=chart, ephemeral=True)
