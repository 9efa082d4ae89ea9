"""Contests on each backend: opening and its refusals, one entry per person or pair, the practice standing,
and the close: the final plays once, its results are the solver's, later uploads change nothing, and the
record it keeps replays with `hog tournament --replay`."""

import asyncio
import json
import os
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bot.domain.contests import ContestStatus
from bot.domain.errors import (
    AlreadyEntered,
    AlreadyPaired,
    AlreadyPartners,
    BadCloseTime,
    ContestAlreadyOpen,
    ContestClosed,
    InvitationOvertaken,
    NoContest,
    NotEntered,
    NotYourEntry,
    PartnerBot,
    PartnerYourself,
    RandomEntry,
    WhichContest,
    YouHaveAnEntry,
)
from bot.domain.matches import Player
from bot.domain.shards import Shards
from bot.services import Services
from bot.services.contests import sharing
from bot.services.contests.service import ContestService
from bot.services.strategies.service import StrategyService
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.database import NEW
from hogengine.errors import HogError
from hogengine.solver import exact_winrate, tournament_exact
from hogengine.solver.threads import THREADS_VARIABLE
from hogengine.solver.tournament import THRESHOLD
from hogengine.strategies import Table, always_roll, table_from_function
from tests.hang import HANG
from tests.helpers import ALICE, BOB, CAROL, GUILD, HOG, FakeClock, entries, upload_file

RULES = "swine-align"
DAN = Player(1004, "dan")
CHANNEL = 4242
HERE = (GUILD, CHANNEL)  # where invitations are made


async def upload(
    strategies: StrategyService, owner: Player, name: str, table: Table, rules: str = RULES
) -> None:
    await upload_file(
        strategies, GUILD, owner, f"{name}.json", json.dumps(table.tolist()).encode(), rules=rules
    )


@pytest.fixture
async def field(strategies: StrategyService, clock: FakeClock) -> dict[str, Table]:
    """alice, bob, carol and dan each keep one of the four test tables (dan's is the mixed one)."""
    tables = dict(entries())
    for owner, name in zip((ALICE, BOB, CAROL, DAN), tables, strict=True):
        clock.advance(60)
        await upload(strategies, owner, name, tables[name])
    return tables


async def opened(contests: ContestService, fmt: str = "exact", closes: str = "in 3 days") -> int:
    contest = await contests.open(
        GUILD, CHANNEL, ALICE, rules=RULES, fmt=fmt, closes=closes, title="Hog Contest"
    )
    return contest.id


async def test_opening_says_when_it_closes_and_refuses_what_the_course_would_not(
    services: Services, clock: FakeClock
) -> None:
    contests: ContestService = services.contests
    contest = await contests.open(
        GUILD, CHANNEL, ALICE, rules="sp17", fmt="sampled", closes="in 3 days", title="  Pork Chop  "
    )
    assert (contest.rules, contest.format, contest.title) == ("pork-chop", "sampled", "Pork Chop")
    assert contest.closes_at == clock() + 3 * 86400 and contest.status is ContestStatus.OPEN
    with pytest.raises(ContestAlreadyOpen, match="A Pork Chop contest is already open on this server"):
        await contests.open(GUILD, CHANNEL, BOB, rules="pork-chop", fmt="exact", closes="in 1 day")
    with pytest.raises(BadCloseTime, match="already passed"):
        await contests.open(GUILD, CHANNEL, ALICE, rules=RULES, fmt="exact", closes="2020-01-01 10:00")
    with pytest.raises(BadCloseTime, match="within 90 days"):
        await contests.open(GUILD, CHANNEL, ALICE, rules=RULES, fmt="exact", closes="in 91 days")
    with pytest.raises(BadCloseTime, match="cannot read 'next friday'"):
        await contests.open(GUILD, CHANNEL, ALICE, rules=RULES, fmt="exact", closes="next Friday")
    with pytest.raises(HogError, match="Unknown rules 'chess'"):
        await contests.open(GUILD, CHANNEL, ALICE, rules="chess", fmt="exact", closes="in 1 day")
    second = await contests.open(
        GUILD, CHANNEL, ALICE, rules=RULES, fmt="exact", closes="2023-11-20 12:00", time_zone="Europe/Paris"
    )
    assert second.closes_at == 1700478000.0  # 11:00 UTC
    with pytest.raises(WhichContest, match="open here for Pork Chop and Swine Align / Pig Pass"):
        await contests.current(GUILD)
    assert (await contests.current(GUILD, "fa20")).id == second.id


