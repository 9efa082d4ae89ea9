"""Contests on Discord: their words (the opening, a person's status, the results as the seeds post them),
the partner invitation's buttons, the staff's files, and the closer the clock pokes: it plays every
final that is due (once, whatever other processes do) and posts what was stored but never posted."""

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.discord.buttons import HogButton
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.identity import player
from bot.discord.parts import Parts
from bot.domain.contests import Contest, ContestStatus, Entry, Member, Status
from bot.domain.errors import NotYourInvitation
from bot.domain.matches import Player
from bot.services.contests.service import BASELINE, Final
from hogengine.rules import get_rules
from hogengine.text import counted, percent

log = logging.getLogger(__name__)

LIMIT = 2000  # characters in one Discord message
HEADER = f"{'Rank':>4}  {'Entry':>5}  {'Wins':>4}  {'Losses':>6}  vs {BASELINE}"
PLACES = ("1st", "2nd", "3rd")


def when(seconds: float) -> str:
    """A moment every reader sees in their own time zone: its date and time, and how far off it is."""
    return f"<t:{int(seconds)}:F> (<t:{int(seconds)}:R>)"


def title(contest: Contest) -> str:
    """The contest's name in bold, its rule set and format after."""
    named = escape_markdown(contest.title) if contest.title else "Hog contest"
    return f"**{named}** ({get_rules(contest.rules).name}, {contest.format})"


def who(members: tuple[Member, ...]) -> str:
    """An entry's people, as names (a forgotten person stays anonymous)."""
    return " & ".join(escape_markdown(member.name or "someone") for member in members)


def opened(contest: Contest) -> str:
    """The public word that a contest is open, and how to enter."""
    return (
        f"{title(contest)} is open until {when(contest.closes_at)}.\n"
        f"Upload a {get_rules(contest.rules).name} strategy with `/hog upload strategy`, then enter it with "
        "`/hog contest enter`, alone or with a partner (`/hog contest partner`). One entry per person; "
        "the final tournament runs by itself at the close and its results are posted here."
    )


def _entry_line(entry: Entry, person_id: int) -> str:
    partner = entry.partner_of(person_id)
    strategy = f"'{escape_markdown(entry.strategy_name)}'" if entry.strategy_name else "no strategy yet"
    pair = f", with **{who((partner,))}**" if partner is not None else ""
    return f"Your entry: {strategy}{pair}."


def status(found: Status, person_id: int) -> str:
    """What `/hog contest status` tells one person, privately."""
    contest = found.contest
    entries = counted(found.entries, "entry", "entries")
    if contest.status is ContestStatus.OPEN:
        lines = [f"{title(contest)}: closes {when(contest.closes_at)} · {entries}."]
    else:
        lines = [f"{title(contest)}: closed {when(contest.closed_at or contest.closes_at)} · {entries}."]
    entry = found.entry
    if entry is None:
        lines.append("You have no entry." if contest.status is ContestStatus.OPEN else "You had no entry.")
    elif entry.result is not None:
        lines.append(private_result(contest, entry, found.entries))
    else:
        lines.append(_entry_line(entry, person_id))
        practice = found.practice
        if practice is not None:
            lines.append(
                f"Practice standing against the current field: {counted(practice.wins, 'win')}, "
                f"{counted(practice.losses, 'loss', 'losses')}; "
                f"{percent(practice.baseline)} against {BASELINE}."
            )
    return "\n".join(lines)


def private_result(contest: Contest, entry: Entry, entries: int) -> str:
    """An entrant's own word of the final: their entry's number and rank."""
    result = entry.result
    if result is None:
        raise ValueError("an entry without a result")
    return (
        f"Your entry in {title(contest)} was number **{result.number}**: rank **{result.place}** of "
        f"{entries} ({counted(result.wins, 'win')}, {counted(result.losses, 'loss', 'losses')}; "
        f"{percent(result.baseline)} against {BASELINE})."
    )


def table_lines(final: Final) -> list[str]:
    """The seeds' table: Ranking, Entry number, Wins, Losses, Win rate against always_roll(5)."""
    rows = []
    for entry in final.placed:
        r = entry.result
        assert r is not None  # placed entries have results
        rows.append(f"{r.place:>4}  {r.number:>5}  {r.wins:>4}  {r.losses:>6}  {percent(r.baseline)}")
    return [HEADER, *rows]


def results(final: Final) -> tuple[str, discord.File | None]:
    """The results post: the head, the top three named with partners, and the table (the whole table
    attached as a file when it does not fit in one message)."""
    contest, placed = final.contest, final.placed
    head = [f"{title(contest)} has closed: {counted(len(placed), 'entry', 'entries')}."]
    if not placed:
        return head[0] + " Nobody entered.", None
    head.append("Each entry was assigned a random number for anonymity.")
    for entry, place in zip(placed[:3], PLACES, strict=False):
        team = f" ({escape_markdown(entry.team_name)})" if entry.team_name else ""
        head.append(f"{place}: **{who(entry.members)}**{team}")
    lines = table_lines(final)
    text = "\n".join([*head, "```", *lines, "```"])
    if len(text) <= LIMIT:
        return text, None
    shown, room = [], LIMIT - len("\n".join(head)) - 120
    for line in lines:
        room -= len(line) + 1
        if room < 0:
            break
        shown.append(line)
    note = f"The first {len(shown) - 1} of {len(placed)} places; every place is in the file."
    file = discord.File(io.BytesIO("\n".join(lines).encode()), filename=f"contest-{contest.id}-results.txt")
    return "\n".join([*head, "```", *shown, "```", note]), file


