"""`/hog contest`: staff open and close (after a confirmation), people enter alone or as a pair (the
invitation's buttons, gone once it is answered), see their entry and its practice standing privately; at
the close the results are posted once in the contest's channel as the seeds post them, each entrant hears
their number and rank, and the staff's downloads (a gradebook, and a record that replays with
`hog tournament --replay`)."""

import csv
import io
import json
import subprocess
from pathlib import Path

import discord
import pytest
import simcord
from simcord.components import walk_components

from hogengine.solver import exact_winrate
from hogengine.solver.tournament import THRESHOLD
from hogengine.strategies import Table, always_roll, table_from_function
from tests.bot.discord.harness import World, said
from tests.hang import HANG
from tests.helpers import HOG, entries

RULES = "swine-align"
OPENED = "**Course Contest** (Swine Align / Pig Pass, exact) is open until <t:"


@pytest.fixture
async def uploaded(world: World) -> dict[str, Table]:
    """alice, bob, carol and the moderator each keep one of the four test tables as a JSON upload."""
    tables = dict(entries())
    for person, name in zip((world.alice, world.bob, world.carol, world.mod), tables, strict=True):
        await world.upload(person, f"{name}.json", json.dumps(tables[name].tolist()).encode())
    return tables


async def open_contest(world: World, closes: str = "in 3 days", fmt: str = "exact") -> discord.Message:
    result = await world.mod.slash(
        world.channel, "hog contest open", rules=RULES, format=fmt, closes=closes, title="Course Contest"
    )
    assert result.response is not None and not result.response.ephemeral
    return result.response  # type: ignore[return-value]


NOT_STAFF = "Only course staff can do this: members with Manage Server."


def not_staff(world: World, result: simcord.InteractionResult) -> None:
    """The refusal a student gets for a staff command: the project's one private sentence."""
    assert world.domain_errors() == [said(result)] == [NOT_STAFF]


async def close_now(world: World, staff: simcord.MemberActor) -> simcord.InteractionResult:
    """`/hog contest close`, confirmed with its button: what the confirmation answered."""
    asked = await staff.slash(world.channel, "hog contest close")
    assert asked.response is not None and asked.response.ephemeral
    assert buttons(asked.response) == ["Close now", "Keep it open"]
    return await staff.click(asked.response, label="Close now")


def buttons(answer: simcord.ResponseMessage) -> list[str]:
    """The labels of the buttons under an answer."""
    return [component["label"] for component in walk_components(answer.components) if "label" in component]


def pinged(world: World, message: discord.Message) -> list[int]:
    """Whom a message notified (its mentions that its allowed mentions let through)."""
    return list(world.env.backend.get_message(world.channel.id, message.id).ping_user_ids)


def refused(world: World, result: simcord.InteractionResult) -> str:
    """The one private sentence a refusal got (and that it was a refusal, not a failure)."""
    assert world.domain_errors() == [said(result)]
    return said(result)


async def test_managers_open_a_contest_said_back_as_a_discord_time(world: World) -> None:
    result = await world.alice.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="in 3 days"
    )
    not_staff(world, result)

    late = await world.mod.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="2020-01-01 10:00"
    )
    assert (
        refused(world, late) == "That time has already passed. Write it as 2026-12-01 23:59, or as in 3 days."
    )
    far = await world.mod.slash(
        world.channel, "hog contest open", rules=RULES, format="exact", closes="in 100 days"
    )
    assert refused(world, far).startswith("A contest closes within 90 days.")

    announced = await open_contest(world)
    assert announced.content.startswith(OPENED)
    closes = int(world.env.now().timestamp()) + 3 * 86400
    assert f"<t:{closes}:F> (<t:{closes}:R>)" in announced.content
    again = await world.mod.slash(
        world.channel, "hog contest open", rules=RULES, format="sampled", closes="in 1 day"
    )
    assert refused(world, again) == (
        "A Swine Align / Pig Pass contest is already open on this server: close it first."
    )


