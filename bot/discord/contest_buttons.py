"""The buttons of contests and of what staff confirm: a partner invitation's Accept and Decline (its message
kept as the invitation stands: a finished one loses its buttons, and its inviter is told the answer once,
in a new message), and the confirmations before closing a contest early and before deleting a strategy.
Every press re-reads what it acts on, and a staff button asks again whether its presser is staff."""

import logging
import re
from typing import Any, ClassVar

import discord
from discord.utils import escape_markdown

from bot.discord.buttons import HogButton
from bot.discord.contests import JUMP, title, when, who
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.identity import guild_of, player
from bot.discord.parts import Parts
from bot.discord.staff import is_staff, require_staff
from bot.domain.contests import Contest, Invitation, InvitationKey, InvitationState, Member
from bot.domain.errors import NotYourInvitation
from bot.domain.matches import Player
from bot.domain.strategies import StoredStrategy
from hogengine.rules import get_rules
from hogengine.text import counted

log = logging.getLogger(__name__)

NOBODY = discord.AllowedMentions.none()


# The partner invitation.


class PartnerButton(
    HogButton,
    template=r"hog:contest-(?P<answer>accept|decline):(?P<contest>\d+):(?P<inviter>\d+):(?P<invitee>\d+)",
):
    """Accept or decline an invitation to enter a contest as a pair: only the invitee may answer, and
    accepting checks everything again (either may have entered with someone else meanwhile)."""

    ANSWERS_PRIVATELY = True

    def __init__(self, answer: str, key: InvitationKey) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        custom_id = f"hog:contest-{answer}:{key.contest_id}:{key.inviter_id}:{key.invitee_id}"
        super().__init__(discord.ui.Button[Any](label=answer.title(), style=style, custom_id=custom_id), None)
        self.answer, self.key = answer, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "PartnerButton":
        key = InvitationKey(int(match["contest"]), int(match["inviter"]), int(match["invitee"]))
        return cls(match["answer"], key)

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        if interaction.user.id != self.key.invitee_id:
            raise NotYourInvitation((await _member(interaction, self.key.invitee_id)).name)
        contests = parts.services.contests
        if self.answer == "decline":
            await contests.decline(self.key)
            await interaction.followup.send("You declined.", ephemeral=True)
        else:
            inviter = await _member(interaction, self.key.inviter_id)
            entry = await contests.accept(self.key.contest_id, inviter, player(interaction.user))
            named = entry.strategy_name
            strategy = f"'{escape_markdown(named)}'" if named else "no strategy yet"
            await interaction.followup.send(
                f"You now enter with {who(entry.members[:1])}: {strategy}.", ephemeral=True
            )
        await settle_invitations(interaction.client, parts)


async def _member(interaction: discord.Interaction[Any], user_id: int) -> Player:
    """Someone as the services know people (their name as the server shows it, or their account's)."""
    guild = interaction.guild
    found = guild.get_member(user_id) if guild is not None else None
    return player(found or await interaction.client.fetch_user(user_id))


def invitation_message(invitation: Invitation, contest: Contest) -> tuple[str, discord.ui.View | None]:
    """An invitation's message as it stands: open, with its answers; else what became of it, without."""
    inviter, invitee = invitation.inviter, invitation.invitee
    if invitation.state is InvitationState.OPEN:
        view = discord.ui.View(timeout=None)
        for answer in ("accept", "decline"):
            view.add_item(PartnerButton(answer, invitation.key))
        return (
            f"<@{invitee.id}>: **{who((inviter,))}** asks you to enter {title(contest)} with them as a pair "
            "(one entry for both of you).",
            view,
        )
    if invitation.state is InvitationState.ACCEPTED:
        return f"<@{invitee.id}> and <@{inviter.id}> enter as a pair.", None
    if invitation.state is InvitationState.DECLINED:
        return f"<@{invitee.id}> declined the invitation.", None
    why = (
        f"**{who(invitation.partners)}** now enter as a pair"
        if invitation.partners
        else f"{title(contest)} has closed"
    )
    return f"<@{invitee.id}>: **{who((inviter,))}**'s invitation is no longer open: {why}.", None


def told(invitation: Invitation, contest: Contest) -> str:
    """The inviter's word of the answer, in a new message that mentions only them."""
    where = f"{JUMP}/{invitation.guild_id}/{invitation.channel_id}/{invitation.message_id}"
    link = "" if invitation.message_id is None else f" {where}"
    answered = "accepted" if invitation.state is InvitationState.ACCEPTED else "declined"
    after = (
        f": you enter {title(contest)} together."
        if invitation.state is InvitationState.ACCEPTED
        else f" to enter {title(contest)} with you."
    )
    invitee = who((invitation.invitee,))
    return f"<@{invitation.inviter.id}>, **{invitee}** {answered} your invitation{after}{link}"


async def settle_invitations(client: discord.Client, parts: Parts) -> None:
    """Bring every finished invitation's message up to date (its buttons go) and tell each inviter whose
    invitation was answered, once (not those who turned their notices off): after each answer, and at each
    round of the contest closer, so a restart in between loses nothing."""
    contests = parts.services.contests
    for invitation in await contests.lagging_invitations():
        contest = await contests.get(invitation.contest_id)
        channel = client.get_partial_messageable(invitation.channel_id)
        try:
            if not invitation.shown:
                if invitation.message_id is not None:
                    text, view = invitation_message(invitation, contest)
                    await channel.get_partial_message(invitation.message_id).edit(
                        content=text, view=view, allowed_mentions=NOBODY
                    )
                await contests.invitation_shown(invitation)
            if invitation.to_tell and await contests.to_tell(invitation):
                mention = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(invitation.inviter.id)]
                )
                await channel.send(told(invitation, contest), allowed_mentions=mention)
        except (discord.NotFound, discord.Forbidden) as error:  # its message or channel is gone
            log.info("an invitation's message cannot be shown: %s", error)
            await contests.invitation_shown(invitation)
        except DISCORD_FAILURES as error:
            log.warning("could not show an invitation: %s", error)


