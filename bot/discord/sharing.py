"""Private results, and sharing them with the channel: a game's analysis, a player's stats, a stored
strategy's card. Each is made here, for the private answer and for its "Share to channel" button alike: the
button's custom_id says what it shares (`hog:share:<kind>:<key>`), and a press makes it again as it is now
and posts it in the channel, saying who shared it (names in it ping nobody)."""

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord import contest_embeds
from bot.discord.buttons import HogButton
from bot.discord.identity import guild_of
from bot.discord.parts import Parts
from bot.discord.pictures import heatmap, rendered, shown_in
from bot.images import rating_history_chart, win_probability_chart
from bot.services import Player, Stats, StoredStrategy
from hogengine.rules import get_rules

Made = tuple[discord.Embed, discord.File | None]  # a result: its embed and its picture, if any
SHARE = "Share to channel"


async def analysis_message(
    parts: Parts, interaction: discord.Interaction[Any], match_id: int
) -> tuple[discord.Embed, discord.File]:
    """A game's analysis as the asking person sees it: the chart of their chances (player 0's for someone
    who did not play) with their costliest choices marked, and each side's accuracy and mistakes."""
    found = await parts.services.analysis.analyse(
        match_id, guild_id=guild_of(interaction), user_id=interaction.user.id
    )
    seat = found.match.seat_of(interaction.user.id)
    seat = 0 if seat is None else seat
    mistakes = [move.turn for move in found.analysis.players[seat].mistakes]  # as the text lists them
    chart = await rendered(win_probability_chart, found.analysis.series, found.names, seat, mistakes)
    return shown_in(contest_embeds.analysis(found), chart), chart


def rating_series(found: Stats) -> dict[str, list[float]]:
    """Each rule set's rating before the player's first rated game under it and after every one."""
    series: dict[str, list[float]] = {}
    for change in found.rating_history:
        series.setdefault(get_rules(change.rules).name, [change.before]).append(change.after)
    return series


async def stats_message(parts: Parts, who: Player, guild_id: int) -> Made:
    """A player's record on a server and their ratings, with the chart of their ratings if they have any."""
    found = await parts.services.ratings.stats(who, guild_id)
    embed = contest_embeds.stats(found)
    if not found.rating_history:
        return embed, None
    chart = await rendered(rating_history_chart, rating_series(found), found.player.name)
    return shown_in(embed, chart), chart


async def strategy_message(parts: Parts, guild_id: int, name: str) -> Made:
    """A stored strategy's card (owner, rule set, versions, exact win rates) and its heat map."""
    strategies = parts.services.strategies
    found: StoredStrategy = await strategies.show(guild_id, name)
    versions = len(await strategies.history(guild_id, name))
    picture = await heatmap(found)
    return shown_in(contest_embeds.strategy_card(found, versions), picture), picture


async def _analysis(parts: Parts, interaction: discord.Interaction[Any], key: str) -> Made:
    return await analysis_message(parts, interaction, int(key))


async def _stats(parts: Parts, interaction: discord.Interaction[Any], key: str) -> Made:
    user_id = int(key)
    who = await parts.services.games.known(user_id) or Player(user_id, "someone")
    return await stats_message(parts, who, guild_of(interaction))


async def _strategy(parts: Parts, interaction: discord.Interaction[Any], key: str) -> Made:
    return await strategy_message(parts, guild_of(interaction), key)


# What each kind of share makes again, from its key (a match id, a user id, a strategy's name).
MAKERS: dict[str, Callable[[Parts, discord.Interaction[Any], str], Awaitable[Made]]] = {
    "analysis": _analysis,
    "stats": _stats,
    "strategy": _strategy,
}


class ShareButton(HogButton, template=r"hog:share:(?P<kind>analysis|stats|strategy):(?P<key>.{1,80})"):
    """Post a private result publicly in the channel, as it is now, saying who shared it."""

    def __init__(self, kind: str, key: str) -> None:
        button = discord.ui.Button[Any](
            label=SHARE, style=discord.ButtonStyle.secondary, custom_id=f"hog:share:{kind}:{key}"
        )
        super().__init__(button, None)
        self.kind, self.key = kind, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "ShareButton":
        return cls(match["kind"], match["key"])

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        embed, picture = await MAKERS[self.kind](parts, interaction, self.key)
        files = [] if picture is None else [picture]
        await interaction.followup.send(
            f"Shared by {interaction.user.mention}.",
            embed=embed,
            files=files,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def share_button(kind: str, key: object) -> ShareButton:
    """The button that shares a private result (`kind`: analysis, stats or strategy; `key`: which one)."""
    return ShareButton(kind, str(key))


def with_buttons(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding these buttons, kept for as long as the message is (the buttons are stateless)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
