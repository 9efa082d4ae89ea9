"""Tournaments of stored strategies: standings equal the solver's own, progress arrives, results stay."""

import asyncio
import json
import random
import re

import numpy as np
import pytest

from bot.domain.errors import TournamentRefused, TournamentStopped
from bot.domain.shards import Shards
from bot.services.privacy import DELETED_STRATEGY, PrivacyService
from bot.services.strategies.service import StrategyService
from bot.services.tournaments.service import TournamentService
from bot.storage import Database
from hogengine.solver import tournament_exact, tournament_sampled
from hogengine.strategies import Table
from tests.hang import HANG
from tests.helpers import ALICE, BOB, CAROL, GUILD, FakeClock, entries, run_tournament, upload_file

RULES = "swine-align"


def by_name(entries: list[tuple[str, Table]]) -> list[tuple[str, Table]]:
    """Entries in name order, as the service enters them (and `hog tournament` takes files named so)."""
    return sorted(entries, key=lambda entry: entry[0])


@pytest.fixture
async def entered(strategies: StrategyService, clock: FakeClock) -> list[tuple[str, Table]]:
    """Each entry uploaded as a JSON table by a different owner (alice twice, a minute apart)."""
    for owner, (name, table) in zip((ALICE, BOB, CAROL, ALICE), entries(), strict=True):
        clock.advance(60)
        await upload_file(strategies, GUILD, owner, f"{name}.json", json.dumps(table.tolist()).encode())
    await upload_file(strategies, GUILD + 1, BOB, "elsewhere.json", json.dumps([[5] * 100] * 100).encode())
    return entries()


async def test_exact_standings_are_the_solvers(
    tournaments: TournamentService, entered: list[tuple[str, Table]]
) -> None:
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    result = await run_tournament(tournaments, GUILD, BOB, RULES, "exact", progress=progress)
    assert result.seed is None  # exact win rates need no dice
    expected = tournament_exact(RULES, by_name(entered))
    assert [(s.name, s.points, s.tiebreak) for s in result.standings] == [
        (row.name, row.wins, row.tie_break) for row in expected.rows
    ]
    assert [s.place for s in result.standings] == [1, 2, 3, 4]
    owners = {"fours": ALICE.id, "sixes": BOB.id, "course": CAROL.id, "mixed": ALICE.id}
    assert all(s.owner_id == owners[s.name] and s.strategy_id is not None for s in result.standings)
    assert (result.rules, result.format, result.goal, result.started_by) == (RULES, "exact", 100, BOB.id)
    assert seen and seen[-1][0] == seen[-1][1]
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert await tournaments.latest(GUILD) == result == await tournaments.get(result.id)
    places = {s.name: s.place for s in result.standings}  # every pairing kept, by place: who beat whom
    assert sorted((p.a_place, p.b_place, p.a_result, p.b_result) for p in result.pairings) == sorted(
        (places[m.a], places[m.b], m.a_result, m.b_result) for m in expected.matches
    )
    assert len(result.pairings) == 4 * 3 // 2


async def test_standings_are_unshown_until_shown_in_the_channel_they_were_asked_in(
    tournaments: TournamentService, db: Database, entered: list[tuple[str, Table]]
) -> None:
    async with tournaments.reserve(GUILD, RULES, channel_id=4242) as draw:
        result = await tournaments.play(draw, BOB)
    assert result.channel_id == 4242
    assert await tournaments.unshown() == [result]  # a crash now would leave them unseen
    elsewhere = Shards(2, frozenset({1 - (GUILD >> 22) % 2}))  # a process of the other shard
    assert await TournamentService(db, shards=elsewhere).unshown() == []
    await tournaments.shown(result.id)
    assert await tournaments.unshown() == []


async def test_a_stopped_tournament_stores_nothing(
    tournaments: TournamentService, entered: list[tuple[str, Table]]
) -> None:
    tournaments.stop()  # the bot is stopping: the solver's next step ends the tournament

    with pytest.raises(TournamentStopped, match="nothing was stored"):
        await run_tournament(tournaments, GUILD, BOB, RULES, "exact")
    assert await tournaments.latest(GUILD) is None


async def test_sampled_standings_are_the_solvers(
    tournaments: TournamentService, entered: list[tuple[str, Table]]
) -> None:
    result = await run_tournament(tournaments, GUILD, ALICE, "fa20", "sampled")
    assert result.seed is not None and re.fullmatch(r"[0-9a-f]{16}", result.seed)  # what replays it
    expected = tournament_sampled(RULES, by_name(entered), random.Random(result.seed))
    assert [(s.name, s.points, s.tiebreak) for s in result.standings] == [
        (row.name, row.wins, row.tie_break) for row in expected.rows
    ]
    places = {s.name: s.place for s in result.standings}  # games won of nine, each pairing
    assert sorted((p.a_place, p.b_place, p.a_result, p.b_result) for p in result.pairings) == sorted(
        (places[m.a], places[m.b], m.a_result, m.b_result) for m in expected.matches
    )
    assert all(p.a_result + p.b_result == 9 for p in result.pairings)
    assert await tournaments.latest(GUILD, "pork-chop") is None


async def test_refusals(tournaments: TournamentService, strategies: StrategyService) -> None:
    with pytest.raises(TournamentRefused, match="exact or sampled"):
        await run_tournament(tournaments, GUILD, ALICE, RULES, "knockout")
    await upload_file(strategies, GUILD, ALICE, "fours.json", json.dumps([[4] * 100] * 100).encode())
    with pytest.raises(TournamentRefused, match="at least two"):
        await run_tournament(tournaments, GUILD, ALICE, RULES)


