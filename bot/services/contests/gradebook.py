"""A closed contest as course staff grade it: one row per student (a pair's two members each get the
entry's row), in a CSV that spreadsheets open without running anything in it."""

import csv
import io
from collections.abc import Iterable, Mapping

from bot.domain.contests import Entry
from bot.domain.tournaments import as_fraction, tie_breaks_shown

COLUMNS = (
    "discord_id",
    "name",
    "course_id",
    "entry",
    "place",
    "wins",
    "losses",
    "rate_vs_always_roll_5",
    "extra_credit",
    "team_name",
)
# What a spreadsheet reads as the start of a formula (OWASP, CSV injection): such a cell is written after a
# single quote, which makes it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
RATE_DECIMALS = 6  # at least; more where two places differ only further on


def inert(cell: str) -> str:
    """A cell a spreadsheet shows as the text it is, never runs as a formula."""
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell


def gradebook(placed: Iterable[Entry], course_ids: Mapping[int, str]) -> str:
    """The CSV of these entries (by place): per student, their Discord id, name as Discord showed it (none
    once forgotten), the course id they linked (if any), the entry's number, place, wins and losses, its
    exact win rate against always_roll(5) to the digits that decide its place, the seeds' extra credit,
    and the entry's TEAM_NAME as written. Every cell is quoted, and none starts a formula."""
    entries = [entry for entry in placed if entry.result is not None]
    results = [entry.result for entry in entries if entry.result is not None]
    rates = tie_breaks_shown([(r.wins, r.baseline) for r in results], RATE_DECIMALS, as_fraction)
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    writer.writerow(COLUMNS)
    for entry, result, rate in zip(entries, results, rates, strict=True):
        team = entry.team_name or ""
        for member in entry.members:
            cells = (
                str(member.id),
                member.name or "",
                course_ids.get(member.id, ""),
                str(result.number),
                str(result.place),
                str(result.wins),
                str(result.losses),
                rate,
                str(result.extra_credit),
                team,
            )
            writer.writerow([inert(cell) for cell in cells])
    return rows.getvalue()
