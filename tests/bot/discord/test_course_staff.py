"""Course staff run the contest from a TA role, over SimCord: a manager names the staff role, and a TA
without Manage Server runs tournaments and contests and deletes anyone's strategy, while students hear the
project's own refusal; staff see every entry before the close, confirm before closing early; reminders a
day and an hour before the close ping only the role staff chose, once each; and a whole contest run as
staff would, from the opening to the gradebook, read as a spreadsheet reads it."""

import csv
import io
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord

from bot.config import Settings
from bot.discord.contest_embeds import TO
from bot.discord.contests import entries_list
from bot.domain.contests import Contest, ContestStatus, Entry, Listed, Member, Practice
from bot.services.contests.gradebook import COLUMNS, FORMULA_STARTS
from hogengine.solver import exact_winrate
from hogengine.strategies import always_roll, table_from_function
from tests.bot.contest_fields import circle
from tests.bot.discord.harness import World, mention, private, said
from tests.bot.discord.test_contests import buttons
from tests.bot.discord.transcript import Transcript
from tests.course import COURSE_FILES
from tests.hang import HANG
from tests.helpers import HOG

RULES = "swine-align"
TITLE = "CS 61A Hog Contest"


@dataclass
class Course:
    """The course's roles on the server: TAs (no Manage Server) and students (a role that can be pinged)."""

    ta: simcord.MemberActor
    ta_role: simcord.RoleHandle
    students: simcord.RoleHandle


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The bot's default time for a file: a course hog.py plays games when it loads."""
    return settings.model_copy(update={"upload_time_limit_seconds": 10.0})


@pytest.fixture
async def course(world: World) -> Course:
    guild = world.channel.guild
    ta_role = guild.create_role("TA")
    students = guild.create_role("Students", mentionable=True)
    ta = guild.add_member(world.env.create_user("tara"), roles=[ta_role])
    for person in (world.alice, world.bob, world.carol):
        await person_gets(world, person, students)
    set_role = await world.mod.slash(world.channel, "hog staff role", role=ta_role)
    assert said(set_role).startswith("Members with the **TA** role are now course staff here")
    return Course(ta, ta_role, students)


async def person_gets(world: World, person: simcord.MemberActor, role: simcord.RoleHandle) -> None:
    world.env.backend.add_member_role(world.channel.guild.id, person.id, role.id)


def pings(world: World, message: discord.Message | simcord.ResponseMessage) -> tuple[list[int], list[int]]:
    """Whom a message notified: the users, and the roles."""
    stored = world.env.backend.get_message(world.channel.id, message.id)
    return list(stored.ping_user_ids), list(stored.ping_role_ids)


async def upload_table(world: World, person: simcord.MemberActor, name: str, table: object) -> None:
    result = await world.upload(person, f"{name}.json", json.dumps(table.tolist()).encode())  # type: ignore[attr-defined]
    assert private(result).embeds[0].title == f"Accepted: {name}", said(result)


NOT_STAFF = "Only course staff can do this: members with Manage Server or the TA role."