async def test_one_tournament_at_a_time_per_server(
    tournaments: TournamentService, entered: list[tuple[str, Table]]
) -> None:
    computing, may_end = asyncio.Event(), asyncio.Event()

    async def held(done: int, total: int) -> None:  # the first's progress: it waits until told to go on
        computing.set()
        await may_end.wait()

    first = asyncio.create_task(run_tournament(tournaments, GUILD, ALICE, RULES, "sampled", progress=held))
    await asyncio.wait_for(computing.wait(), HANG)  # the first holds the server's lease, however slow it was
    with pytest.raises(TournamentRefused, match="already running"):
        await run_tournament(tournaments, GUILD, BOB, RULES)
    may_end.set()
    await first
    assert len((await run_tournament(tournaments, GUILD, BOB, RULES)).standings) == 4


async def test_forgotten_owners_leave_anonymous_standings(
    tournaments: TournamentService, privacy: PrivacyService, entered: list[tuple[str, Table]]
) -> None:
    result = await run_tournament(tournaments, GUILD, ALICE, RULES)
    await privacy.forget(ALICE.id)
    after = await tournaments.get(result.id)
    assert after.started_by is None
    for before, now in zip(result.standings, after.standings, strict=True):
        if before.owner_id == ALICE.id:
            assert (now.name, now.owner_id, now.strategy_id) == (DELETED_STRATEGY, None, None)
        else:
            assert now == before


async def test_a_strategy_deleted_while_the_tournament_runs_keeps_its_place(
    tournaments: TournamentService, strategies: StrategyService, entered: list[tuple[str, Table]]
) -> None:
    deleted = []

    async def progress(done: int, total: int) -> None:
        if not deleted:
            deleted.append(await strategies.delete(GUILD, "sixes", BOB.id))

    result = await run_tournament(tournaments, GUILD, ALICE, RULES, progress=progress)

    assert deleted
    expected = tournament_exact(RULES, by_name(entered))
    assert [(s.name, s.points, s.tiebreak) for s in result.standings] == [
        (row.name, row.wins, row.tie_break) for row in expected.rows
    ]
    sixes = next(s for s in result.standings if s.name == "sixes")
    assert (sixes.strategy_id, sixes.owner_id, sixes.owner_name) == (None, BOB.id, "bob")
    assert await tournaments.latest(GUILD) == result


async def test_an_owner_forgotten_while_the_tournament_runs_is_anonymous_in_it(
    tournaments: TournamentService, privacy: PrivacyService, entered: list[tuple[str, Table]]
) -> None:
    forgotten = []

    async def progress(done: int, total: int) -> None:
        if not forgotten:
            forgotten.append(await privacy.forget(ALICE.id))  # she started it and owns two entries

    result = await run_tournament(tournaments, GUILD, ALICE, RULES, progress=progress)

    assert forgotten and result.started_by is None
    expected = tournament_exact(RULES, by_name(entered))
    assert [(s.points, s.tiebreak) for s in result.standings] == [
        (row.wins, row.tie_break) for row in expected.rows
    ]
    for standing, row in zip(result.standings, expected.rows, strict=True):
        if row.name in ("fours", "mixed"):
            assert (standing.name, standing.owner_id, standing.strategy_id) == (DELETED_STRATEGY, None, None)
        else:
            assert standing.name == row.name and standing.strategy_id is not None


async def test_a_random_strategy_plays_its_recorded_tables_and_the_seed_replays_them(
    tournaments: TournamentService, strategies: StrategyService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 001: a random strategy's sampled games each play one of its recorded tables, so they differ,
    and the stored seed with the stored tables plays the very same tournament again."""
    from hogengine.solver import tournament  # noqa: PLC0415 - its `play_games` is watched here

    dice = b"import random\ndef final_strategy(score, opponent):\n    return random.choice([3, 4, 5])\n"
    await upload_file(strategies, GUILD, ALICE, "dice.py", dice, rules="pig-fest")
    fives = json.dumps([[5] * 100] * 100).encode()
    await upload_file(strategies, GUILD, BOB, "fives.json", fives, rules="pig-fest")
    stored = await strategies.show(GUILD, "dice")
    played: list[bytes] = []  # the random entry's choices at every score, game by game

    def watched(rules, tables, seats, *args, **options):  # the games' tables, game by game
        for row in seats.tolist():
            played.extend(tables[t].tobytes() for t in row if tables[t].tobytes() != bytes([5]) * 10_000)
        return play_games(rules, tables, seats, *args, **options)

    play_games = tournament.play_games
    monkeypatch.setattr(tournament, "play_games", watched)
    result = await run_tournament(tournaments, GUILD, CAROL, "pig-fest", "sampled")
    assert played == [table.tobytes() for table in stored.tables]  # game g played table g
    again = tournament_sampled(
        "pig-fest",
        [("dice", stored.tables[0]), ("fives", np.full((100, 100), 5, dtype=np.int8))],
        random.Random(result.seed),
        recorded={"dice": stored.tables},
    )
    assert [(s.name, s.points, s.tiebreak) for s in result.standings] == [
        (row.name, row.wins, row.tie_break) for row in again.rows
    ]
