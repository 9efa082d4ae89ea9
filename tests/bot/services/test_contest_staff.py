"""Contests as course staff run them, on each backend: places ranked by the rate the table shows (a field
where the tie-breaks disagree), shared places; the staff role and the course ids students link (erased by
forget-me); the entries list with every practice standing; the reminders a day and an hour before the close,
each once whatever process asks; invitations that end (answered, overtaken, closed) and whose inviter is
told once; and the gradebook, a row per student, safe to open in a spreadsheet."""

import csv
import io
import json

import pytest

from bot.domain.contests import InvitationKey, InvitationState, placed
from bot.domain.errors import BadCourseId, InvitationClosed
from bot.domain.matches import Player
from bot.domain.shards import Shards
from bot.services import Services
from bot.services.contests.gradebook import COLUMNS, FORMULA_STARTS
from bot.services.contests.service import ContestService
from bot.storage import players as player_table
from hogengine.solver import exact_winrate, exact_winrates, tournament_exact
from hogengine.solver.tournament import THRESHOLD
from hogengine.strategies import Table, always_roll, table_from_function
from tests.bot.contest_fields import circle, nearly
from tests.helpers import ALICE, BOB, CAROL, GUILD, FakeClock, entries, upload_file

RULES = "swine-align"
DAN = Player(1004, "dan")
ERIN = Player(1005, "erin")
CHANNEL = 4242
HERE = (GUILD, CHANNEL)
HOUR = 3600.0


async def upload(services: Services, owner: Player, name: str, table: Table) -> None:
    data = json.dumps(table.tolist()).encode()
    await upload_file(services.strategies, GUILD, owner, f"{name}.json", data, rules=RULES)


async def open_contest(contests: ContestService, closes: str = "in 3 days", **options: object) -> int:
    contest = await contests.open(
        GUILD, CHANNEL, ALICE, rules=RULES, fmt="exact", closes=closes, title="Fall contest", **options
    )
    return contest.id


def baseline(table: Table) -> float:
    return exact_winrate(RULES, table, table_from_function(always_roll(5), RULES)).average


async def test_places_follow_the_rate_the_table_shows_where_the_mean_rate_would_order_them_otherwise(
    services: Services, clock: FakeClock
) -> None:
    contests = services.contests
    tables = circle()
    contest_id = await open_contest(contests, "in 1 hour")
    for person, name in zip((ALICE, BOB, CAROL), tables, strict=True):
        await upload(services, person, name, tables[name])
        await contests.enter(GUILD, person, name)
    clock.advance(HOUR)
    await contests.close_due()
    final = await contests.final(GUILD)
    name_of = {ALICE.id: "ahead1-behind5", BOB.id: "ahead1-behind9", CAROL.id: "ahead7-behind2"}
    shown = [(name_of[e.lead_id], e.result.place, e.result.wins, e.result.baseline) for e in final.placed]  # type: ignore[union-attr]
    assert [row[:3] for row in shown] == [
        ("ahead1-behind9", 1, 1),
        ("ahead1-behind5", 2, 1),
        ("ahead7-behind2", 3, 1),
    ]
    assert [rate for *_, rate in shown] == pytest.approx([baseline(tables[n]) for n, *_ in shown], abs=1e-12)
    # The field where the two orders differ: `hog tournament`'s exact format breaks the tie by the mean win
    # rate against the field, which puts them the other way round (this is what a contest must not do).
    mean_order = [row.name for row in tournament_exact(RULES, list(tables.items())).rows]
    assert mean_order == ["ahead7-behind2", "ahead1-behind9", "ahead1-behind5"]
    assert mean_order != [name for name, *_ in shown]
    assert (await contests.final(GUILD)).contest.id == contest_id


async def test_entries_equal_on_wins_and_rate_share_their_place(services: Services, clock: FakeClock) -> None:
    contests = services.contests
    tables = circle()
    field = [
        (ALICE, "ahead7-behind2", tables["ahead7-behind2"]),
        (BOB, "ahead1-behind9", tables["ahead1-behind9"]),
        (CAROL, "twin", tables["ahead1-behind9"]),  # the same table as bob's: the same wins and rate
        (DAN, "near", nearly(tables["ahead1-behind9"])),
    ]
    await open_contest(contests, "in 1 hour")
    for person, name, table in field:
        await upload(services, person, name, table)
        await contests.enter(GUILD, person, name)
    clock.advance(HOUR)
    await contests.close_due()
    results = {e.lead_id: e.result for e in (await contests.final(GUILD)).placed}
    assert {lead: (r.place, r.wins) for lead, r in results.items() if r} == {
        ALICE.id: (1, 3),
        DAN.id: (2, 0),  # 27.1065% against always_roll(5): ahead of the twins' 27.1043%
        BOB.id: (3, 0),
        CAROL.id: (3, 0),
    }
    assert [r.extra_credit for r in placed([r for r in results.values() if r])] == [3, 2, 1, 1]


