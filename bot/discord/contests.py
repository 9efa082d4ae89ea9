"""Contests on Discord, in words: the opening and the reminders, a person's status, the entries list staff
see, the results as the seeds post them (ranked by what the table shows), each entrant's word of their
result, and the staff's files."""

import io
from collections.abc import Sequence
from datetime import UTC, datetime

import discord
from discord.utils import escape_markdown

from bot.discord.contest_embeds import TO
from bot.domain.contests import Contest, ContestStatus, Entry, Listed, Member, Status
from bot.domain.tournaments import tie_breaks_shown
from bot.services.contests.service import BASELINE, Final
from hogengine.rules import get_rules
from hogengine.text import counted, percent

LIMIT = 2000  # characters in one Discord message
# The seeds' columns, at most 32 characters a row so a phone shows the table whole (the rate's column is
# named in words under it).
COLUMNS = (("Rank", 4), ("Entry", 5), ("Wins", 4), ("Losses", 6))
RATE = "Rate"
RANKING = f"Ranked by matches won, then by the last column: the exact win rate against {BASELINE}"
PLACES = ("1st", "2nd", "3rd")
JUMP = "https://discord.com/channels"


def when(seconds: float) -> str:
    """A moment every reader sees in their own time zone: its date and time, and how far off it is."""
    return f"<t:{int(seconds)}:F> (<t:{int(seconds)}:R>)"


def title(contest: Contest) -> str:
    """The contest's name in bold, its rule set and format after."""
    named = escape_markdown(contest.title) if contest.title else "Hog contest"
    return f"**{named}** ({get_rules(contest.rules).name}, {contest.format})"


def who(members: Sequence[Member]) -> str:
    """An entry's people, as names (a forgotten person stays anonymous)."""
    return " & ".join(escape_markdown(member.name or "someone") for member in members)


def pinging(contest: Contest) -> tuple[str, discord.AllowedMentions]:
    """What starts a contest's announcement, and whom it may notify: the role its staff chose, only."""
    if contest.ping_role_id is None:
        return "", discord.AllowedMentions.none()
    role = discord.Object(contest.ping_role_id)
    return f"<@&{contest.ping_role_id}> ", discord.AllowedMentions(everyone=False, users=False, roles=[role])


def opened(contest: Contest) -> str:
    """The public word that a contest is open, and how to enter."""
    ping, _ = pinging(contest)
    return (
        f"{ping}{title(contest)} is open until {when(contest.closes_at)}.\n"
        f"Upload a {get_rules(contest.rules).name} strategy with `/hog upload strategy`, then enter it with "
        "`/hog contest enter`, alone or with a partner (`/hog contest partner`). One entry per person; "
        "the final tournament runs by itself at the close and its results are posted here, ranked by matches "
        f"won, then by the exact win rate against {BASELINE}."
    )


