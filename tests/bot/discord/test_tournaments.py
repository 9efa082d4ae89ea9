"""`/hog tournament`: for Manage Server only; every stored strategy of the server plays every other; the
standings, posted as text and as a picture, are the solver's (and `hog tournament`'s); progress shows."""

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import discord
import pytest

from bot.discord.commands.records import Progress
from bot.discord.contest_embeds import standings_rows, standings_text
from bot.services import Standing, Tournament
from hogengine.solver import exact_winrate, tournament_exact
from hogengine.strategies import Table, always_roll, table_from_function
from tests.bot.discord.conftest import GUILD_ID
from tests.bot.discord.harness import World, mention, picture, private, said
from tests.hang import HANG
from tests.helpers import entries

RULES = "swine-align"


def table_rows(content: str) -> list[list[str]]:
    """The rows of the standings' code block (its header left out), cell by cell."""
    lines = content.splitlines()
    start = lines.index("```")
    return [line.split() for line in lines[start + 2 : lines.index("```", start + 1)]]


@pytest.fixture
async def entered(world: World) -> list[tuple[str, Table]]:
    """The entries uploaded as JSON tables by alice (two), bob and carol."""
    for person, (name, table) in zip(
        (world.alice, world.bob, world.carol, world.alice), entries(), strict=True
    ):
        await world.upload(person, f"{name}.json", json.dumps(table.tolist()).encode())
    return entries()


def hog_tournament(tables: list[tuple[str, Table]], folder: Path, *options: str) -> list[dict[str, Any]]:
    """The standings `hog tournament --json` gives for these tables, as a user would check them."""
    files = []
    for name, table in tables:
        (folder / f"{name}.json").write_text(json.dumps(table.tolist()))
        files.append(str(folder / f"{name}.json"))
    done = subprocess.run(
        [sys.executable, "-m", "hogengine", "tournament", "--json", "--rules", RULES, *options, *files],
        capture_output=True,
        text=True,
        check=True,
        timeout=HANG,
    )
    standings: list[dict[str, Any]] = json.loads(done.stdout)["standings"]
    return standings


async def test_the_standings_are_the_solvers(
    world: World, entered: list[tuple[str, Table]], tmp_path: Path
) -> None:
    result = await world.mod.slash(world.channel, "hog tournament")

    callback = [r.json for r in world.env.http_requests if r.path.endswith("/callback")][-1]
    assert callback == {"type": 5}  # a public "thinking…" at once
    edits = [r.json or {} for r in world.env.http_requests if r.method == "PATCH" and "@original" in r.path]
    assert any(str(edit.get("content")).startswith("Tournament running: ") for edit in edits)
    message = result.response
    assert message is not None and not message.ephemeral
    lines = message.content.splitlines()
    assert lines[0] == "**exact tournament** of Swine Align / Pig Pass to 100: 4 strategies."
    assert lines[lines.index("```") + 1].split() == ["#", "strategy", "W\u2013L", "rate"]
    assert all(len(line) <= 32 for line in lines[lines.index("```") + 1 : lines.index("```", 3)])  # a phone
    assert lines[lines.index("```", lines.index("```") + 1) + 1] == (  # what ranks it, in words under it
        "Ranked by matches won (won: an exact win rate above one half; a tie loses), then by the last "
        "column: the mean exact win rate against the others."
    )
    rows = table_rows(message.content)
    expected = tournament_exact(RULES, entered)
    assert rows == [
        [str(place), row.name, f"{row.wins}\u2013{row.losses}", f"{row.tie_break:.1%}"]
        for place, row in enumerate(expected.rows, start=1)
    ]
    checked = hog_tournament(entered, tmp_path)
    assert [(r[1], r[2], r[3]) for r in rows] == [
        (s["name"], f"{s['wins']}\u2013{s['losses']}", f"{s['tie_break']:.1%}") for s in checked
    ]
    (standings,) = message.attachments
    await picture(standings)
    widest = max((max(m.a_result, m.b_result), m) for m in expected.matches)[1]
    winner, loser = (widest.a, widest.b) if widest.a_result > widest.b_result else (widest.b, widest.a)
    margin = 100 * max(widest.a_result, widest.b_result)
    assert standings.description == (  # who beat whom, for people who cannot see the matrix
        "Results matrix 'exact tournament · Swine Align / Pig Pass' of 4 entries: row's exact win rate vs "
        f"the column. The widest margin: {winner} over {loser}, {margin:.1f}%."
    )
    stored = await world.services.tournaments.latest(GUILD_ID, RULES)
    assert stored is not None and [s.name for s in stored.standings] == [r[1] for r in rows]


