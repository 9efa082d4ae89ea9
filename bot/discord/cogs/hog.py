"""The `/hog` command group: challenge, vs-bot, forfeit, hint, export and rules."""

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.errors import reply
from bot.discord.rulebook import explain
from bot.services import BotLevel, HogError, Match, MatchStatus, Player
from hogengine.rules import DEFAULT_RULES, RULE_SETS, get_rules

if TYPE_CHECKING:
    from bot.discord.client import HogBot

RULES = [app_commands.Choice(name=rules.title[:100], value=rules.id) for rules in RULE_SETS]
LEVELS = [app_commands.Choice(name=level.value, value=level.value) for level in BotLevel]
Goal = app_commands.Range[int, 1, 100]


class NoOpenGame(HogError):  # noqa: N818 - named like the service's errors
    """A command about "your game" from someone with no open game in the channel."""


def player(user: discord.abc.User) -> Player:
    """A Discord user as the service knows people: id and display name."""
    return Player(user.id, user.display_name)


@app_commands.guild_only()  # a game is played in a server channel, where both players can see it
class HogCog(commands.GroupCog, group_name="hog", group_description="Hog, the dice game of CS 61A"):
    """Every slash command; each one is a single service call and a message."""

    def __init__(self, bot: "HogBot") -> None:
        self.bot = bot
        super().__init__()

    async def _my_match(self, interaction: discord.Interaction[Any]) -> Match:
        match = await self.bot.service.open_match_in_channel(interaction.channel_id or 0, interaction.user.id)
        if match is None:
            raise NoOpenGame("You have no open game in this channel.")
        return match

    @app_commands.command(name="challenge", description="Challenge someone to a game of Hog")
    @app_commands.describe(opponent="Who you want to play", rules="Which rule set", goal="Points to win")
    @app_commands.choices(rules=RULES)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        rules: str = DEFAULT_RULES,
        goal: Goal = 100,
    ) -> None:
        match = await self.bot.service.challenge(
            interaction.channel_id or 0, player(interaction.user), player(opponent), opponent.bot, rules, goal
        )
        await self.bot.boards.post(match.id, interaction)

    @app_commands.command(name="vs-bot", description="Play against the house bot")
    @app_commands.describe(rules="Which rule set", goal="Points to win", level="How well the bot plays")
    @app_commands.choices(rules=RULES, level=LEVELS)
    async def vs_bot(
        self,
        interaction: discord.Interaction[Any],
        rules: str = DEFAULT_RULES,
        goal: Goal = 100,
        level: str = BotLevel.EASY.value,
    ) -> None:
        match = await self.bot.service.vs_bot(
            interaction.channel_id or 0, player(interaction.user), rules, goal, level
        )
        await self.bot.boards.post(match.id, interaction)

    @app_commands.command(name="forfeit", description="Give up your game (or withdraw your challenge) here")
    async def forfeit(self, interaction: discord.Interaction[Any]) -> None:
        match = await self._my_match(interaction)
        closed = await self.bot.service.forfeit(match.id, interaction.user.id)
        gave_up = closed.status is MatchStatus.FORFEIT
        await reply(interaction, "You gave up. Good game!" if gave_up else "You withdrew the challenge.")
        await self.bot.boards.show(match.id)

    @app_commands.command(name="hint", description="Ask the solver for the best move (only you see it)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        match = await self._my_match(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.bot.service.hint(match.id, interaction.user.id)
        rules = get_rules(match.rules)
        lines = [
            f"Best: **{rules.choice_label(hint.best)}** — you win {hint.win_probability:.1%} of the time.",
            "```",
            *(
                f"{rules.choice_label(choice):>12}  {chance:6.1%}"
                for choice, chance in sorted(hint.values.items())
            ),
            "```",
        ]
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @app_commands.command(name="export", description="Download a game as `hog replay` input")
    @app_commands.describe(match="The match number (in the board's footer)")
    async def export(self, interaction: discord.Interaction[Any], match: int) -> None:
        replay = await self.bot.service.export(match)
        name = f"hog-match-{match}.json"
        data = io.BytesIO(json.dumps(replay, indent=2).encode())
        await interaction.response.send_message(
            f"Match {match}. Check it yourself: `hog replay < {name}`",
            file=discord.File(data, filename=name),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="How a rule set plays")
    @app_commands.describe(rules="Which rule set")
    @app_commands.choices(rules=RULES)
    async def rules(self, interaction: discord.Interaction[Any], rules: str = DEFAULT_RULES) -> None:
        ruleset = get_rules(rules)
        embed = discord.Embed(title=ruleset.title, description=explain(ruleset.id))
        await interaction.response.send_message(embed=embed, ephemeral=True)
