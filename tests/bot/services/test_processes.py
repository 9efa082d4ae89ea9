"""Two bot processes on one database, on each backend (a press through each: test_concurrency.py): each
game is rated once, records of the same people never deadlock; every process sees an upload
being checked (one per person, `waiting` in all), each person's cooldown and a server's running tournament;
a lease outlives a dead process only until it expires, while a live holder keeps renewing its own; work
whose lease went to another process meanwhile stores nothing, so one holder's result at most is stored."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.config import Settings
from bot.domain.errors import (
    OnCooldown,
    PreviousUploadPending,
    TournamentOvertaken,
    TournamentRunning,
    UploadOvertaken,
    UploadsBusy,
)
from bot.services import GameService, Services
from bot.services.leases import LEASE_SECONDS, Lease, Leases
from bot.services.ratings import RatingService
from bot.services.strategies.service import StrategyService
from bot.services.tournaments.service import TOURNAMENT, TournamentService
from bot.storage import Database, open_migrated, postgres
from bot.storage import leases as lease_table
from bot.storage.leases import LeaseKind
from hogengine.rules import DEFAULT_RULES
from tests.hang import HANG
from tests.helpers import (
    ALICE,
    BOB,
    BUSY_ROLL_4,
    CAROL,
    CHANNEL,
    GUILD,
    ROLL_4,
    Duel,
    FakeClock,
    Gate,
    counted_seeds,
    run_tournament,
    upload_file,
    upload_limits,
)

UploadPair = tuple[StrategyService, StrategyService]  # (here, there): one of each of two bot processes
TournamentPair = tuple[TournamentService, TournamentService]


@pytest.fixture
async def elsewhere(settings: Settings) -> AsyncIterator[Database]:
    """The same database as another bot process opens it: connections of its own."""
    database = await open_migrated(settings.database_path, settings.database_url)
    yield database
    await database.close()


@pytest.fixture
async def entrants(db: Database, clock: FakeClock) -> None:
    """Two of Alice's strategies on GUILD: a tournament's least."""
    uploads = StrategyService(db, clock, upload_limits())
    try:
        for name, always in (("fours", 4), ("sixes", 6)):
            source = f"def final_strategy(score, opponent_score):\n    return {always}\n".encode()
            await upload_file(uploads, GUILD, ALICE, f"{name}.py", source)
            clock.advance(3600)
    finally:
        uploads.close()


@pytest.fixture
def upload_pair(db: Database, elsewhere: Database, clock: FakeClock, gate: Gate) -> Iterator[UploadPair]:
    """The upload services of two bot processes on the same database, their sandbox runs held by `gate`."""
    here = StrategyService(db, clock, upload_limits(workers=2, waiting=2))
    there = StrategyService(elsewhere, clock, upload_limits(workers=2, waiting=2))
    yield here, there
    gate.opened.set()
    here.close()
    there.close()


@pytest.fixture
def tournament_pair(db: Database, elsewhere: Database, clock: FakeClock) -> Iterator[TournamentPair]:
    """The tournament services of two bot processes on the same database."""
    here, there = TournamentService(db, clock), TournamentService(elsewhere, clock)
    yield here, there
    here.close()
    there.close()


@pytest.fixture
async def other(settings: Settings, clock: FakeClock) -> AsyncIterator[Services]:
    """Every service of a second bot process on the same database."""
    opened = await Services.open(settings.services, clock, counted_seeds())
    yield opened
    await opened.close()


async def test_each_game_is_rated_once_when_two_processes_rate_at_once(
    duel: Duel, ratings: RatingService, other: Services
) -> None:
    for _ in range(3):
        await duel(ALICE, BOB)
        await duel(BOB, CAROL)
    rated = await asyncio.gather(ratings.record(), other.ratings.record())
    assert sorted(rated[0] + rated[1]) == sorted({*rated[0], *rated[1]}) and len(rated[0] + rated[1]) == 6
    assert sorted(entry.games for entry in await ratings.leaderboard()) == [3, 3, 6]  # bob played all six


async def test_records_of_the_same_people_in_either_order_never_deadlock(
    service: GameService, other: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game and its rematch record the same two people, seats swapped: made at once in two processes,
    again and again, every one is stored, on the first try (PostgreSQL's retry of a deadlocked write is
    turned off here: it would hide a deadlock the order of the writes must prevent)."""
    monkeypatch.setattr(postgres, "ATTEMPTS", 1)
    for round_ in range(300):
        made = await asyncio.gather(
            service.challenge(CHANNEL + 2 * round_, ALICE, BOB),
            other.games.challenge(CHANNEL + 2 * round_ + 1, BOB, ALICE),
        )
        for match in made:
            await service.cancel(match.id, match.players[0].id if match.players[0] else 0)


