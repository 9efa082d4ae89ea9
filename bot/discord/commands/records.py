"""`/hog tournament`, `standings`, `leaderboard`, `stats`, `history`, `analyze` and `forget-me`."""

import math
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord import contest_embeds
from bot.discord.analysis import send_analysis
from bot.discord.commands.common import RULES, Commands
from bot.discord.embeds import timestamp
from bot.discord.identity import answerable, guild_of, player
from bot.discord.mentions import linked
from bot.discord.pictures import rendered
from bot.discord.sharing import share_button, stats_message, with_buttons
from bot.discord.staff import require_staff
from bot.discord.views import ForgetButton
from bot.images import Place, Versus, results_matrix, standings_chart
from bot.services import FORMATS, Tournament
from hogengine.contest_rules import GAMES
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.text import percent

# What a results matrix's cell says, by format: the row's share of its pairing with the column.
MEASURES = {"exact": "row's exact win rate vs the column", "sampled": "row's games won of 9 vs the column"}
PROGRESS_EVERY = 1.0  # seconds between two edits of a running tournament's answer
FORGET = (
    "**Forget me** deletes every strategy you uploaded (on every server, with their history) and every "
    "course id you linked, and takes your name and ratings off every game you played: the games stay, "
    "played by an anonymous player, so your opponents' records stay whole. This cannot be undone. Dismiss "
    "this message to keep everything."
)


class Progress:
    """Shows how far a tournament got by editing the deferred answer, at most once per PROGRESS_EVERY, while
    the interaction can still be answered."""

    def __init__(
        self, interaction: discord.Interaction[Any], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._interaction = interaction
        self._clock = clock
        self._shown = -math.inf

    async def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if now - self._shown < PROGRESS_EVERY or not answerable(self._interaction):
            return
        self._shown = now
        await self._interaction.edit_original_response(
            content=f"Tournament running: {done} of {total} steps done ({percent(done / max(total, 1))})…"
        )


async def standings_message(result: Tournament, lead: str = "") -> tuple[str, discord.File]:
    """A tournament's standings as text after `lead` (one message in all) and as a chart of the places'
    win rates (rendered off the event loop)."""
    title = f"{result.format} tournament · {get_rules(result.rules).name}"
    if result.pairings:  # who beat whom: what the text cannot show
        scale = 1.0 if result.format == "exact" else float(GAMES)  # a sampled result is games won of nine
        pairings = [
            Versus(p.a_place, p.b_place, p.a_result / scale, p.b_result / scale) for p in result.pairings
        ]
        names = [s.name for s in result.standings]
        picture = await rendered(results_matrix, title, names, pairings, MEASURES[result.format])
    else:  # stored before pairings were kept: how far apart the places are
        places = [Place(s.place, s.name, s.points, s.tiebreak) for s in result.standings]
        picture = await rendered(standings_chart, title, places, contest_embeds.TIE_BREAKS[result.format])
    return contest_embeds.standings_text(result, lead), picture


async def announce(client: discord.Client, result: Tournament) -> None:
    """Post a tournament's standings as a new message in its channel, mentioning who started it: when its
    answer can no longer be edited (the interaction's token ran out, or the bot restarted meanwhile)."""
    if result.channel_id is None:
        raise ValueError("a tournament without a channel cannot be announced")
    starter = result.started_by  # None once forgotten
    text, picture = await standings_message(result, "" if starter is None else f"<@{starter}>: ")
    users = [] if starter is None else [discord.Object(starter)]
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=users)
    channel = client.get_partial_messageable(result.channel_id)
    await channel.send(text, file=picture, allowed_mentions=mentions)


class RecordCommands(Commands):
    """Tournaments of the stored strategies, ratings, stats, history, analysis and forget-me."""

    @app_commands.command(name="tournament", description="Every stored strategy plays every other")
    @app_commands.describe(rules="The rule set", fmt="exact win rates, or 9 sampled games per pair")
    @app_commands.rename(fmt="format")
    @app_commands.choices(rules=RULES, fmt=[app_commands.Choice(name=name, value=name) for name in FORMATS])
    async def tournament(
        self, interaction: discord.Interaction[Any], rules: str = DEFAULT_RULES, fmt: str = FORMATS[0]
    ) -> None:
        await require_staff(interaction, self.parts)
        tournaments = self.parts.services.tournaments
        channel = interaction.channel_id
        async with tournaments.reserve(guild_of(interaction), rules, fmt, channel_id=channel) as draw:
            await interaction.response.defer(thinking=True)  # refusals came before: private
            result = await tournaments.play(draw, player(interaction.user), Progress(interaction))
        # Public, with owners' display names in it: a name such as "@everyone" or "<@id>" pings no one.
        if answerable(interaction):
            text, picture = await standings_message(result)
            await interaction.edit_original_response(
                content=text, attachments=[picture], allowed_mentions=discord.AllowedMentions.none()
            )
        else:  # a long tournament outlived the answer's token
            await announce(interaction.client, result)
        await tournaments.shown(result.id)

    @app_commands.command(name="standings", description="The standings of this server's latest tournament")
    @app_commands.describe(rules="Only tournaments under this rule set (default: any)")
    @app_commands.choices(rules=RULES)
    async def standings(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        found = await self.parts.services.tournaments.latest(guild_of(interaction), rules)
        if found is None:
            kind = "" if rules is None else f"{get_rules(rules).name} "
            await interaction.response.send_message(
                linked(
                    interaction,
                    f"No {kind}tournament has been played on this server yet: course staff start one with "
                    "/hog tournament.",
                ),
                ephemeral=True,
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, picture = await standings_message(found, f"Played {timestamp(found.finished_at)}. ")
        await interaction.followup.send(
            text,
            file=picture,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="leaderboard", description="The best rated players of this server")
    @app_commands.describe(rules="The rule set")
    @app_commands.choices(rules=RULES)
    async def leaderboard(self, interaction: discord.Interaction[Any], rules: str = DEFAULT_RULES) -> None:
        found = await self.parts.services.ratings.leaderboard(rules, guild_id=guild_of(interaction))
        embed = contest_embeds.leaderboard(found, rules)
        embed.description = linked(interaction, embed.description or "")  # "/hog challenge someone", a tap
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="stats", description="Games, wins, habits and rating of a player")
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = player(user or interaction.user)
        embed, chart = await stats_message(self.parts, who, guild_of(interaction))
        view = with_buttons(share_button("stats", who.id))
        files = [] if chart is None else [chart]
        await interaction.followup.send(embed=embed, files=files, view=view, ephemeral=True)

    @app_commands.command(name="history", description="A player's latest games")
    @app_commands.describe(user="Whose games (default: yours)")
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        who = user or interaction.user
        found = await self.parts.services.ratings.history(who.id, guild_of(interaction))
        embed = contest_embeds.history(found, who.display_name)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="analyze", description="How the chances moved in a game, and its mistakes")
    @app_commands.describe(match="The match number (in the board's footer)")
    async def analyze(self, interaction: discord.Interaction[Any], match: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_analysis(self.parts, interaction, match)

    @app_commands.command(name="forget-me", description="Delete your strategies and your name from records")
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetButton())
        await interaction.response.send_message(FORGET, view=view, ephemeral=True)
