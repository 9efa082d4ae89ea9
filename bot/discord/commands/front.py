"""The front door: `/hog help` (what one can do, each command a tap away), `/hog games` (your open games,
with links) and `/hog coach on|off` (the live coach)."""

from typing import Any, Literal

import discord
from discord import app_commands
from discord.utils import escape_markdown as md

from bot.discord.commands.common import Commands
from bot.discord.embeds import title
from bot.discord.errors import reply
from bot.discord.identity import guild_of, player
from bot.discord.mentions import linked
from bot.discord.notices import link
from bot.domain.errors import UnknownNoticeSetting
from bot.services import Match, MatchStatus

HELP = "\n".join(
    [
        "Hog is the dice game of CS 61A: on your turn, roll up to ten dice and add them up, but a 1 scores "
        "(almost) nothing. The first to 100 wins; each rule set adds twists of its own.",
        "",
        "**Play**",
        "/hog vs-bot: a game against Hog Bot (easy, course or perfect) or a stored strategy",
        "/hog challenge: a game against someone here",
        "/hog games: your open games, with links",
        "/hog rules: how a rule set plays",
        "",
        "**In a game** press a button to move. /hog hint asks the solver, privately; /hog forfeit gives up.",
        "",
        "**Learn**",
        "/hog coach on: after your moves, a private word when one gave away winning chance",
        "After a game: its Analysis button, or /hog analyze",
        "",
        "**Strategies**",
        "/hog upload strategy: check and store your final_strategy file",
        "/hog strategies, /hog strategy show, /hog tournament, /hog contest status",
        "",
        "**Records** /hog leaderboard, /hog stats, /hog history, /hog export",
        "**Settings** /hog notices (the messages that tell you it's your move), /hog forget-me",
    ]
)
COACH = {
    "on": (
        "The coach is on. After your moves, once your opponent has moved, I tell you privately when a choice "
        "gave away 5 points or more of winning chance against perfect play (an inaccuracy from 5, a mistake "
        "from 10, a blunder from 15), with the better choice; and I sum up each game at its end."
    ),
    "off": "The coach is off. A game's Analysis button still shows every costly choice afterwards.",
}


def _game_line(match: Match, user_id: int) -> str:
    """One open game or challenge of the person, as `/hog games` lists it."""
    seat = match.seat_of(user_id)
    other = md(match.seat_name(1 - (seat or 0)))
    where = "" if match.message_id is None else f": {link(match, match.message_id)}"
    if match.status is MatchStatus.PENDING:
        what = f"your challenge to **{other}**" if seat == 0 else f"**{other}** challenges you"
    elif match.player_to_move is not None and match.player_to_move.id == user_id:
        what = f"your move against **{other}**"
    else:
        what = f"**{other}** to move"
    return f"{title(match)}, {what}{where}"


class FrontCommands(Commands):
    """Help, your open games, and the coach."""

    @app_commands.command(name="help", description="What you can do here, each command a tap away")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(
            title="Hog", description=linked(interaction, HELP), colour=discord.Colour.blurple()
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="games", description="Your open games and challenges on this server")
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user.id
        found = await self.parts.services.games.open_matches(guild_of(interaction), user)
        text = (
            "\n".join(f"• {_game_line(match, user)}" for match in found)
            if found
            else "You have no open games here: start one with /hog vs-bot or /hog challenge."
        )
        await reply(interaction, linked(interaction, text))

    @app_commands.command(
        name="coach", description="A private word after your moves that cost winning chance"
    )
    @app_commands.describe(setting="on: the coach speaks after your moves; off: it says nothing")
    async def coach(self, interaction: discord.Interaction[Any], setting: Literal["on", "off"]) -> None:
        if setting not in COACH:
            raise UnknownNoticeSetting
        await self.parts.services.games.set_coach(player(interaction.user), setting == "on")
        await reply(interaction, COACH[setting])