async def test_one_entry_per_person_a_pair_shares_one_and_leaving_keeps_the_partners(
    services: Services, field: dict[str, Table]
) -> None:
    contests: ContestService = services.contests
    with pytest.raises(NoContest, match="No contest is open for Swine Align / Pig Pass"):
        await contests.enter(GUILD, ALICE, "fours")
    contest_id = await opened(contests)
    await upload(services.strategies, ALICE, "chop", field["fours"], rules="pork-chop")
    with pytest.raises(NoContest, match="No contest is open for Pork Chop"):  # the wrong rule set
        await contests.enter(GUILD, ALICE, "chop")
    _, entry = await contests.enter(GUILD, ALICE, "fours")
    assert (entry.owner_id, entry.strategy_name, [m.id for m in entry.members]) == (
        ALICE.id,
        "fours",
        [ALICE.id],
    )
    with pytest.raises(NotYourEntry, match="'sixes' is bob's"):
        await contests.enter(GUILD, ALICE, "sixes")

    with pytest.raises(PartnerYourself):
        await contests.invite(HERE, ALICE, ALICE, False)
    with pytest.raises(PartnerBot):
        await contests.invite(HERE, ALICE, Player(9, "housebot"), True)
    await contests.enter(GUILD, BOB, "sixes")
    with pytest.raises(AlreadyEntered, match="bob already has an entry in this contest: they would have"):
        await contests.invite(HERE, ALICE, BOB, False)
    await contests.invite(HERE, DAN, CAROL, False)
    await contests.invite(HERE, ALICE, CAROL, False)
    await contests.invite(HERE, ALICE, DAN, False)
    pair = await contests.accept(contest_id, ALICE, CAROL)
    assert [m.id for m in pair.members] == [ALICE.id, CAROL.id] and pair.strategy_name == "fours"
    with pytest.raises(AlreadyPaired, match="You already enter with carol"):
        await contests.invite(HERE, ALICE, DAN, False)
    # What each refusal says to the one who pressed: to carol, of dan's old invitation; to dan, of alice's.
    with pytest.raises(YouHaveAnEntry, match="You already have an entry in this contest: leave it first"):
        await contests.accept(contest_id, DAN, CAROL)
    with pytest.raises(InvitationOvertaken, match="alice now enters with carol: this invitation is no"):
        await contests.accept(contest_id, ALICE, DAN)
    with pytest.raises(AlreadyPartners, match=r"You already enter with alice\."):
        await contests.accept(contest_id, ALICE, CAROL)  # a second press

    _, changed = await contests.enter(GUILD, CAROL, "course")  # either partner may change it
    assert (changed.owner_id, changed.strategy_name) == (CAROL.id, "course")
    assert (await contests.status(GUILD, ALICE.id)).entries == 2

    await contests.leave(GUILD, CAROL)  # her strategy leaves with her: alice's entry names none now
    kept = await contests.entry_of(contest_id, ALICE.id)
    assert [m.id for m in kept.members] == [ALICE.id] and kept.strategy_name is None
    await contests.leave(GUILD, BOB)
    await contests.leave(GUILD, ALICE)  # she made the entry: it is gone
    with pytest.raises(NotEntered, match="You have no entry in the Swine Align / Pig Pass contest"):
        await contests.leave(GUILD, ALICE)
    await contests.enter(GUILD, CAROL, "course")
    assert (await contests.status(GUILD, CAROL.id)).entries == 1