async def test_the_sampled_format_breaks_ties_exactly_and_its_seed_replays_it(
    world: World, entered: list[tuple[str, Table]], tmp_path: Path
) -> None:
    result = await world.mod.slash(world.channel, "hog tournament", format="sampled")

    assert result.response is not None
    rows = table_rows(result.response.content)
    lines = result.response.content.splitlines()
    assert lines[lines.index("```", lines.index("```") + 1) + 1].startswith(  # what breaks ties, in words
        "Ranked by matches won (most of 9 games), then by the last column: the exact win rate against "
        "always_roll(5)"
    )
    five = table_from_function(always_roll(5), RULES)
    tables = dict(entered)
    assert sorted(row[1] for row in rows) == sorted(tables)
    for row in rows:
        wins, losses = row[2].split("\u2013")
        assert int(wins) + int(losses) == 3
        assert row[3] == f"{exact_winrate(RULES, tables[row[1]], five).average:.1%}"  # e.g. 60.2%
    stored = await world.services.tournaments.latest(GUILD_ID)
    assert stored is not None and stored.seed is not None
    command = f"hog tournament --rules {RULES} --format sampled --seed {stored.seed}"
    assert result.response.content.splitlines()[-1] == (
        f"Dice seed `{stored.seed}`: `{command}` on the tables, named after the strategies in name order."
    )
    replayed = hog_tournament(sorted(entered), tmp_path, "--format", "sampled", "--seed", stored.seed)
    assert [(r[1], r[2]) for r in rows] == [(s["name"], f"{s['wins']}\u2013{s['losses']}") for s in replayed]


async def test_a_tournament_outliving_its_answer_posts_the_standings_anew(
    world: World, entered: list[tuple[str, Table]], monkeypatch: pytest.MonkeyPatch
) -> None:
    tournaments = world.services.tournaments
    play = tournaments.play

    async def for_twenty_minutes(*args: Any, **kwargs: Any) -> Tournament:
        done = await play(*args, **kwargs)
        world.env.backend.advance_clock(20 * 60)  # a class-sized contest: past the 15-minute token
        return done

    monkeypatch.setattr(tournaments, "play", for_twenty_minutes)

    await world.mod.slash(world.channel, "hog tournament")

    posted = world.channel.last_message
    assert posted is not None and posted.author.id == world.bot.user.id
    assert posted.content.startswith(f"<@{world.mod.id}>: **exact tournament** of Swine Align / Pig Pass")
    assert [row[1] for row in table_rows(posted.content)] == [
        row.name for row in tournament_exact(RULES, entered).rows
    ]
    (standings,) = posted.attachments
    await picture(standings)