async def test_a_manager_names_the_staff_role_and_a_ta_without_manage_server_runs_what_staff_run(
    world: World, course: Course
) -> None:
    tables = circle()
    for person, name in zip((world.alice, world.bob, world.carol), tables, strict=True):
        await upload_table(world, person, name, tables[name])

    # Students: the project's own sentence, naming the staff role, for every staff command and button.
    for command, options in (
        ("hog tournament", {}),
        ("hog contest open", {"rules": RULES, "format": "exact", "closes": "in 3 days"}),
    ):
        refused = await world.alice.slash(world.channel, command, **options)
        assert world.domain_errors() == [said(refused)] == [NOT_STAFF]
    named = await world.alice.slash(world.channel, "hog staff role", role=course.students)
    assert (
        world.domain_errors() == [said(named)] == ["Only members with Manage Server choose the staff role."]
    )
    theirs = await world.alice.slash(world.channel, "hog strategy delete", name="ahead1-behind9")
    assert (
        world.domain_errors() == [said(theirs)] == ["Only bob (or course staff) can delete 'ahead1-behind9'."]
    )
    shown = await world.alice.slash(world.channel, "hog staff role")
    assert said(shown).startswith(
        f"Course staff here: members with Manage Server and members with the <@&{course.ta_role.id}> role."
    )

    # The TA: a tournament, and anyone's strategy deleted once confirmed.
    ran = await course.ta.slash(world.channel, "hog tournament")
    assert ran.response is not None and ran.response.content.startswith("**exact tournament** of Swine Align")
    asked = await course.ta.slash(world.channel, "hog strategy delete", name="ahead1-behind9")
    question = private(asked)
    assert question.content.startswith("Delete bob's strategy **ahead1-behind9** (Swine Align / Pig Pass)")
    assert buttons(question) == ["Delete", "Keep it"]
    await course.ta.click(question, label="Delete")
    assert (
        question.content == "Deleted **ahead1-behind9** (bob's) and its history. Past games keep their copy."
    )
    assert [s.name for s in await world.services.strategies.active(world.channel.guild.id)] == [
        "ahead1-behind5",
        "ahead7-behind2",
    ]

    # Without the staff role, the TA is a student again.
    cleared = await world.mod.slash(world.channel, "hog staff clear")
    assert said(cleared).startswith("No staff role now")
    again = await course.ta.slash(world.channel, "hog tournament")
    assert (
        world.domain_errors()
        == [said(again)]
        == ["Only course staff can do this: members with Manage Server."]
    )


async def test_staff_see_every_entry_before_the_close_and_confirm_before_closing_early(
    world: World, course: Course
) -> None:
    tables = circle()
    opened = await course.ta.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="in 3 days", title=TITLE
    )
    assert opened.response is not None and not opened.response.ephemeral
    await world.carol.slash(world.channel, "hog contest partner", user=world.alice)
    invitation = world.channel.last_message
    for person, name in zip((world.alice, world.bob), tables, strict=False):
        await upload_table(world, person, name, tables[name])
        await person.slash(world.channel, "hog contest enter", strategy=name)
    late = await world.alice.click(invitation, label="Accept")  # alice entered alone meanwhile: refused
    assert said(late) == (
        f"You already have an entry in this contest: leave it first ({mention(world, 'hog contest leave')}), "
        "then ask carol to invite you again."
    )
    await world.alice.slash(world.channel, "hog contest partner", user=world.carol)
    await world.carol.click(world.channel.last_message, label="Accept")
    student = await world.bob.slash(world.channel, "hog contest entries")
    assert world.domain_errors() == [said(student)] == [NOT_STAFF]

    listed = said(await course.ta.slash(world.channel, "hog contest entries"))
    lines = listed.splitlines()
    assert lines[0].startswith(f"**{TITLE}** (Swine Align / Pig Pass, exact): 2 entries, closes <t:")
    five = table_from_function(always_roll(5), RULES)
    rates = {name: exact_winrate(RULES, table, five).average for name, table in tables.items()}
    versus = exact_winrate(RULES, tables["ahead1-behind5"], tables["ahead1-behind9"]).average
    won = int(versus > 0.500001)
    assert lines[1].startswith("1. **alice & carol** · 'ahead1-behind5' · entered <t:")
    assert lines[1].endswith(
        f" · practice {won}{TO}{1 - won}, {rates['ahead1-behind5']:.1%} vs always_roll(5)"
    )
    assert lines[2].startswith("2. **bob** · 'ahead1-behind9' · entered <t:")
    assert lines[2].endswith(
        f" · practice {1 - won}{TO}{won}, {rates['ahead1-behind9']:.1%} vs always_roll(5)"
    )

    asked = await course.ta.slash(world.channel, "hog contest close")
    question = private(asked)
    assert question.content.startswith(
        f"Close **{TITLE}** (Swine Align / Pig Pass, exact) now? It was to close <t:"
    )
    assert "Its 2 entries can then no longer change" in question.content
    await course.ta.click(question, label="Keep it open")
    assert question.content.startswith(
        f"Nothing changed: **{TITLE}** (Swine Align / Pig Pass, exact) stays open"
    )
    assert (
        await world.services.contests.current(world.channel.guild.id)
    ).closes_at > world.env.now().timestamp()
    asked = await course.ta.slash(world.channel, "hog contest close")
    await course.ta.click(private(asked), label="Close now")
    assert private(asked).content.startswith("Closed: the final tournament of ")
    assert world.channel.last_message.content == (
        f"**{TITLE}** (Swine Align / Pig Pass, exact) has closed: the final tournament runs now, and its "
        "results are posted here when it ends."
    )
    await world.advance(60)
    assert "has closed: 2 entries." in world.channel.last_message.content