def exports(final: Final, csv_text: str, record: str | None) -> list[discord.File]:
    """The staff's downloads: the results as CSV, and the final as a `hog tournament --replay` record."""
    files = [discord.File(io.BytesIO(csv_text.encode()), filename=f"contest-{final.contest.id}-results.csv")]
    if record is not None:
        name = f"contest-{final.contest.id}-record.json"
        files.append(discord.File(io.BytesIO(record.encode()), filename=name))
    return files


# The partner invitation.


class PartnerButton(
    HogButton,
    template=r"hog:contest-(?P<answer>accept|decline):(?P<contest>\d+):(?P<inviter>\d+):(?P<invitee>\d+)",
):
    """Accept or decline an invitation to enter a contest as a pair: only the invitee may answer, and
    accepting checks everything again (they may have entered meanwhile)."""

    ANSWERS_PRIVATELY = True

    def __init__(self, answer: str, contest_id: int, inviter: int, invitee: int) -> None:
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        custom_id = f"hog:contest-{answer}:{contest_id}:{inviter}:{invitee}"
        super().__init__(discord.ui.Button[Any](label=answer.title(), style=style, custom_id=custom_id), None)
        self.answer, self.contest_id, self.inviter, self.invitee = answer, contest_id, inviter, invitee

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "PartnerButton":
        return cls(match["answer"], int(match["contest"]), int(match["inviter"]), int(match["invitee"]))

    async def press(self, interaction: discord.Interaction[Any], parts: Parts) -> None:
        if interaction.user.id != self.invitee:
            raise NotYourInvitation((await _member(interaction, self.invitee)).name)
        message = interaction.message
        if self.answer == "decline":
            await interaction.followup.send("You declined.", ephemeral=True)
            if message is not None:
                await message.edit(content=f"<@{self.invitee}> declined the invitation.", view=None)
            return
        inviter = await _member(interaction, self.inviter)
        entry = await parts.services.contests.accept(self.contest_id, inviter, player(interaction.user))
        strategy = f"'{escape_markdown(entry.strategy_name)}'" if entry.strategy_name else "no strategy yet"
        await interaction.followup.send(
            f"You now enter with {who((entry.members[0],))}: {strategy}.", ephemeral=True
        )
        if message is not None:
            text = f"<@{self.invitee}> and <@{self.inviter}> enter as a pair."
            await message.edit(content=text, view=None, allowed_mentions=discord.AllowedMentions.none())


async def _member(interaction: discord.Interaction[Any], user_id: int) -> Player:
    """The inviter as the services know people (their name as the server shows it, or their account's)."""
    guild = interaction.guild
    found = guild.get_member(user_id) if guild is not None else None
    return player(found or await interaction.client.fetch_user(user_id))


def invitation(
    contest: Contest, inviter: discord.abc.User, invitee: discord.abc.User
) -> tuple[str, discord.ui.View]:
    """The public invitation, mentioning the invitee, with their two answers."""
    view = discord.ui.View(timeout=None)
    for answer in ("accept", "decline"):
        view.add_item(PartnerButton(answer, contest.id, inviter.id, invitee.id))
    text = (
        f"{invitee.mention}: **{escape_markdown(inviter.display_name)}** asks you to enter {title(contest)} "
        "with them as a pair (one entry for both of you)."
    )
    return text, view


ITEMS = (PartnerButton,)


# The close.


async def post(client: discord.Client, parts: Parts, final: Final) -> None:
    """Post a closed contest's results in the channel it was opened in, then tell each entrant their number
    and rank privately (a DM; `/hog contest status` says it too, for those whose DMs are closed)."""
    text, file = results(final)
    channel = client.get_partial_messageable(final.contest.channel_id)
    kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if file is not None:
        kwargs["file"] = file
    await channel.send(text, **kwargs)
    await parts.services.contests.posted(final.contest.id)
    count = len(final.placed)
    for entry in final.placed:
        for member in entry.members:
            try:
                user = client.get_user(member.id) or await client.fetch_user(member.id)
                await user.send(private_result(final.contest, entry, count))
            except DISCORD_FAILURES as error:  # DMs closed, or the person gone: status says it too
                log.info("could not tell %s their contest result: %s", member.id, error)


class Closer:
    """Plays the finals that are due and posts what was stored but not posted, one round at a time in the
    background (the clock pokes it every tick; a round under way is not started twice)."""

    def __init__(self, client: discord.Client, parts: Parts) -> None:
        self._client, self._parts = client, parts
        self._round: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Start a round unless one is under way."""
        if self._round is None or self._round.done():
            self._round = asyncio.create_task(self._run(), name="hog-contest-close")
            self._parts.in_flight.track(self._round)

    async def _run(self) -> None:
        contests = self._parts.services.contests
        try:
            await contests.close_due()
            for final in await contests.unposted():
                try:
                    await post(self._client, self._parts, final)
                except (discord.NotFound, discord.Forbidden) as error:  # its channel is gone: never again
                    log.warning("a contest's results cannot be posted in their channel: %s", error)
                    await contests.posted(final.contest.id)
                except DISCORD_FAILURES as error:
                    log.warning("could not post a contest's results: %s", error)
        except Exception:
            log.exception("the contest closer failed")