@pytest.mark.parametrize("late", [False, True], ids=["in_the_answer", "in_a_new_message"])
async def test_names_in_the_public_standings_ping_no_one(
    world: World, monkeypatch: pytest.MonkeyPatch, late: bool
) -> None:
    names = ("@everyone", "@here")  # owners' names that would ping a whole server
    for number, name in enumerate(names):
        person = world.channel.guild.add_member(world.env.create_user(name))
        await world.upload(person, f"s{number}.json", json.dumps([[number + 4] * 100] * 100).encode())
    if late:
        play = world.services.tournaments.play

        async def for_twenty_minutes(*args: Any, **kwargs: Any) -> Tournament:
            done = await play(*args, **kwargs)
            world.env.backend.advance_clock(20 * 60)
            return done

        monkeypatch.setattr(world.services.tournaments, "play", for_twenty_minutes)

    await world.mod.slash(world.channel, "hog tournament")

    posted = world.channel.last_message
    assert posted is not None and posted.attachments
    shown = world.env.backend.get_message(world.channel.id, posted.id)
    assert not shown.mention_everyone
    assert shown.ping_user_ids == ([world.mod.id] if late else [])  # only who started a late one


async def test_only_course_staff_start_one(world: World, entered: object) -> None:
    result = await world.alice.slash(world.channel, "hog tournament")

    assert said(result) == "Only course staff can do this: members with Manage Server."
    assert world.domain_errors() == [said(result)]
    assert await world.services.tournaments.latest(GUILD_ID) is None


async def test_refusals_are_private(world: World, entered: object) -> None:
    too_few = await world.mod.slash(world.channel, "hog tournament", rules="piggy-back")
    async with world.services.tournaments.reserve(GUILD_ID):  # one is running on this server
        running = await world.mod.slash(world.channel, "hog tournament")

    assert said(too_few) == "A tournament needs at least two Piggy Back strategies on this server."
    assert said(running) == "A tournament is already running on this server."
    assert world.domain_errors() == [said(too_few), said(running)]
    assert not [r for r in world.env.http_requests if r.path.endswith("/callback") and r.json == {"type": 5}]


async def test_anyone_sees_the_latest_standings_again_privately(world: World, entered: object) -> None:
    before = await world.alice.slash(world.channel, "hog standings")
    ran = await world.mod.slash(world.channel, "hog tournament", format="sampled")
    again = await world.alice.slash(world.channel, "hog standings")
    other_rules = await world.alice.slash(world.channel, "hog standings", rules="pork-chop")

    assert said(before) == (
        "No tournament has been played on this server yet: course staff start one with "
        f"{mention(world, 'hog tournament')}."
    )
    assert said(other_rules).startswith("No Pork Chop tournament has been played on this server yet")
    assert ran.response is not None
    stored = await world.services.tournaments.latest(GUILD_ID)
    assert stored is not None
    shown = private(again)
    assert shown.content == f"Played <t:{int(stored.finished_at)}:R>. {ran.response.content}"
    (standings,) = shown.attachments
    await picture(standings)
    assert standings.description == ran.response.attachments[0].description


class Answer:
    """Stands in for the deferred interaction: records each edit."""

    def __init__(self) -> None:
        self.edits: list[str] = []
        self.expires_at = discord.utils.utcnow() + timedelta(minutes=15)

    async def edit_original_response(self, *, content: str) -> None:
        self.edits.append(content)


async def test_progress_is_shown_at_most_once_a_second() -> None:
    times = iter([100.0, 100.3, 100.9, 101.0, 101.5, 102.2])
    answer = Answer()
    progress = Progress(cast(discord.Interaction[Any], answer), clock=lambda: next(times))

    for done in range(1, 7):
        await progress(done, 6)

    assert answer.edits == [
        "Tournament running: 1 of 6 steps done (16.7%)…",
        "Tournament running: 4 of 6 steps done (66.7%)…",
        "Tournament running: 6 of 6 steps done (100.0%)…",
    ]


def test_long_standings_fit_a_message_and_the_rest_is_in_the_picture() -> None:
    standings = tuple(
        Standing(
            place, f"strategy-{place:02d}-" + "x" * 30, place, "`" * 3 + "owner" * 9, place, 22 - place, 0.5
        )
        for place in range(1, 24)
    )
    tournament = Tournament(1, GUILD_ID, RULES, 100, "exact", None, None, 0.0, 1.0, standings)

    text = standings_text(tournament)

    assert len(text) <= 2000 and text.count("```") == 2  # names cannot close the code block early
    assert all(len(line) <= 32 for line in text.splitlines()[2:23])  # cut names: 20 rows fit a phone
    assert re.search(r"```\nRanked by [^\n]+\.\n… and 3 more in the picture\.$", text)
    assert len(standings_rows(tournament)) == 23