async def test_entering_pairing_and_leaving_with_every_refusal(
    world: World, uploaded: dict[str, Table]
) -> None:
    early = await world.alice.slash(world.channel, "hog contest enter", strategy="fours")
    assert refused(world, early) == "No contest is open for Swine Align / Pig Pass on this server."
    await open_contest(world)

    entered = await world.alice.slash(world.channel, "hog contest enter", strategy="fours")
    text = said(entered)
    assert text.startswith("Entered 'fours'. Later uploads of it count until the close.")
    assert "Practice standing against the current field: 0 wins, 0 losses;" in text
    theirs = await world.alice.slash(world.channel, "hog contest enter", strategy="sixes")
    assert refused(world, theirs) == "'sixes' is bob's: enter one of your own strategies (or your partner's)."
    await world.bob.slash(world.channel, "hog contest enter", strategy="sixes")

    self_invite = await world.alice.slash(world.channel, "hog contest partner", user=world.alice)
    assert refused(world, self_invite) == "You cannot be your own partner."
    taken = await world.alice.slash(world.channel, "hog contest partner", user=world.bob)
    assert refused(world, taken) == (
        "bob already has an entry in this contest: they would have to leave it before entering with you."
    )

    invited = await world.alice.slash(world.channel, "hog contest partner", user=world.carol)
    invitation = invited.response
    assert invitation is not None and not invitation.ephemeral
    assert invitation.content.startswith(f"{world.carol.mention}: **alice** asks you to enter")
    wrong = await world.bob.click(world.channel.last_message, label="Accept")
    assert said(wrong) == "Only carol can answer this invitation."
    accepted = await world.carol.click(world.channel.last_message, label="Accept")
    assert said(accepted) == "You now enter with alice: 'fours'."
    finished = world.message(invitation.id)
    assert finished.content == f"<@{world.carol.id}> and <@{world.alice.id}> enter as a pair."
    assert finished.components == []  # the invitation's buttons are gone
    told = world.channel.last_message  # the inviter hears it in a new message, which pings only her
    assert told.content == (
        f"<@{world.alice.id}>, **carol** accepted your invitation: you enter **Course Contest** (Swine "
        f"Align / Pig Pass, exact) together. {finished.jump_url}"
    )
    assert pinged(world, told) == [world.alice.id] and pinged(world, finished) == []
    paired = await world.alice.slash(world.channel, "hog contest partner", user=world.mod)
    assert refused(world, paired) == "You already enter with carol: leave the entry first to change partners."

    changed = await world.carol.slash(world.channel, "hog contest enter", strategy="course")
    assert "Your entry: 'course', with **alice**." in said(changed)
    status = await world.alice.slash(world.channel, "hog contest status")
    course, sixes = uploaded["course"], uploaded["sixes"]
    wins = int(exact_winrate(RULES, course, sixes).average > THRESHOLD)
    assert said(status).splitlines()[1:] == [
        "Your entry: 'course', with **carol**.",
        f"Practice standing against the current field: {wins} win{'s' if wins != 1 else ''}, "
        f"{1 - wins} loss{'es' if wins != 0 else ''}; "
        f"{exact_winrate(RULES, course, table_from_function(always_roll(5), RULES)).average:.1%} against "
        "always_roll(5).",
    ]
    assert "· 2 entries." in said(status).splitlines()[0]

    await world.mod.slash(world.channel, "hog contest partner", user=world.carol)
    assert world.domain_errors() == [
        "carol already has an entry in this contest: they would have to leave it before entering with you."
    ]
    left = await world.carol.slash(world.channel, "hog contest leave")
    assert said(left) == "You left your entry in **Course Contest** (Swine Align / Pig Pass, exact)."
    alone = await world.alice.slash(world.channel, "hog contest status")
    assert "Your entry: no strategy yet." in said(alone)
    nothing = await world.carol.slash(world.channel, "hog contest leave")
    assert refused(world, nothing) == "You have no entry in the Swine Align / Pig Pass contest."


async def test_a_declined_invitation_loses_its_buttons_and_tells_an_inviter_who_wants_no_pings_nothing(
    world: World, uploaded: dict[str, Table]
) -> None:
    await open_contest(world)
    await world.mod.slash(world.channel, "hog notices", setting="off")  # the inviter wants no pings
    asked = await world.mod.slash(world.channel, "hog contest partner", user=world.carol)
    declined = await world.carol.click(world.channel.last_message, label="Decline")
    assert said(declined) == "You declined."
    assert world.channel.last_message.id == asked.response.id  # type: ignore[union-attr]  # no notice
    assert world.channel.last_message.content == f"<@{world.carol.id}> declined the invitation."
    assert world.channel.last_message.components == []