async def test_staff_role_and_course_ids_which_forget_me_erases(services: Services) -> None:
    staff = services.contests.staff
    assert await staff.role(GUILD) is None
    await staff.set_role(GUILD, 555, ALICE)
    await staff.set_role(GUILD, 556, ALICE)
    assert (await staff.role(GUILD), await staff.role(GUILD + 1)) == (556, None)
    await staff.set_role(GUILD, None, ALICE)
    assert await staff.role(GUILD) is None

    for hostile in ("", "two words", "=HYPERLINK(1)", "x" * 65, "<@123>"):
        with pytest.raises(BadCourseId, match="A course id is 1 to 64 letters"):
            await staff.link(GUILD, BOB, hostile)
    assert await staff.link(GUILD, BOB, "  3034567890 ") == "3034567890"
    assert await staff.link(GUILD, BOB, "bob.b@berkeley.edu") == "bob.b@berkeley.edu"  # replaces it
    await staff.link(GUILD + 1, BOB, "-other-course")
    assert await staff.linked(GUILD, BOB.id) == "bob.b@berkeley.edu"
    await services.privacy.forget(BOB.id)
    assert (await staff.linked(GUILD, BOB.id), await staff.linked(GUILD + 1, BOB.id)) == (None, None)


async def test_the_entries_list_shows_every_entry_with_its_practice_standing(
    services: Services, clock: FakeClock
) -> None:
    contests = services.contests
    tables = dict(entries())
    await open_contest(contests)
    for person, name in ((ALICE, "fours"), (BOB, "sixes"), (CAROL, "course")):
        await upload(services, person, name, tables[name])
        clock.advance(60)
        await contests.enter(GUILD, person, name)
    await contests.invite(HERE, DAN, ERIN, False)
    await contests.accept(1, DAN, ERIN)  # a pair without a strategy yet
    contest, listed = await contests.listing(GUILD)
    assert [[m.name for m in each.entry.members] for each in listed] == [
        ["alice"],
        ["bob"],
        ["carol"],
        ["dan", "erin"],
    ]
    assert [each.strategy_name for each in listed] == ["fours", "sixes", "course", None]
    assert [each.entry.entered_at for each in listed[:3]] == [clock() - 120, clock() - 60, clock()]
    names = ("fours", "sixes", "course")
    for each, name in zip(listed, names, strict=False):
        others = [tables[other] for other in names if other != name]
        rates = exact_winrates(RULES, [(tables[name], other) for other in others])
        wins = sum(rate.average > THRESHOLD for rate in rates)
        assert each.practice is not None
        assert (each.practice.wins, each.practice.losses) == (wins, 2 - wins)
        assert each.practice.baseline == pytest.approx(baseline(tables[name]), abs=1e-12)
    assert listed[3].practice is None and contest.title == "Fall contest"
    # Every pair was met once: asking again computes nothing.
    again = (await contests.listing(GUILD))[1]
    assert [each.practice.computed for each in again[:3]] == [0, 0, 0]  # type: ignore[union-attr]


async def test_a_reminder_a_day_and_an_hour_before_the_close_each_once_for_every_process(
    services: Services, clock: FakeClock
) -> None:
    contests = services.contests
    other = ContestService(services.db, clock)  # another process on the same database
    elsewhere = ContestService(services.db, clock, shards=Shards(2, frozenset({1 - (GUILD >> 22) % 2})))
    contest_id = await open_contest(contests, ping_role_id=9090)
    await contests.invite(HERE, ALICE, BOB, False)
    await contests.accept(contest_id, ALICE, BOB)
    assert await contests.reminders_due() == []
    clock.advance(2 * 86400 - 60)  # 24 hours and a minute before the close: not yet
    assert await contests.reminders_due() == []
    clock.advance(61)
    assert await elsewhere.reminders_due() == []  # another shard's process leaves it alone
    (day,) = await contests.reminders_due()
    assert (day.contest.id, day.hours, day.entries, day.contest.ping_role_id) == (contest_id, 24, 1, 9090)
    assert await contests.reminders_due() == [] and await other.reminders_due() == []
    await contests.unsent(day)  # Discord did not take it: the next tick tries again
    (again,) = await other.reminders_due()
    assert again.hours == 24
    clock.advance(23 * HOUR)
    (hour,) = await other.reminders_due()
    assert hour.hours == 1 and await contests.reminders_due() == []
    clock.advance(HOUR)
    assert await contests.reminders_due() == []  # closed now: no more

    # A contest opened 2 hours before its close, or found 30 minutes before it (a bot down meanwhile),
    # sends only the reminder of its time: never a "24 hours" one late.
    await contests.close_due()
    await open_contest(contests, "in 2 hours")
    clock.advance(90 * 60)
    (late,) = await contests.reminders_due()
    assert late.hours == 1 and await contests.reminders_due() == []


