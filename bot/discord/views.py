"""Stateless buttons: each custom_id carries what the press means; every press re-reads the match.

`hog:play:<match>:<turn>:<choice>`, `hog:accept|decline|cancel:<match>`, `hog:rematch:<match>`,
`hog:analysis:<match>` and `hog:forget` (whoever presses it) — all far below Discord's 100 characters.
The turn number makes a stale or double press a StaleAction; a stale press on a board draws the board
again from the database (it may lag behind the game after a crash) and says so.
"""

import re
from dataclasses import replace
from typing import Any, ClassVar

import discord

from bot.discord.analysis import send_analysis
from bot.discord.errors import report
from bot.discord.parts import Parts, parts_of
from bot.domain.errors import BoardRedrawn
from bot.services import ChallengeClosed, Match, MatchStatus, StaleAction
from hogengine.game import choice_label, distinct_choices
from hogengine.text import counted

ROW = 5  # buttons per row
REMATCHABLE = (MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.TIMEOUT)


class HogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hog:(?!)"):  # never matches
    """A button (of some match; the base of the registered ones). The one view-level error handler: every
    press is admitted (not once the bot is stopping) and acknowledged first, a stale press on a board
    redraws it, and any failure goes to `report`."""

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
                raise BoardRedrawn(stale) from None
        except Exception as error:
            await report(interaction, error, self.match_id)

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        """What the button does once the press is acknowledged."""
        raise NotImplementedError


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
        await parts.follow_up.moved_on(
            played.match
        )  # the house bot moves whether or not the board can be shown
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


ITEMS = (PlayButton, ChallengeButton, RematchButton, AnalysisButton, ForgetButton)


def _row(choice: int) -> int:
    """Specials (-1 and Free Bacon) on the first row, then five dice counts per row."""
    return 0 if choice <= 0 else 1 + (choice - 1) // ROW


def controls(match: Match) -> discord.ui.View | None:
    """The buttons a match shows now: each distinct legal choice (greyed out while the house bot moves),
    the challenge answers, or Rematch (until both sides voted) and Analysis."""
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
    elif match.status in REMATCHABLE:
        if not all(match.rematch_votes):
            view.add_item(RematchButton(match.id))
        if match.state.turn > 0:
            view.add_item(AnalysisButton(match.id))
    return view if view.children else None