async def test_the_close_posts_the_seeds_table_once_tells_each_entrant_and_exports_a_replayable_record(
    world: World, uploaded: dict[str, Table], tmp_path: Path
) -> None:
    await open_contest(world)
    for person, name in ((world.alice, "fours"), (world.bob, "sixes"), (world.carol, "course")):
        await person.slash(world.channel, "hog contest enter", strategy=name)
    await world.carol.slash(world.channel, "hog contest partner", user=world.mod)
    await world.mod.click(world.channel.last_message, label="Accept")
    not_staff(world, await world.alice.slash(world.channel, "hog contest close"))
    not_staff(world, await world.alice.slash(world.channel, "hog contest export"))

    closing = await close_now(world, world.mod)
    assert world.channel.last_message.content.endswith(
        "has closed: the final tournament runs now, and its results are posted here when it ends."
    )
    late = await world.alice.slash(world.channel, "hog contest enter", strategy="fours")
    assert refused(world, late) == (
        "The Swine Align / Pig Pass contest has closed: entries can no longer change."
    )
    assert closing is not None
    await posted(world)
    await world.advance(60)  # more ticks of the clock: nothing more is posted
    posts = [m for m in world.channel.history() if "has closed: 3 entries" in m.content]
    assert len(posts) == 1, [m.content for m in world.channel.history()]
    post = posts[0]
    lines = post.content.splitlines()
    assert lines[:2] == [
        "**Course Contest** (Swine Align / Pig Pass, exact) has closed: 3 entries.",
        "Each entry was assigned a random number for anonymity.",
    ]
    table = lines[lines.index("```") + 1 : lines.index("```", lines.index("```") + 1)]
    assert table[0].split() == ["Rank", "Entry", "Wins", "Losses", "Rate"] and all(
        len(line) <= 32
        for line in table  # it fits a phone
    )
    assert lines[-1].startswith(
        "Ranked by matches won, then by the last column: the exact win rate against always_roll(5)"
    )

    export = await world.mod.slash(world.channel, "hog contest export")
    files = (
        {a.filename: await a.read() for a in export.followups[-1].attachments}
        if export.followups
        else {
            a.filename: await a.read()
            for a in export.response.attachments  # type: ignore[union-attr]
        }
    )
    (record_name,) = [name for name in files if name.endswith("-record.json")]
    (csv_name,) = [name for name in files if name.endswith("-gradebook.csv")]
    students = list(csv.DictReader(io.StringIO(files[csv_name].decode())))
    assert sorted(row["name"] for row in students) == ["alice", "bob", "carol", "mod"]  # a row each
    pair = [row for row in students if row["name"] in ("carol", "mod")]
    assert pair[0]["entry"] == pair[1]["entry"]
    rows = [next(row for row in students if row["entry"] == entry) for entry in dict.fromkeys(
        row["entry"] for row in students
    )]  # fmt: skip
    shown = [line.split() for line in table[1:]]
    assert [[r[0], r[1], r[2], r[3]] for r in shown] == [
        [row["place"], row["entry"], row["wins"], row["losses"]] for row in rows
    ]
    assert "**carol & mod**" in post.content
    owned = {str(world.alice.id): "fours", str(world.bob.id): "sixes", str(world.carol.id): "course"}
    for row in rows:  # each entry's table, in a file named by its number, as a user would check
        (tmp_path / f"{row['entry']}.json").write_text(
            json.dumps(uploaded[owned[row["discord_id"]]].tolist())
        )
    checked = subprocess.run(
        [
            *HOG,
            "tournament",
            "--json",
            "--rules",
            RULES,
            *(str(tmp_path / f"{r['entry']}.json") for r in rows),
        ],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=True,
    )
    standings = json.loads(checked.stdout)["standings"]  # the same wins and losses, entry by entry
    assert sorted((s["name"], str(s["wins"]), str(s["losses"])) for s in standings) == sorted(
        (r[1], r[2], r[3]) for r in shown
    )
    (tmp_path / record_name).write_bytes(files[record_name])
    replayed = subprocess.run(
        [*HOG, "tournament", "--replay", str(tmp_path / record_name)],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    assert replayed.returncode == 0, replayed.stderr

    link = f"https://discord.com/channels/{world.channel.guild.id}/{world.channel.id}/{post.id}"
    for person in (world.alice, world.bob, world.carol, world.mod):
        dms = [m.content for m in person.user.dm_channel.history()]
        row = next(r for r in students if r["discord_id"] == str(person.id))
        result = (
            f"was number **{row['entry']}**: rank "
            f"**{row['place']}** of 3 ({_count(row['wins'], 'win')}, {_count(row['losses'], 'loss')}; "
            f"{float(row['rate_vs_always_roll_5']):.1%} against always_roll(5)). The results: {link}"
        )
        assert dms == [
            "Your entry in **Course Contest** (Swine Align / Pig Pass, exact) on **Hog Club** " + result
        ]
        status = await person.slash(world.channel, "hog contest status")
        assert "Your entry in **Course Contest** (Swine Align / Pig Pass, exact) " + result in said(status)
    results = await world.bob.slash(world.channel, "hog contest results")
    assert said(results) == post.content


def _count(number: str, noun: str) -> str:
    return f"{number} {noun if number == '1' else noun + ('es' if noun == 'loss' else 's')}"


async def posted(world: World) -> None:
    """Let the clock tick until the results were posted (the final computes in a thread of its own)."""
    for _ in range(100):
        await world.advance(30)
        if any("has closed: " in message.content for message in world.channel.history()):
            return
    raise AssertionError([m.content for m in world.channel.history()])


COURSE_FILES = {  # hog.py files as students hand them in: a TEAM_NAME and a final_strategy
    "alice": b'TEAM_NAME = "Roll Models"\n\ndef final_strategy(score, opponent_score):\n'
    b"    return 4 if score >= opponent_score else 6\n",
    "bob": b'TEAM_NAME = "Bacon Bits"\n\ndef bacon(opponent_score):\n    return 10 - opponent_score % 10\n\n'
    b"def final_strategy(score, opponent_score):\n    return 0 if bacon(opponent_score) >= 8 else 5\n",
    "carol": b'TEAM_NAME = "Hogwarts"\n\ndef final_strategy(score, opponent_score):\n    if score >= 90:\n'
    b"        return 2\n    return 6 if opponent_score > score + 20 else 4\n",
}


async def test_a_course_contest_from_hog_py_files_posts_what_hog_tournament_finds(
    world: World, tmp_path: Path
) -> None:
    """A whole contest as a class runs it: three students upload their hog.py, carol enters with the
    moderator as a pair, the contest closes by itself at its time, and the posted table is what
    `hog tournament` finds for the same files."""
    await open_contest(world, closes="in 2 hours")
    for person in (world.alice, world.bob, world.carol):
        await world.upload(person, "hog.py", COURSE_FILES[person.name])  # named after its TEAM_NAME
        (mine,) = await world.services.strategies.active(world.channel.guild.id, person.id)
        await person.slash(world.channel, "hog contest enter", strategy=mine.name)
    assert world.domain_errors() == []
    await world.carol.slash(world.channel, "hog contest partner", user=world.mod)
    await world.mod.click(world.channel.last_message, label="Accept")
    await world.advance(2 * 3600)
    await posted(world)
    (post,) = [m for m in world.channel.history() if "has closed: 3 entries" in m.content]
    lines = post.content.splitlines()
    final = await world.services.contests.final(world.channel.guild.id)
    people = {entry.team_name: " & ".join(m.name or "" for m in entry.members) for entry in final.placed}
    number = {entry.team_name: entry.result.number for entry in final.placed if entry.result}
    files = []
    for person, source in COURSE_FILES.items():
        (tmp_path / f"{person}.py").write_bytes(source)
        files.append(str(tmp_path / f"{person}.py"))
    checked = subprocess.run(
        [*HOG, "tournament", "--json", "--rules", RULES, *files],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=True,
    )
    standings = json.loads(checked.stdout)["standings"]  # named by their TEAM_NAME
    assert lines[2:5] == [
        f"{place}: **{people[row['name']]}** ({row['name']})"
        for place, row in zip(("1st", "2nd", "3rd"), standings, strict=True)
    ]
    table = [
        line.split() for line in lines[lines.index("```") + 2 : lines.index("```", lines.index("```") + 1)]
    ]
    assert table == [
        [str(place), str(number[row["name"]]), str(row["wins"]), str(row["losses"]), table[place - 1][4]]
        for place, row in enumerate(standings, 1)
    ]