async def test_invitations_end_answered_overtaken_or_closed_and_each_inviter_is_told_once(
    services: Services, clock: FakeClock
) -> None:
    contests = services.contests
    contest_id = await open_contest(contests, "in 1 hour")
    for inviter, invitee in ((ALICE, BOB), (ALICE, CAROL), (DAN, BOB), (ERIN, DAN)):
        await contests.invite(HERE, inviter, invitee, False)
    for number, (inviter, invitee) in enumerate(((ALICE, BOB), (ALICE, CAROL), (DAN, BOB))):
        await contests.invitation_posted(InvitationKey(contest_id, inviter.id, invitee.id), 100 + number)
    assert await contests.lagging_invitations() == []

    await contests.accept(contest_id, ALICE, BOB)
    lagging = {(i.inviter.id, i.invitee.id): i for i in await contests.lagging_invitations()}
    assert {key: (i.state, i.to_tell) for key, i in lagging.items()} == {
        (ALICE.id, BOB.id): (InvitationState.ACCEPTED, True),
        (ALICE.id, CAROL.id): (InvitationState.VOID, False),  # alice has her partner
        (DAN.id, BOB.id): (InvitationState.VOID, False),  # so has bob
    }
    assert [m.name for m in lagging[(DAN.id, BOB.id)].partners] == ["alice", "bob"]
    told = lagging[(ALICE.id, BOB.id)]
    assert await contests.to_tell(told) and not await contests.to_tell(told)  # once, whoever asks
    for invitation in lagging.values():
        await contests.invitation_shown(invitation)
    assert await contests.lagging_invitations() == []

    await services.games.set_turn_notices(DAN, False)  # dan turned his notices off
    await contests.decline(InvitationKey(contest_id, ERIN.id, DAN.id))
    with pytest.raises(InvitationClosed):
        await contests.decline(InvitationKey(contest_id, ERIN.id, DAN.id))
    (declined,) = await contests.lagging_invitations()
    assert declined.state is InvitationState.DECLINED and await contests.to_tell(declined)  # erin is told
    await contests.invitation_shown(declined)

    await contests.invite(HERE, ERIN, DAN, False)  # asked again, and still open at the close
    await services.games.set_turn_notices(ERIN, False)
    clock.advance(HOUR)
    await contests.close_due()
    (closed,) = await contests.lagging_invitations()
    assert (closed.state, closed.partners, closed.to_tell) == (InvitationState.VOID, (), False)


async def test_the_gradebook_has_a_row_per_student_and_no_cell_a_spreadsheet_would_run(
    services: Services, clock: FakeClock
) -> None:
    contests = services.contests
    tables = circle()
    hostile = Player(1006, '=HYPERLINK("http://x","x")')
    plus, at = Player(1007, "+1 cmd|' /C calc'!A0"), Player(1008, "@SUM(1+1)*cmd|' /C calc'!A0")
    await open_contest(contests, "in 1 hour")
    await upload(services, ALICE, "ahead1-behind5", tables["ahead1-behind5"])
    await upload(services, hostile, "ahead1-behind9", tables["ahead1-behind9"])
    await upload(services, plus, "ahead7-behind2", tables["ahead7-behind2"])
    for person, name in ((ALICE, "ahead1-behind5"), (hostile, "ahead1-behind9"), (plus, "ahead7-behind2")):
        await contests.enter(GUILD, person, name)
    await contests.invite(HERE, plus, at, False)
    await contests.accept(1, plus, at)
    await contests.staff.link(GUILD, ALICE, "-3034567890")
    await contests.staff.link(GUILD, at, "at@berkeley.edu")
    await services.db.write(lambda conn: player_table.upsert_players(conn, [Player(ALICE.id, "\tal")], 0))
    clock.advance(HOUR)
    await contests.close_due()
    final = await contests.final(GUILD)
    text = await contests.export_gradebook(final)

    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == COLUMNS
    assert all(not cell.startswith(FORMULA_STARTS) for row in rows for cell in row)
    assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())  # quoted
    assert '"\'=HYPERLINK(""http://x"",""x"")"' in text
    by_id = {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]}
    assert len(rows) == 1 + 4  # four students in three entries
    assert by_id[str(ALICE.id)]["name"] == "'\tal"  # as Discord showed it, made inert
    assert by_id[str(ALICE.id)]["course_id"] == "'-3034567890"
    assert by_id[str(hostile.id)]["name"] == "'" + hostile.name
    assert by_id[str(at.id)]["course_id"] == "at@berkeley.edu" and by_id[str(hostile.id)]["course_id"] == ""
    assert by_id[str(at.id)]["name"] == "'" + at.name
    assert {key: by_id[str(at.id)][key] for key in ("entry", "place", "wins", "losses")} == {
        key: by_id[str(plus.id)][key] for key in ("entry", "place", "wins", "losses")
    }  # a pair's two students share their entry's row
    places = {row["discord_id"]: (row["place"], row["extra_credit"]) for row in by_id.values()}
    assert places == {
        str(hostile.id): ("1", "3"),
        str(ALICE.id): ("2", "2"),
        str(plus.id): ("3", "1"),
        str(at.id): ("3", "1"),
    }
    assert float(by_id[str(hostile.id)]["rate_vs_always_roll_5"]) == pytest.approx(
        baseline(tables["ahead1-behind9"]), abs=1e-6
    )