async def test_the_practice_standing_is_exact_and_computes_only_new_pairs(
    services: Services, field: dict[str, Table], strategies: StrategyService
) -> None:
    contests: ContestService = services.contests
    await opened(contests)
    for person, name in ((ALICE, "fours"), (BOB, "sixes"), (CAROL, "course")):
        await contests.enter(GUILD, person, name)
    status = await contests.status(GUILD, CAROL.id)
    course = field["course"]
    beats = [exact_winrate(RULES, course, field[n]).average > THRESHOLD for n in ("fours", "sixes")]
    baseline = exact_winrate(RULES, course, table_from_function(always_roll(5), RULES)).average
    assert status.practice is not None
    assert (status.practice.wins, status.practice.losses) == (sum(beats), 2 - sum(beats))
    assert status.practice.baseline == pytest.approx(baseline, abs=1e-12)
    assert status.practice.computed == 2
    assert (await contests.status(GUILD, BOB.id)).practice.computed == 1  # type: ignore[union-attr]
    assert (await contests.status(GUILD, CAROL.id)).practice.computed == 0  # type: ignore[union-attr]
    await contests.enter(GUILD, DAN, "mixed")
    assert (await contests.status(GUILD, DAN.id)).practice.computed == 3  # type: ignore[union-attr]
    await upload(strategies, CAROL, "course", field["sixes"])  # a new version: the entry follows it
    again = (await contests.status(GUILD, CAROL.id)).practice
    assert again is not None and again.computed == 0  # sixes met every table already