async def test_reminders_a_day_and_an_hour_before_the_close_ping_only_the_chosen_role_once(
    world: World, course: Course
) -> None:
    day = await course.ta.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="in 1441 minutes",
        title=TITLE, ping=course.students,
    )  # fmt: skip
    hour = await course.ta.slash(
        world.channel, "hog contest open", rules="pork-chop", format="exact", closes="in 61 minutes"
    )
    assert day.response is not None and hour.response is not None
    assert day.response.content.startswith(f"<@&{course.students.id}> **{TITLE}** (Swine Align / Pig Pass")
    assert pings(world, day.response) == ([], [course.students.id])
    assert pings(world, hour.response) == ([], [])
    await world.advance(120)
    await world.advance(600)  # ticks on: nothing is said twice
    reminders = sorted((m for m in world.channel.history() if "⏰" in m.content), key=lambda m: m.id)
    assert [m.content.split(" closes ")[1].split(",")[0] for m in reminders] == ["in an hour", "in 24 hours"]
    hourly, daily = reminders  # the sooner close first
    assert daily.content.startswith(
        f"<@&{course.students.id}> ⏰ **{TITLE}** (Swine Align / Pig Pass, exact)"
    )
    assert "with 0 entries so far" in daily.content
    assert pings(world, daily) == ([], [course.students.id])
    assert hourly.content.startswith("⏰ **Hog contest** (Pork Chop, exact) closes in an hour")
    assert pings(world, hourly) == ([], [])


COURSE_HOG = """TEAM_NAME = {team!r}


def final_strategy(score, opponent_score):
    {special}return {ahead} if score >= opponent_score else {behind}
"""


def hog_py(team: str, ahead: int, behind: int, special: str = "") -> bytes:
    """A student's contest file: a TEAM_NAME and a final_strategy (the circle's tables, as the course
    writes them)."""
    return COURSE_HOG.format(team=team, ahead=ahead, behind=behind, special=special).encode()


@dataclass
class Class:
    """The students of the whole run besides alice, bob and carol: dan (whose display name a spreadsheet
    would run), erin and frank."""

    dan: simcord.MemberActor
    erin: simcord.MemberActor
    frank: simcord.MemberActor


SOLUTION = COURSE_FILES[0]  # fa20_solution.py
HOSTILE_TEAM = '=HYPERLINK("http://x.example","prize") @everyone'
NEAR = "if (score, opponent_score) == (60, 28):\n        return 2\n    "


async def students_enter(world: World, course: Course, seen: Transcript) -> Class:
    """Four students upload their hog.py (alice the project's whole file, as the course hands it out) and
    one a JSON table, and enter; carol asks dan to be her
    partner; three link their course ids."""
    guild = world.channel.guild
    dan, erin, frank = (guild.add_member(world.env.create_user(name)) for name in ("=2+5", "erin", "frank"))
    for person in (dan, erin, frank):
        await person_gets(world, person, course.students)
    files = {
        world.alice: SOLUTION.source,  # the course's whole hog.py (dice, ucb)
        world.bob: hog_py(HOSTILE_TEAM, 1, 9),
        world.carol: hog_py("Hogwarts", 7, 2),
        erin: hog_py("Near Miss", 1, 9, special=NEAR),  # bob's but for one choice: 27.1065% to his 27.1043%
    }
    for person, source in files.items():
        uploaded = await world.upload(person, "hog.py", source)
        seen.private(person.name, uploaded)
        (mine,) = await world.services.strategies.active(guild.id, person.id)
        seen.private(person.name, await person.slash(world.channel, "hog contest enter", strategy=mine.name))
    await upload_table(world, frank, "twin", circle()["ahead1-behind9"])  # bob's table: a shared place
    await frank.slash(world.channel, "hog contest enter", strategy="twin")
    seen.look("four students upload their hog.py and one a JSON table, and enter")
    invited = await world.carol.slash(world.channel, "hog contest partner", user=dan)
    seen.look("carol asks dan to be her partner")
    seen.private(dan.name, await dan.click(world.channel.last_message, label="Accept"))
    seen.look("dan accepts: the invitation loses its buttons, carol is told")
    assert invited.response is not None and world.message(invited.response.id).components == []
    for person, course_id in ((world.alice, "3031000001"), (dan, "-3031000004"), (world.bob, "bob@b.edu")):
        seen.private(person.name, await person.slash(world.channel, "hog link", course_id=course_id))
    return Class(dan, erin, frank)


