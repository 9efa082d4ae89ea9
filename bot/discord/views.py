"""Stateless buttons: each custom_id carries what the press means; every press re-reads the match.

`hog:play:<match>:<turn>:<choice>`, `hog:accept|decline|cancel:<match>`, `hog:rematch:<match>`,
`hog:analysis:<match>`, `hog:dice:<match>`, `hog:forget` (whoever presses it), and after an upload
`hog:try:<strategy>` and `hog:enter:<strategy>` — all far below Discord's 100 characters (a strategy's name
is at most 32). The turn number makes a stale or double press a StaleAction; a stale press on a board draws
the board again from the database (it may lag behind the game after a crash) and says so, unless it was the
person's own repeated press.
"""

import re
from dataclasses import replace
from typing import Any, ClassVar

import discord

from bot.discord.analysis import send_analysis
from bot.discord.buttons import HogButton
from bot.discord.embeds import dice_check
from bot.discord.identity import guild_of, player
from bot.discord.mentions import linked
from bot.discord.parts import Parts
from bot.discord.sharing import ShareButton, share_button, with_buttons
from bot.domain.errors import ContestRefused
from bot.services import Match, MatchStatus, StoredStrategy
from hogengine.game import choice_label, distinct_choices
from hogengine.rules import get_rules
from hogengine.text import counted

ROW = 5  # buttons per row
REMATCHABLE = (MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.TIMEOUT)


class PlayButton(HogButton, template=r"hog:play:(?P<match>\d+):(?P<turn>\d+):(?P<choice>-?\d+)"):
    """Play one choice on one turn of one match."""

    def __init__(self, match_id: int, turn: int, choice: int, label: str) -> None:
        style = discord.ButtonStyle.primary if choice > 0 else discord.ButtonStyle.success
        button = discord.ui.Button[Any](
            label=label, style=style, custom_id=f"hog:play:{match_id}:{turn}:{choice}", row=_row(choice)
        )
        super().__init__(button, match_id)
        self.match_id: int = match_id
        self.turn, self.choice = turn, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "PlayButton":
        label = getattr(item, "label", None) or ""
        return cls(int(match["match"]), int(match["turn"]), int(match["choice"]), label)

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        played = await parts.services.games.play(self.match_id, interaction.user.id, self.turn, self.choice)
        await parts.coach.pressed(interaction, played.match, self.turn)
        await parts.follow_up.moved_on(played.match)  # the house bot moves whether or not the board shows
        await parts.boards.show(self.match_id, interaction)


class ChallengeButton(HogButton, template=r"hog:(?P<action>accept|decline|cancel):(?P<match>\d+)"):
    """Answer a challenge: the opponent accepts or declines; the challenger cancels."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def __init__(self, action: str, match_id: int) -> None:
        button = discord.ui.Button[Any](
            label=action.title(), style=self.STYLES[action], custom_id=f"hog:{action}:{match_id}"
        )
        super().__init__(button, match_id)
        self.match_id: int = match_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "ChallengeButton":
        return cls(match["action"], int(match["match"]))

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        answer = getattr(parts.services.games, self.action)
        await answer(self.match_id, interaction.user.id)
        await parts.boards.show(self.match_id, interaction)


class RematchButton(HogButton, template=r"hog:rematch:(?P<match>\d+)"):
    """Vote for a rematch of a closed game; once both sides want it, the new board is posted below."""

    def __init__(self, match_id: int) -> None:
        button = discord.ui.Button[Any](
            label="Rematch", style=discord.ButtonStyle.primary, custom_id=f"hog:rematch:{match_id}"
        )
        super().__init__(button, match_id)
        self.match_id: int = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "RematchButton":
        return cls(int(match["match"]))

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        rematch = await parts.services.games.rematch(self.match_id, interaction.user.id)
        try:
            if rematch is not None:
                await parts.boards.post(rematch.id, interaction)  # if it cannot be, the vote is taken back
                await parts.follow_up.moved_on(rematch)
        finally:
            await parts.boards.show(self.match_id, interaction)


class AnalysisButton(HogButton, template=r"hog:analysis:(?P<match>\d+)"):
    """Privately, for whoever presses it: the game's win-probability chart and each side's mistakes."""

    ANSWERS_PRIVATELY = True

    def __init__(self, match_id: int) -> None:
        button = discord.ui.Button[Any](
            label="Analysis", style=discord.ButtonStyle.secondary, custom_id=f"hog:analysis:{match_id}"
        )
        super().__init__(button, match_id)
        self.match_id: int = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "AnalysisButton":
        return cls(int(match["match"]))

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        await send_analysis(parts, interaction, self.match_id)


class DiceButton(HogButton, template=r"hog:dice:(?P<match>\d+)"):
    """Privately, for whoever presses it: the dice commitment in full, the seed once the game is over, and
    how to check every roll."""

    ANSWERS_PRIVATELY = True

    def __init__(self, match_id: int) -> None:
        button = discord.ui.Button[Any](
            label="Verify dice", style=discord.ButtonStyle.secondary, custom_id=f"hog:dice:{match_id}", row=0
        )
        super().__init__(button, match_id)
        self.match_id: int = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "DiceButton":
        return cls(int(match["match"]))

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        match = await parts.services.games.get(self.match_id)
        await interaction.followup.send(linked(interaction, dice_check(match)), ephemeral=True)


class StrategyButton(HogButton, template=r"hog:(?!)"):  # never matches: the base of the two below
    """A next step after an upload: a button for one stored strategy, by its name (`hog:<ACTION>:<name>`)."""

    ACTION: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]

    def __init__(self, name: str) -> None:
        button = discord.ui.Button[Any](
            label=self.LABEL, style=self.STYLE, custom_id=f"hog:{self.ACTION}:{name}"
        )
        super().__init__(button, None)
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "StrategyButton":
        return cls(match["name"])


class TryButton(StrategyButton, template=r"hog:try:(?P<name>.{1,64})"):
    """After an upload: play the stored strategy now, as `/hog vs-bot strategy:` does (a board below)."""

    ACTION, LABEL, STYLE = "try", "Play it", discord.ButtonStyle.primary

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        services, guild = parts.services, guild_of(interaction)
        stored = await services.strategies.opponent(guild, self.name, None, None)
        match = await services.games.vs_bot(
            interaction.channel_id or 0,
            player(interaction.user),
            stored.rules,
            strategy=stored,
            guild_id=guild,
        )
        await parts.boards.post(match.id, interaction)


class EnterButton(StrategyButton, template=r"hog:enter:(?P<name>.{1,64})"):
    """After an upload: make the strategy the person's entry in the open contest of its rule set."""

    ANSWERS_PRIVATELY = True
    ACTION, LABEL, STYLE = "enter", "Enter the contest", discord.ButtonStyle.success

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        contest, entry = await parts.services.contests.enter(
            guild_of(interaction), player(interaction.user), self.name
        )
        name = discord.utils.escape_markdown(entry.strategy_name or self.name)
        rules = get_rules(contest.rules).name
        text = (
            f"Entered **{name}** in the {rules} contest. Later uploads of it count until the close; "
            "/hog contest status shows your entry."
        )
        await interaction.followup.send(linked(interaction, text), ephemeral=True)