async def test_uploads_are_rationed_across_processes(
    upload_pair: UploadPair, clock: FakeClock, gate: Gate
) -> None:
    here, there = upload_pair
    first = asyncio.create_task(upload_file(here, GUILD, ALICE, "four.py", BUSY_ROLL_4))
    await gate.reached()
    with pytest.raises(PreviousUploadPending):  # Alice's upload is being checked by the other process
        await upload_file(there, GUILD, ALICE, "five.py", ROLL_4)
    gate.entered.clear()
    second = asyncio.create_task(upload_file(there, GUILD, BOB, "six.py", ROLL_4))
    await gate.reached()
    with pytest.raises(UploadsBusy):  # two are checked, one in each process: the queue is full
        await upload_file(here, GUILD, CAROL, "seven.py", ROLL_4)
    gate.opened.set()
    assert [(await first).strategy.name, (await second).strategy.name] == ["four", "six"]
    with pytest.raises(OnCooldown):  # Alice's cooldown started in the other process
        await upload_file(there, GUILD, ALICE, "five.py", ROLL_4)
    clock.advance(here.limits.cooldown_seconds)
    assert (await upload_file(there, GUILD, ALICE, "five.py", ROLL_4)).strategy.name == "five"


@pytest.mark.usefixtures("entrants")
async def test_one_tournament_per_server_across_processes(tournament_pair: TournamentPair) -> None:
    here, there = tournament_pair
    async with here.reserve(GUILD):
        with pytest.raises(TournamentRunning):
            async with there.reserve(GUILD):
                pass
    async with there.reserve(GUILD) as draw:  # over here: the server may hold another
        assert len(draw.entrants) == 2


async def test_an_upload_that_lost_its_lease_to_another_process_stores_nothing(
    upload_pair: UploadPair, clock: FakeClock, gate: Gate
) -> None:
    """Alice's upload in one process stalls past its lease (its sandbox run held, the clock moved on), so
    her next upload, in the other process, takes the lease: that one is stored, the stalled one is refused
    and stores nothing, and sent again it is stored."""
    here, there = upload_pair
    stalled = asyncio.create_task(upload_file(here, GUILD, ALICE, "four.py", ROLL_4))
    await gate.reached()
    clock.advance(LEASE_SECONDS + 1)  # no renewal came meanwhile: the lease ran out
    gate.entered.clear()
    taken = asyncio.create_task(upload_file(there, GUILD, ALICE, "six.py", ROLL_4.replace(b"4", b"6")))
    await gate.reached()
    gate.opened.set()  # both run on, side by side
    with pytest.raises(UploadOvertaken, match="not stored"):
        await stalled
    assert (await taken).strategy.name == "six"
    assert [strategy.name for strategy in await here.active(GUILD, ALICE.id)] == ["six"]
    clock.advance(here.limits.cooldown_seconds)
    assert (await upload_file(here, GUILD, ALICE, "four.py", ROLL_4)).strategy.name == "four"


@pytest.mark.usefixtures("entrants")
async def test_a_tournament_that_lost_its_lease_to_another_process_stores_nothing(
    tournament_pair: TournamentPair, db: Database, clock: FakeClock
) -> None:
    """A server's tournament in one process stalls past its lease, so the other process starts the server's
    next one: while that one runs, the stalled one's standings are refused; only the other's are stored,
    and started again it is stored."""
    here, there = tournament_pair
    async with here.reserve(GUILD) as stalled:
        clock.advance(LEASE_SECONDS + 1)  # no renewal came meanwhile: the lease ran out
        async with there.reserve(GUILD) as draw:
            with pytest.raises(TournamentOvertaken, match="nothing of it was stored"):
                await here.play(stalled, ALICE)
            taken = await there.play(draw, BOB)
    stored = await db.fetch_all("SELECT started_by FROM tournaments")
    assert [row["started_by"] for row in stored] == [BOB.id]
    assert await here.latest(GUILD) == taken
    assert (await run_tournament(here, GUILD, ALICE, DEFAULT_RULES)).started_by == ALICE.id