async def staff_close(world: World, course: Course, seen: Transcript) -> discord.Message:
    """The TA lists the entries, the reminder comes a day before the close, the TA closes the contest
    early (confirming), and the final's results are posted: the post."""
    listing = await course.ta.slash(world.channel, "hog contest entries")
    seen.private("tara", listing)
    assert said(listing).splitlines()[0].startswith(f"**{TITLE}** (Swine Align / Pig Pass, exact): 5 entries")
    await world.advance(120)
    seen.look("a day before the close: the reminder")
    (reminded,) = [m for m in world.channel.history() if "⏰" in m.content]
    assert (
        pings(world, reminded) == ([], [course.students.id]) and "with 5 entries so far" in reminded.content
    )
    asked = await course.ta.slash(world.channel, "hog contest close")
    seen.private("tara", asked)
    seen.private("tara", await course.ta.click(private(asked), label="Close now"))
    await world.advance(60)
    seen.look("tara closes it early, after confirming; the final runs and its results are posted")
    (post,) = [m for m in world.channel.history() if "has closed: 5 entries." in m.content]
    assert pings(world, post) == ([], [])
    return post


async def check_results(world: World, post: discord.Message, students: Class) -> None:
    """The posted table ranks by what it shows: bob and frank (one table) share a place and a rate, erin is
    told from them by the digits that decide; every student hears their place by a DM that links here."""
    final = await world.services.contests.final(world.channel.guild.id)
    lines = post.content.splitlines()
    start = lines.index("```")
    table = [line.split() for line in lines[start + 2 : lines.index("```", start + 1)]]
    by_number = {str(e.result.number): e for e in final.placed if e.result is not None}
    ranked = sorted(final.placed, key=lambda e: (-e.result.wins, -e.result.baseline))  # type: ignore[union-attr]
    assert [by_number[row[1]].lead_id for row in table] == [e.lead_id for e in ranked]
    twins = [row for row in table if by_number[row[1]].lead_id in (world.bob.id, students.frank.id)]
    assert twins[0][0] == twins[1][0] and twins[0][4] == twins[1][4]  # one place, one rate
    (erins,) = [row for row in table if by_number[row[1]].lead_id == students.erin.id]
    assert erins[4] != twins[0][4] and erins[4][:4] == twins[0][4][:4] and len(erins[4]) > len("27.1%")
    assert lines[-1] == (
        "Ranked by matches won, then by the last column: the exact win rate against always_roll(5), to more "
        "decimals where one would not tell two places apart; entries equal on both share a place."
    )
    for person in (world.alice, students.dan, students.frank):
        (dm,) = [m.content for m in person.user.dm_channel.history()]
        assert "on **Hog Club** was number **" in dm and dm.endswith(post.jump_url)