def reminder(contest: Contest, hours: int, entries: int) -> str:
    """The public reminder `hours` before the close."""
    ping, _ = pinging(contest)
    soon = "in an hour" if hours == 1 else f"in {hours} hours"
    return (
        f"{ping}⏰ {title(contest)} closes {soon}, at <t:{int(contest.closes_at)}:F> "
        f"(<t:{int(contest.closes_at)}:R>), with {counted(entries, 'entry', 'entries')} so far. Enter or "
        "change yours with `/hog contest enter` before then; `/hog contest status` shows your practice "
        "standing."
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


def results_link(contest: Contest) -> str | None:
    """The address of the contest's results post, once posted."""
    if contest.results_message_id is None:
        return None
    return f"{JUMP}/{contest.guild_id}/{contest.channel_id}/{contest.results_message_id}"


def private_result(contest: Contest, entry: Entry, entries: int, server: str | None = None) -> str:
    """An entrant's own word of the final: their entry's number and rank (on which server, for a DM), and
    where the results were posted."""
    result = entry.result
    if result is None:
        raise ValueError("an entry without a result")
    where = "" if server is None else f" on **{escape_markdown(server)}**"
    link = results_link(contest)
    return (
        f"Your entry in {title(contest)}{where} was number **{result.number}**: rank **{result.place}** of "
        f"{entries} ({counted(result.wins, 'win')}, {counted(result.losses, 'loss', 'losses')}; "
        f"{percent(result.baseline)} against {BASELINE})." + (f" The results: {link}" if link else "")
    )


def table(final: Final) -> tuple[list[str], str]:
    """The seeds' table (Ranking, Entry number, Wins, Losses, Win rate against always_roll(5), to the digits
    that decide a place where one decimal would not), and what ranks it, in words to go under it."""
    results = [entry.result for entry in final.placed if entry.result is not None]
    rates = tie_breaks_shown([(r.wins, r.baseline) for r in results])
    width = max(map(len, [RATE, *rates]))
    rows = [
        _row((r.place, r.number, r.wins, r.losses), rate, width)
        for r, rate in zip(results, rates, strict=True)
    ]
    note = RANKING
    if any(len(rate) > len(percent(r.baseline)) for r, rate in zip(results, rates, strict=True)):
        note += ", to more decimals where one would not tell two places apart"
    if len({r.place for r in results}) < len(results):
        note += "; entries equal on both share a place"
    return [_row([name for name, _ in COLUMNS], RATE, width), *rows], f"{note}."


def _row(cells: Sequence[object], rate: str, width: int) -> str:
    """One row of the results table: each cell right-aligned under its column's head, the rate last."""
    return " ".join(
        [*(f"{cell:>{size}}" for cell, (_, size) in zip(cells, COLUMNS, strict=True)), f"{rate:>{width}}"]
    )


def _top(final: Final) -> list[str]:
    """The top three places named with their members (and team names), as the seeds announce them."""
    lines = []
    for entry in final.placed:
        if entry.result is None or entry.result.place > len(PLACES):
            break
        team = f" ({escape_markdown(entry.team_name)})" if entry.team_name else ""
        lines.append(f"{PLACES[entry.result.place - 1]}: **{who(entry.members)}**{team}")
    return lines


def results(final: Final) -> tuple[str, discord.File | None]:
    """The results post: the head, the top three named with partners, the table and what ranks it (the
    whole table attached as a file when it does not fit in one message)."""
    contest, placed = final.contest, final.placed
    head = [f"{title(contest)} has closed: {counted(len(placed), 'entry', 'entries')}."]
    if not placed:
        return head[0] + " Nobody entered.", None
    head += ["Each entry was assigned a random number for anonymity.", *_top(final)]
    lines, note = table(final)
    text = "\n".join([*head, "```", *lines, "```", note])
    if len(text) <= LIMIT:
        return text, None
    shown = _fitting(lines, LIMIT - len("\n".join(head)) - len(note) - 120)
    more = f"The first {len(shown) - 1} of {len(placed)} places; every place is in the file."
    whole = "\n".join([*lines, "", note])
    file = discord.File(io.BytesIO(whole.encode()), filename=f"contest-{contest.id}-results.txt")
    return "\n".join([*head, "```", *shown, "```", note, more]), file


def _fitting(lines: Sequence[str], room: int) -> list[str]:
    """The first lines that fit in `room` characters, one a line."""
    shown = []
    for line in lines:
        room -= len(line) + 1
        if room < 0:
            break
        shown.append(line)
    return shown


def exports(final: Final, gradebook: str, record: str | None) -> list[discord.File]:
    """The staff's downloads: the gradebook as CSV, and the final as a `hog tournament --replay` record."""
    name = f"contest-{final.contest.id}-gradebook.csv"
    files = [discord.File(io.BytesIO(gradebook.encode()), filename=name)]
    if record is not None:
        files.append(
            discord.File(io.BytesIO(record.encode()), filename=f"contest-{final.contest.id}-record.json")
        )
    return files


# What staff see before the close.


def _listed_line(number: int, listed: Listed, for_discord: bool) -> str:
    """One entry of the staff's list: its members, strategy (and team), when it was made, its practice."""
    entry = listed.entry

    def plain(text: str) -> str:  # Markdown is Discord's: a file shows names as they are
        return escape_markdown(text) if for_discord else text

    names = " & ".join(plain(member.name or "someone") for member in entry.members)
    if listed.strategy_name is None:
        named = entry.strategy_name
        strategy = "no strategy yet" if named is None else f"'{plain(named)}' (deleted)"
    else:
        named_for = listed.team_name not in (None, listed.strategy_name)  # a name of its own
        team = f" ({plain(listed.team_name or '')})" if named_for else ""
        strategy = f"'{plain(listed.strategy_name)}'{team}"
    made = ""
    if entry.entered_at is not None:
        made = (
            f" · entered <t:{int(entry.entered_at)}:f>"
            if for_discord
            else f" · entered {datetime.fromtimestamp(entry.entered_at, UTC):%Y-%m-%d %H:%M} UTC"
        )
    practice = listed.practice
    standing = (
        ""
        if practice is None
        else f" · practice {practice.wins}{TO}{practice.losses}, {percent(practice.baseline)} vs {BASELINE}"
    )
    bold = "**" if for_discord else ""
    return f"{number}. {bold}{names}{bold} · {strategy}{made}{standing}"


def entries_list(contest: Contest, listed: Sequence[Listed]) -> tuple[str, discord.File | None]:
    """The staff's entries list, privately: every entry (members, strategy, when it was made, its practice
    standing against the current field); the whole list attached as a file when it does not fit."""
    head = (
        f"{title(contest)}: {counted(len(listed), 'entry', 'entries')}, closes {when(contest.closes_at)}. "
        f"Practice: wins{TO}losses against the other entries now, and the rate against {BASELINE}."
    )
    if not listed:
        return f"{head}\nNo entries yet.", None
    lines = [_listed_line(number, each, True) for number, each in enumerate(listed, 1)]
    text = "\n".join([head, *lines])
    if len(text) <= LIMIT:
        return text, None
    shown = _fitting(lines, LIMIT - len(head) - 80)
    whole = "\n".join(_listed_line(number, each, False) for number, each in enumerate(listed, 1))
    file = discord.File(io.BytesIO(whole.encode()), filename=f"contest-{contest.id}-entries.txt")
    more = f"The first {len(shown)} of {len(listed)} entries; every entry is in the file."
    return "\n".join([head, *shown, more]), file