def test_standings_past_what_the_picture_draws_say_so() -> None:
    standings = tuple(
        Standing(place, f"s{place}", place, "o", 45 - place, place - 1, 0.5) for place in range(1, 46)
    )
    tournament = Tournament(1, GUILD_ID, RULES, 100, "exact", None, None, 0.0, 1.0, standings)

    text = standings_text(tournament)

    assert text.endswith("… and 25 more (the picture draws the first 40).")


@pytest.mark.parametrize("lead", ["", "Played <t:1790000000:R>. ", "<@123456789012345678>: "])
def test_standings_after_any_lead_fit_one_message(lead: str) -> None:
    standings = tuple(
        Standing(place, f"{place:02d}" + "n" * 30, place, "o" * 16, 40 - place, place - 1, 0.5)
        for place in range(1, 41)
    )
    seed = "ab" * 32  # a sampled tournament's replay line, after the table
    tournament = Tournament(1, GUILD_ID, RULES, 100, "sampled", seed, None, 0.0, 1.0, standings)

    text = standings_text(tournament, lead)

    assert text.startswith(lead + "**sampled tournament**") and len(text) <= 2000
    shown = table_rows(text)
    assert [row[1] for row in shown] == [standing.name[:15] + "…" for standing in standings[: len(shown)]]
    assert text.endswith(f"… and {40 - len(shown)} more in the picture.") and len(shown) == 20


def test_the_text_standings_fit_32_columns_and_cut_only_a_long_name() -> None:
    name = "a-strategy-name-of-32-characters"
    standings = (
        Standing(1, name, 1, "alice", 1, 1, 0.61),
        Standing(2, "sixteen-letters!", 2, "bob", 2, 0, 0.39),
    )
    tournament = Tournament(1, GUILD_ID, RULES, 100, "exact", None, None, 0.0, 1.0, standings)

    lines = standings_text(tournament).splitlines()

    assert lines[2:5] == [
        "# strategy         W\u2013L  rate",
        "1 a-strategy-name\u2026 1\u20130 61.0%",
        "2 sixteen-letters! 0\u20131 39.0%",
    ]
    assert max(len(line) for line in lines[2:5]) <= 32


def test_places_equal_on_both_share_a_rank_and_close_rates_show_the_digits_that_decide() -> None:
    standings = (
        Standing(1, "near", 1, "alice", 1, 2, 0.4521345),
        Standing(2, "far", 2, "bob", 2, 2, 0.4520811),  # 45.2% both to one decimal: 45.213% and 45.208%
        Standing(3, "twin", 3, "carol", 3, 1, 0.4),
        Standing(4, "twin2", 4, "dan", 4, 1, 0.4),  # the same wins and rate: the same rank
        Standing(5, "last", 5, "erin", 5, 0, 0.45),
    )
    tournament = Tournament(1, GUILD_ID, RULES, 100, "sampled", None, None, 0.0, 1.0, standings)

    text = standings_text(tournament)

    assert table_rows(text) == [
        ["1", "near", "2\u20132", "45.213%"],
        ["2", "far", "2\u20132", "45.208%"],
        ["3", "twin", "1\u20133", "40.0%"],
        ["3", "twin2", "1\u20133", "40.0%"],
        ["5", "last", "0\u20134", "45.0%"],
    ]
    assert text.splitlines()[-1] == (
        "Ranked by matches won (most of 9 games), then by the last column: the exact win rate against "
        "always_roll(5), to more decimals where one would not tell two places apart; equal on both, they "
        "share a rank."
    )