async def check_gradebook(world: World, gradebook: str, students: Class) -> None:
    """The gradebook as a spreadsheet reads it: no cell starts a formula, a row per student, names and team
    names as written, the course ids linked, places and extra credit as posted."""
    final = await world.services.contests.final(world.channel.guild.id)
    cells = list(csv.reader(io.StringIO(gradebook)))
    assert tuple(cells[0]) == COLUMNS
    assert [cell for row in cells for cell in row if cell.startswith(FORMULA_STARTS)] == []
    rows = {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in cells[1:]}
    people = (world.alice, world.bob, world.carol, students.dan, students.erin, students.frank)
    assert len(cells) == 1 + len(people) and set(rows) == {str(p.id) for p in people}  # the pair's two too
    dan, bob = rows[str(students.dan.id)], rows[str(world.bob.id)]
    assert dan["name"] == "'=2+5"  # as Discord showed it, made text
    assert bob["team_name"] == "'" + HOSTILE_TEAM  # as hog.py wrote it (no zero-width space)
    linked = [rows[str(person.id)]["course_id"] for person in (world.alice, students.dan, students.erin)]
    assert linked == ["3031000001", "'-3031000004", ""]
    for entry in final.placed:
        for member in entry.members:
            got = rows[str(member.id)]
            assert (got["place"], got["extra_credit"]) == (
                str(entry.result.place),
                str(max(0, 4 - entry.result.place)),
            )  # type: ignore[union-attr]


async def test_a_whole_contest_run_by_a_ta_from_the_opening_to_the_gradebook(
    world: World, course: Course, tmp_path: Path
) -> None:
    """A TA without Manage Server opens the contest pinging the students; students upload their hog.py,
    enter (a pair by invitation), link their course ids; the TA lists the entries, the reminder comes a day
    before, the TA closes early after confirming; the results are posted ranked by the rate they show;
    each student hears their place by DM; the TA exports the gradebook, which a spreadsheet opens without
    running anything, and the record, which replays. The sitting is printed (pytest -s) for a person."""
    seen = Transcript(world)
    opened = await course.ta.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="in 1441 minutes",
        title=TITLE, timezone="America/Los_Angeles", ping=course.students,
    )  # fmt: skip
    assert opened.response is not None and pings(world, opened.response) == ([], [course.students.id])
    seen.look("tara (TA, no Manage Server) opens the contest, pinging @Students")
    students = await students_enter(world, course, seen)
    post = await staff_close(world, course, seen)
    await check_results(world, post, students)

    export = await course.ta.slash(world.channel, "hog contest export")
    seen.private("tara", export)
    contest = (await world.services.contests.final(world.channel.guild.id)).contest
    got = {attachment.filename: await attachment.read() for attachment in private(export).attachments}
    gradebook = got[f"contest-{contest.id}-gradebook.csv"].decode()
    await check_gradebook(world, gradebook, students)
    record = tmp_path / "record.json"
    record.write_bytes(got[f"contest-{contest.id}-record.json"])
    replayed = subprocess.run(
        [*HOG, "tournament", "--replay", str(record)],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    assert replayed.returncode == 0, replayed.stderr
    print(seen.text())  # the sitting, for a person to read (pytest -s)
    print(gradebook)


def test_a_class_sized_entries_list_fits_a_message_and_comes_whole_as_a_file() -> None:
    contest = Contest(7, 1, 2, RULES, "exact", TITLE, 3, 1_700_000_000.0, 1_700_900_000.0, ContestStatus.OPEN)
    listed = [
        Listed(
            Entry(7, lead, (Member(lead, f"*student* {lead}"), Member(lead + 1000, None)), lead, f"s{lead}",
                  entered_at=1_700_000_000.0 + lead),
            f"s{lead}", f"Team {lead}", Practice(lead % 5, 120 - lead % 5, 0.5 + lead / 1000, 0),
        )
        for lead in range(1, 122)
    ]  # fmt: skip

    text, file = entries_list(contest, listed)

    assert file is not None and len(text) <= 2000
    lines = text.splitlines()
    assert lines[1] == (
        r"1. **\*student\* 1 & someone** · 's1' (Team 1) · entered <t:1700000001:f> · practice "
        f"1{TO}119, 50.1% vs always_roll(5)"
    )
    assert lines[-1] == f"The first {len(lines) - 2} of 121 entries; every entry is in the file."
    whole = file.fp.read().decode().splitlines()
    assert len(whole) == 121 and whole[0] == (
        "1. *student* 1 & someone · 's1' (Team 1) · entered 2023-11-14 22:13 UTC · practice "
        f"1{TO}119, 50.1% vs always_roll(5)"
    )
