"""The `/hog` command group: the game commands (challenge, vs-bot, forfeit, hint, export, rules) here,
with the strategy, record and contest commands of the other modules of this package."""

import io
import json
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import embeds
from bot.discord.commands.activity import ActivityCommands
from bot.discord.commands.common import RULES
from bot.discord.commands.contests import ContestCommands
from bot.discord.commands.front import FrontCommands
from bot.discord.commands.records import RecordCommands
from bot.discord.commands.strategies import StrategyCommands, strategy_for_rules
from bot.discord.errors import reply
from bot.discord.identity import guild_of, player
from bot.discord.notices import link
from bot.discord.parts import Parts
from bot.domain.errors import GameElsewhere, NoOpenGame, UnknownNoticeSetting
from bot.services import HOUSE_LEVELS, HouseLevel, Match, MatchStatus
from hogengine.game import choice_label
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.text import percent

LEVELS = [app_commands.Choice(name=level.value, value=level.value) for level in HOUSE_LEVELS]
Goal = app_commands.Range[int, 1, 100]
NOTICES = {
    "on": "You will get a message that mentions you when it's your move.",
    "off": "No more messages that mention you when it's your move. The board still shows whose move it is.",
}


@app_commands.guild_only()  # a game is played in a server channel, where both players can see it
class HogCog(
    FrontCommands,
    StrategyCommands,
    RecordCommands,
    ContestCommands,
    ActivityCommands,
    commands.GroupCog,
    group_name="hog",
    group_description="Hog, the dice game of CS 61A",
):
    """Every slash command; each one is a service call or two and a message."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        super().__init__()

    async def _my_match(self, interaction: discord.Interaction[Any]) -> Match:
        """The person's open game in this channel; else a refusal linking to their game elsewhere, if any."""
        games = self.parts.services.games
        match = await games.open_match_in_channel(interaction.channel_id or 0, interaction.user.id)
        if match is not None:
            return match
        elsewhere = await games.open_matches(guild_of(interaction), interaction.user.id)
        shown = next((found for found in elsewhere if found.message_id is not None), None)
        if shown is None or shown.message_id is None:
            raise NoOpenGame
        raise GameElsewhere(link(shown, shown.message_id))

    @app_commands.command(
        name="challenge", description="Challenge someone to a game of Hog, or their strategy"
    )
    @app_commands.describe(
        opponent="Who you want to play",
        rules="Which rule set (with a strategy: its own)",
        goal="Points to win",
        strategy="Play this stored strategy of theirs now, instead of waiting for them (unrated)",
    )
    @app_commands.choices(rules=RULES)
    @app_commands.autocomplete(strategy=strategy_for_rules)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        rules: str | None = None,
        goal: Goal = 100,
        strategy: str | None = None,
    ) -> None:
        if strategy is not None:
            await self._versus(interaction, rules, goal, strategy, owner=opponent)
            return
        match = await self.parts.services.games.challenge(
            interaction.channel_id or 0,
            player(interaction.user),
            player(opponent),
            opponent.bot,
            rules or DEFAULT_RULES,
            goal,
            guild_id=guild_of(interaction),
        )
        await self.parts.boards.post(match.id, interaction)

    @app_commands.command(name="vs-bot", description="Play against Hog Bot, or a stored strategy")
    @app_commands.describe(
        rules="Which rule set (with a strategy: its own)",
        goal="Points to win",
        level="How well Hog Bot plays",
        strategy="Play this server's stored strategy instead (anyone's: it replaces the level)",
    )
    @app_commands.choices(rules=RULES, level=LEVELS)
    @app_commands.autocomplete(strategy=strategy_for_rules)
    async def vs_bot(
        self,
        interaction: discord.Interaction[Any],
        rules: str | None = None,
        goal: Goal = 100,
        level: str = HouseLevel.EASY.value,
        strategy: str | None = None,
    ) -> None:
        if strategy is not None:
            await self._versus(interaction, rules, goal, strategy)
            return
        match = await self.parts.services.games.vs_bot(
            interaction.channel_id or 0,
            player(interaction.user),
            rules or DEFAULT_RULES,
            goal,
            level,
            guild_id=guild_of(interaction),
        )
        await self.parts.boards.post(match.id, interaction)

    async def _versus(
        self,
        interaction: discord.Interaction[Any],
        rules: str | None,
        goal: int,
        name: str,
        owner: discord.abc.User | None = None,
    ) -> None:
        """A game against a stored strategy (someone's, or `owner`'s), under its own rules, at once."""
        services = self.parts.services
        guild = guild_of(interaction)
        stored = await services.strategies.opponent(
            guild, name, rules, None if owner is None else player(owner)
        )
        match = await services.games.vs_bot(
            interaction.channel_id or 0,
            player(interaction.user),
            stored.rules,
            goal,
            strategy=stored,
            guild_id=guild,
        )
        await self.parts.boards.post(match.id, interaction)

    @app_commands.command(name="forfeit", description="Give up your game (or withdraw your challenge) here")
    async def forfeit(self, interaction: discord.Interaction[Any]) -> None:
        match = await self._my_match(interaction)
        closed = await self.parts.services.games.forfeit(match.id, interaction.user.id)
        gave_up = closed.status is MatchStatus.FORFEIT
        await reply(interaction, "You gave up. Good game!" if gave_up else "You withdrew the challenge.")
        await self.parts.boards.show(match.id, interaction)
        await self.parts.follow_up.moved_on(closed)

    @app_commands.command(name="hint", description="Ask the solver for the best move (only you see it)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        match = await self._my_match(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.parts.services.games.hint(match.id, interaction.user.id)

        def label(choice: int) -> str:
            return choice_label(hint.state, choice)

        lines = [
            f"Best: **{label(hint.best)}** — you win {percent(hint.win_probability)} of the time.",
            "```",
            *(f"{label(choice):>12}  {percent(chance):>6}" for choice, chance in sorted(hint.values.items())),
            "```",
        ]
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @app_commands.command(name="export", description="Download a game as `hog replay` input")
    @app_commands.describe(match="The match number (in the board's footer)")
    async def export(self, interaction: discord.Interaction[Any], match: int) -> None:
        replay = await self.parts.services.games.export(
            match, guild_id=guild_of(interaction), user_id=interaction.user.id
        )
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
        await interaction.response.send_message(embed=embeds.rules(get_rules(rules)), ephemeral=True)

    @app_commands.command(
        name="notices", description="Be told or not when it's your move (a message mentions you)"
    )
    @app_commands.describe(setting="on: a message mentions you when it's your move; off: no such message")
    async def notices(self, interaction: discord.Interaction[Any], setting: Literal["on", "off"]) -> None:
        if setting not in ("on", "off"):
            raise UnknownNoticeSetting
        wanted = setting == "on"
        await self.parts.services.games.set_turn_notices(player(interaction.user), wanted)
        await reply(interaction, NOTICES["on" if wanted else "off"])