async def test_the_close_runs_the_final_once_and_its_results_are_the_solvers(
    services: Services, field: dict[str, Table], strategies: StrategyService, clock: FakeClock, tmp_path: Path
) -> None:
    contests: ContestService = services.contests
    contest_id = await opened(contests, closes="in 1 hour")
    for person, name in ((ALICE, "fours"), (BOB, "sixes"), (CAROL, "course")):
        await contests.enter(GUILD, person, name)
    await contests.invite(HERE, CAROL, DAN, False)
    await contests.accept(contest_id, CAROL, DAN)
    assert await contests.close_due() == []  # not yet
    clock.advance(3600)
    with pytest.raises(ContestClosed, match="has closed"):
        await contests.enter(GUILD, DAN, "mixed")
    elsewhere = ContestService(services.db, clock, shards=Shards(2, frozenset({1 - (GUILD >> 22) % 2})))
    assert await elsewhere.close_due() == []  # another shard's process leaves it alone

    clock.advance(1)
    await upload(strategies, ALICE, "fours", field["mixed"])  # after the close, before its final: nothing
    assert [c.id for c in await contests.close_due()] == [contest_id]
    assert await contests.close_due() == []  # exactly once

    final = await contests.final(GUILD)
    placed = final.placed
    numbers = [e.result.number for e in placed]  # type: ignore[union-attr]
    assert len(set(numbers)) == 3 and all(1 <= n < 100 for n in numbers)
    tables = {ALICE.id: field["fours"], BOB.id: field["sixes"], CAROL.id: field["course"]}
    expected = tournament_exact(RULES, [(str(e.result.number), tables[e.lead_id]) for e in placed])  # type: ignore[union-attr]
    five = table_from_function(always_roll(5), RULES)
    rate = {row.name: exact_winrate(RULES, tables[lead], five).average for row, lead in (
        (row, next(e.lead_id for e in placed if str(e.result.number) == row.name))  # type: ignore[union-attr]
        for row in expected.rows
    )}  # fmt: skip
    by_rate = sorted(expected.rows, key=lambda row: (-row.wins, -rate[row.name]))
    assert [(str(e.result.number), e.result.wins, e.result.losses) for e in placed] == [  # type: ignore[union-attr]
        (row.name, row.wins, row.losses) for row in by_rate
    ]
    pair = next(e for e in placed if e.lead_id == CAROL.id)
    assert [m.name for m in pair.members] == ["carol", "dan"]
    assert [u.contest.id for u in await contests.unposted()] == [contest_id]
    await contests.posted(contest_id, 777)
    assert await contests.unposted() == []
    assert (await contests.get(contest_id)).results_message_id == 777
    record = await contests.export_record(contest_id)
    assert record is not None
    played = {entry["name"]: entry["tables"] for entry in json.loads(record)["entries"]}
    for entry in placed:  # the versions entered at the close
        assert entry.result is not None
        assert played[str(entry.result.number)] == [tables[entry.lead_id].tolist()]
    (tmp_path / "final.json").write_text(record)
    done = subprocess.run(
        [*HOG, "tournament", "--replay", str(tmp_path / "final.json")],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "every result is the recorded one" in done.stdout
    assert [e["name"] for e in json.loads(record)["entries"]] == sorted(map(str, numbers), key=int)


async def test_a_sampled_final_replays_from_its_record(
    services: Services, field: dict[str, Table], clock: FakeClock, tmp_path: Path
) -> None:
    contests: ContestService = services.contests
    contest_id = await opened(contests, "sampled", "in 1 hour")
    for person, name in ((ALICE, "fours"), (BOB, "sixes"), (CAROL, "course"), (DAN, "mixed")):
        await contests.enter(GUILD, person, name)
    closed = await contests.close_early(contest_id)
    assert closed.closes_at == clock()
    with pytest.raises(ContestClosed):
        await contests.close_early(contest_id)  # a second confirmation finds it closed
    await contests.close_due()
    final = await contests.final(GUILD, RULES)
    assert final.contest.seed is not None and len(final.placed) == 4
    record = json.loads(await contests.export_record(contest_id) or "")
    tie_break = {row["name"]: row["tie_break"] for row in record["standings"]}  # the sampled format's own
    assert all(np.isclose(tie_break[str(e.result.number)], e.result.baseline) for e in final.placed)  # type: ignore[union-attr]
    (tmp_path / "final.json").write_text(await contests.export_record(contest_id) or "")
    done = subprocess.run(
        [*HOG, "tournament", "--replay", str(tmp_path / "final.json")],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    assert done.returncode == 0, done.stderr


async def stored_at_random(services: Services, owner: Player, rules: str, clock: FakeClock) -> str:
    """A strategy that answers at random (nine recorded tables), stored as the sandbox stores one."""
    example = (await services.strategies.active(GUILD))[0]
    draws = np.random.default_rng(3)
    tables = tuple(draws.integers(1, 11, (100, 100)).astype(np.int8) for _ in range(9))
    name = f"dice-{rules}"
    copy = replace(example, id=NEW, owner=owner, name=name, rules=rules, table=tables[0], tables=tables)
    await services.db.write(lambda conn: player_table.upsert_players(conn, [owner], clock()))
    await services.db.write(lambda conn: strategy_table.insert_strategy(conn, copy))
    return name


async def test_random_entries_only_where_the_rule_sets_contest_took_them(
    services: Services, field: dict[str, Table], strategies: StrategyService, clock: FakeClock, tmp_path: Path
) -> None:
    contests = services.contests
    await opened(contests)
    at_random = await stored_at_random(services, Player(1005, "erin"), RULES, clock)
    with pytest.raises(RandomEntry, match="answers at random, and Swine Align / Pig Pass contests take only"):
        await contests.enter(GUILD, Player(1005, "erin"), at_random)

    fest = await contests.open(GUILD, CHANNEL, ALICE, rules="pig-fest", fmt="sampled", closes="in 1 hour")
    await upload(strategies, ALICE, "fest-fours", field["fours"], rules="pig-fest")
    await contests.enter(GUILD, ALICE, "fest-fours")
    dice = await stored_at_random(services, BOB, "pig-fest", clock)
    await contests.enter(GUILD, BOB, dice)
    clock.advance(3600)
    await contests.close_due()
    record = await contests.export_record(fest.id)
    assert record is not None
    assert sorted(len(entry["tables"]) for entry in json.loads(record)["entries"]) == [1, 9]
    (tmp_path / "fest.json").write_text(record)
    done = subprocess.run(
        [*HOG, "tournament", "--replay", str(tmp_path / "fest.json")],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    assert done.returncode == 0, done.stderr


async def two_entries_due(contests: ContestService, clock: FakeClock) -> None:
    """A contest entered by alice and bob, whose close has come."""
    await opened(contests, closes="in 1 hour")
    for person, name in ((ALICE, "fours"), (BOB, "sixes")):
        await contests.enter(GUILD, person, name)
    clock.advance(3600)


async def test_a_final_due_while_a_tournament_runs_waits_for_it(
    services: Services, field: dict[str, Table], clock: FakeClock
) -> None:
    contests = services.contests
    await two_entries_due(contests, clock)
    async with services.tournaments.reserve(GUILD, RULES):  # `/hog tournament` holds the server's lease
        assert await contests.close_due() == []
        assert (await contests.current(GUILD)).status is ContestStatus.OPEN
    assert len(await contests.close_due()) == 1


@pytest.fixture
def stand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, list[asyncio.subprocess.Process]]:
    """Finals computed by a process that never ends (final_stand_in.py): the file it makes once it has its
    job, and every such process started."""
    started: list[asyncio.subprocess.Process] = []
    spawn = asyncio.create_subprocess_exec

    async def spawned(*command: str, **options: object) -> asyncio.subprocess.Process:
        child = await spawn(*command, **options)  # type: ignore[arg-type]
        started.append(child)
        return child

    computing = tmp_path / "computing"
    monkeypatch.setenv("HOG_TEST_COMPUTING", str(computing))
    monkeypatch.setattr("bot.services.contests.service.FINAL_CHILD", "tests.bot.services.final_stand_in")
    monkeypatch.setattr(asyncio, "create_subprocess_exec", spawned)
    return computing, started


async def computing_final(
    contests: ContestService, clock: FakeClock, stand_in: tuple[Path, list[asyncio.subprocess.Process]]
) -> tuple["asyncio.Task[list[object]]", asyncio.subprocess.Process]:
    """Two entries' contest closed by the clock, its final computing in the stand-in's process (which never
    ends): the closing, and that process."""
    await two_entries_due(contests, clock)
    computing, started = stand_in
    closing = asyncio.create_task(contests.close_due())
    async with asyncio.timeout(HANG):
        while not computing.exists():  # the process has its job and computes
            await asyncio.sleep(0.01)
    (child,) = started
    return closing, child


async def test_a_final_stopped_while_it_computes_ends_its_process_and_stores_nothing(
    services: Services,
    field: dict[str, Table],
    clock: FakeClock,
    stand_in: tuple[Path, list[asyncio.subprocess.Process]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    contests = services.contests
    closing, child = await computing_final(contests, clock, stand_in)
    contests.stop()  # the bot is stopping
    assert await closing == []
    assert child.returncode is not None  # ended, not left computing
    assert (
        await contests.current(GUILD)
    ).status is ContestStatus.OPEN  # nothing stored: the next start plays it
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []  # stopped, not failed


async def test_a_final_computes_at_the_idle_priority_in_the_bots_own_scheduling_group(
    services: Services,
    field: dict[str, Table],
    clock: FakeClock,
    stand_in: tuple[Path, list[asyncio.subprocess.Process]],
) -> None:
    """Linux schedules each session's processes as one group, whatever their priorities: a final in a session
    of its own would weigh as much as the whole bot on a core they share. In the bot's session, at the idle
    priority, a turn takes the core back at once; in a process group of its own, a terminal's Ctrl-C (the
    bot's to handle) does not reach it."""
    contests = services.contests
    closing, child = await computing_final(contests, clock, stand_in)
    try:
        assert os.sched_getscheduler(child.pid) == os.SCHED_IDLE
        assert os.getsid(child.pid) == os.getsid(0)
        assert os.getpgid(child.pid) == child.pid != os.getpgid(0)
    finally:
        contests.stop()
        assert await closing == []


@pytest.fixture(params=[True, False], ids=["busy", "quiet"])
def bot_busy(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The bot busy (people playing) or quiet when a final starts, as its look before the start finds it."""
    monkeypatch.setattr(sharing, "EVERY", 0.05)
    monkeypatch.setattr(sharing, "LOOK", 0.05)
    monkeypatch.setattr(sharing, "BUSY", -1.0 if request.param else float("inf"))
    return bool(request.param)


async def test_a_final_started_while_people_play_computes_on_a_thread_fewer_free_to_move(
    services: Services,
    field: dict[str, Table],
    clock: FakeClock,
    stand_in: tuple[Path, list[asyncio.subprocess.Process]],
    bot_busy: bool,
) -> None:
    """While people play, a final's thread held to one core delayed the turns that woke there (turn p99
    3.4-3.8 ms beside it, 1.8-2.2 ms beside the same thread free to move): it computes on one thread fewer
    than the cores, on any of them. A final started while the bot is quiet uses every core."""
    contests = services.contests
    closing, child = await computing_final(contests, clock, stand_in)
    cores = os.sched_getaffinity(0)
    try:
        environ = Path(f"/proc/{child.pid}/environ").read_text().split("\0")
        told = dict(line.split("=", 1) for line in environ if line)
        assert told[THREADS_VARIABLE] == str(max(1, len(cores) - 1) if bot_busy else len(cores))
        await asyncio.sleep(3 * sharing.EVERY)  # a few looks later: never held to a core
        assert os.sched_getaffinity(child.pid) == cores
    finally:
        contests.stop()
        assert await closing == []