async def after_upload(parts: Parts, guild_id: int, strategy: StoredStrategy) -> discord.ui.View:
    """The next steps an accepted upload offers: play it now, enter it in the open contest of its rule set
    (when one is open), or share it with the channel."""
    buttons: list[discord.ui.Item[Any]] = [TryButton(strategy.name)]
    try:
        await parts.services.contests.current(guild_id, strategy.rules)
        buttons.append(EnterButton(strategy.name))
    except ContestRefused:
        pass  # no contest open for its rule set
    return with_buttons(*buttons, share_button("strategy", strategy.name))


class ForgetButton(HogButton, template=r"hog:forget"):
    """The confirmation of `/hog forget-me`: forgets whoever presses it (never someone named in the id)."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button[Any](
                label="Forget me", style=discord.ButtonStyle.danger, custom_id="hog:forget"
            ),
            None,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "ForgetButton":
        return cls()

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        done = await parts.services.privacy.forget(interaction.user.id)
        versions, games = (
            counted(done.strategies_deleted, "strategy version"),
            counted(done.matches_anonymised, "game"),
        )
        text = f"Done: {versions} deleted, and {games} now played by an anonymous player."
        await interaction.edit_original_response(content=text, view=None)


ITEMS = (
    PlayButton,
    ChallengeButton,
    RematchButton,
    AnalysisButton,
    DiceButton,
    ForgetButton,
    ShareButton,
    TryButton,
    EnterButton,
)


def _row(choice: int) -> int:
    """Specials (-1 and Free Bacon) on the first row, then five dice counts per row."""
    return 0 if choice <= 0 else 1 + (choice - 1) // ROW


def controls(match: Match) -> discord.ui.View | None:
    """The buttons a match shows now, in three rows at most: each distinct legal choice (greyed out while the
    house bot moves) and Verify dice, the challenge answers, or Rematch (until both sides voted), Analysis
    and Verify dice."""
    view = discord.ui.View(timeout=None)
    if match.status is MatchStatus.PENDING:
        for action in ChallengeButton.STYLES:
            view.add_item(ChallengeButton(action, match.id))
    elif match.status is MatchStatus.ACTIVE:
        # While the house bot moves, the person's own buttons stay, greyed out: the board keeps its height.
        waiting = match.is_bot_turn
        state = replace(match.state, mover=1 - match.state.mover) if waiting else match.state
        for choice in distinct_choices(state):
            button = PlayButton(match.id, match.state.turn, choice, choice_label(state, choice))
            button.item.disabled = waiting
            view.add_item(button)
        view.add_item(DiceButton(match.id))
    elif match.status in REMATCHABLE:
        if not all(match.rematch_votes):
            view.add_item(RematchButton(match.id))
        if match.state.turn > 0:
            view.add_item(AnalysisButton(match.id))
        view.add_item(DiceButton(match.id))
    return view if view.children else None