async def test_a_dead_processs_lease_expires(db: Database, elsewhere: Database, clock: FakeClock) -> None:
    """A process killed while checking an upload leaves its lease behind: it blocks only until it expires."""
    now = clock()
    await elsewhere.write(
        lambda conn: lease_table.take(conn, LeaseKind.UPLOAD, ALICE.id, "dead", now + 60, now=now, limit=None)
    )
    upload = Lease(LeaseKind.UPLOAD, PreviousUploadPending, UploadOvertaken)
    leases = Leases(db, clock, seconds=60)
    with pytest.raises(PreviousUploadPending):
        await leases.check(upload, ALICE.id)
    clock.advance(60)
    async with leases.held(upload, ALICE.id):
        pass


class Renewals:
    """The pauses between a lease's renewals, each ended by the test: `next()` moves the clock past the
    pause the renewal loop waits in, and returns once that renewal was tried (the loop waits again)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._waiting: asyncio.Queue[tuple[float, asyncio.Future[None]]] = asyncio.Queue()

    async def pause(self, seconds: float) -> None:
        ended = asyncio.get_running_loop().create_future()
        self._waiting.put_nowait((seconds, ended))
        await ended

    async def next(self) -> None:
        seconds, ended = await asyncio.wait_for(self._waiting.get(), HANG)  # a loop that stopped: fail
        self.clock.advance(seconds)
        ended.set_result(None)
        following = await asyncio.wait_for(self._waiting.get(), HANG)  # the loop's next pause: it tried
        self._waiting.put_nowait(following)


async def test_a_live_holder_keeps_its_lease_past_the_lease_period(
    db: Database, elsewhere: Database, clock: FakeClock
) -> None:
    renewals = Renewals(clock)
    holder, other = Leases(db, clock, pause=renewals.pause), Leases(elsewhere, clock)
    async with holder.held(TOURNAMENT, GUILD) as taking:
        for _ in range(6):  # twice the lease period: renewed meanwhile
            await renewals.next()
        with pytest.raises(TournamentRunning):
            async with other.held(TOURNAMENT, GUILD):
                pass
        await db.write(taking.confirm)  # its result may be stored
    async with other.held(TOURNAMENT, GUILD):  # released at the end of the block
        pass


async def test_a_holder_that_lost_its_lease_can_neither_store_nor_end_the_next_ones(
    db: Database, elsewhere: Database, clock: FakeClock
) -> None:
    """A process stalled past its lease's expiry (the lease went to another) runs on: its storing
    transaction is refused while the other's goes through, and ending its block later leaves the other
    process's lease alone."""
    stalled, other = Leases(db, clock, seconds=60), Leases(elsewhere, clock, seconds=60)
    async with stalled.held(TOURNAMENT, GUILD) as lost:
        clock.advance(61)
        taken = other.held(TOURNAMENT, GUILD)
        taking = await taken.__aenter__()
        with pytest.raises(TournamentOvertaken):
            await db.write(lost.confirm)
        await elsewhere.write(taking.confirm)
    with pytest.raises(TournamentRunning):  # the stalled one's release left the other's lease alone
        await stalled.check(TOURNAMENT, GUILD)
    await taken.__aexit__(None, None, None)
    await stalled.check(TOURNAMENT, GUILD)


class RenewalFailsOnce:
    """The database, but the first renewal of a lease fails as a busy database's would."""

    def __init__(self, db: Database) -> None:
        self.db, self.failed = db, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    async def write(self, work: Any) -> Any:
        if getattr(work, "func", None) is lease_table.renew and not self.failed:
            self.failed = True
            raise ConnectionError("the database is busy")
        return await self.db.write(work)


async def test_a_failed_renewal_costs_neither_the_work_nor_the_lease(db: Database, clock: FakeClock) -> None:
    flaky, renewals = RenewalFailsOnce(db), Renewals(clock)
    holder = Leases(flaky, clock, pause=renewals.pause)  # type: ignore[arg-type]
    async with holder.held(TOURNAMENT, GUILD):
        for _ in range(6):  # a failed renewal, then good ones, for twice the lease period
            await renewals.next()
        with pytest.raises(TournamentRunning):
            await Leases(db, clock).check(TOURNAMENT, GUILD)
    assert flaky.failed
    await Leases(db, clock).check(TOURNAMENT, GUILD)  # released at the end of the block