def invitation(
    contest: Contest, inviter: discord.abc.User, invitee: discord.abc.User
) -> tuple[str, discord.ui.View]:
    """A new invitation's message, mentioning the invitee, with their two answers."""
    shown = Invitation(
        contest.id, Member(inviter.id, inviter.display_name), Member(invitee.id, invitee.display_name),
        contest.guild_id, 0, None, InvitationState.OPEN, shown=True, to_tell=False,
    )  # fmt: skip
    text, view = invitation_message(shown, contest)
    if view is None:
        raise ValueError("an open invitation without its answers")
    return text, view


# Questions staff (and owners) confirm: two buttons under a private question, yes or no.


class Confirmation(HogButton, template=r"hog:(?!)"):  # never matches: the base of the questions below
    """One answer to a private yes-or-no question about a subject (a contest, a strategy), named in the
    custom_id `<PREFIX>:<answer>:<subject>`; the answer edits the question."""

    PREFIX: ClassVar[str]
    ANSWERS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]]  # answer: label and style, yes first

    def __init__(self, answer: str, subject: str) -> None:
        label, style = self.ANSWERS[answer]
        custom_id = f"{self.PREFIX}:{answer}:{subject}"
        super().__init__(discord.ui.Button[Any](label=label, style=style, custom_id=custom_id), None)
        self.answer, self.subject = answer, subject

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "Confirmation":
        return cls(match["answer"], match["subject"])

    @classmethod
    def question(cls, subject: str) -> discord.ui.View:
        """The two answers, yes first."""
        view = discord.ui.View(timeout=None)
        for answer in cls.ANSWERS:
            view.add_item(cls(answer, subject))
        return view


class CloseButton(Confirmation, template=r"hog:contest-close:(?P<answer>now|keep):(?P<subject>\d+)"):
    """Staff confirm closing a contest before its time (or keep it open); asked again whether they are
    staff."""

    PREFIX = "hog:contest-close"
    ANSWERS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "now": ("Close now", discord.ButtonStyle.danger),
        "keep": ("Keep it open", discord.ButtonStyle.secondary),
    }

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        await require_staff(interaction, parts)
        contests = parts.services.contests
        if self.answer == "keep":
            contest = await contests.get(int(self.subject))
            await interaction.edit_original_response(
                content=f"Nothing changed: {title(contest)} stays open until {when(contest.closes_at)}.",
                view=None,
            )
            return
        contest = await contests.close_early(int(self.subject))
        await interaction.edit_original_response(
            content=f"Closed: the final tournament of {title(contest)} runs now, and its results are posted "
            f"in <#{contest.channel_id}> when it ends.",
            view=None,
        )
        channel = interaction.client.get_partial_messageable(contest.channel_id)
        await channel.send(
            f"{title(contest)} has closed: the final tournament runs now, and its results are posted here "
            "when it ends.",
            allowed_mentions=NOBODY,
        )


def close_confirmation(contest: Contest, entries: int) -> tuple[str, discord.ui.View]:
    """The question staff answer before a contest closes early, privately."""
    text = (
        f"Close {title(contest)} now? It was to close {when(contest.closes_at)}. Its "
        f"{counted(entries, 'entry', 'entries')} can then no longer change, the final tournament runs at "
        f"once and its results are posted in <#{contest.channel_id}>. This cannot be undone."
    )
    return text, CloseButton.question(str(contest.id))


class DeleteButton(Confirmation, template=r"hog:strategy-delete:(?P<answer>yes|keep):(?P<subject>.{1,40})"):
    """Confirm deleting a strategy, by name (its owner, or course staff: asked again), or keep it."""

    PREFIX = "hog:strategy-delete"
    ANSWERS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "yes": ("Delete", discord.ButtonStyle.danger),
        "keep": ("Keep it", discord.ButtonStyle.secondary),
    }

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        if self.answer == "keep":
            text = f"Nothing deleted: **{escape_markdown(self.subject)}** stays."
            await interaction.edit_original_response(content=text, view=None)
            return
        staff = await is_staff(interaction, parts)
        deleted = await parts.services.strategies.delete(
            guild_of(interaction), self.subject, interaction.user.id, staff
        )
        owner = escape_markdown(deleted.owner.name)
        whose = "" if deleted.owner.id == interaction.user.id else f" ({owner}'s)"
        await interaction.edit_original_response(
            content=f"Deleted **{escape_markdown(deleted.name)}**{whose} and its history. Past games keep "
            "their copy.",
            view=None,
        )


def delete_confirmation(
    strategy: StoredStrategy, asker_id: int, versions: int
) -> tuple[str, discord.ui.View]:
    """The question asked before a strategy is deleted, privately."""
    whose = "your" if strategy.owner.id == asker_id else f"{escape_markdown(strategy.owner.name)}'s"
    text = (
        f"Delete {whose} strategy **{escape_markdown(strategy.name)}** ({get_rules(strategy.rules).name}) "
        f"with its history ({counted(versions, 'version')})? Past games keep their copy; a contest entry "
        "naming it will have no strategy until another is entered. This cannot be undone."
    )
    return text, DeleteButton.question(strategy.name)


ITEMS = (PartnerButton, CloseButton, DeleteButton)
