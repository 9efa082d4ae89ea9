"""The tables of Activity instances (ActivityService) on each backend, a real SQLite file and a real
PostgreSQL database: which game an instance shows, who waits at it, the game started when someone takes
the seat, and what two people (or two bot processes) doing so at once leave behind."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.domain.activities import Instance
from bot.domain.errors import AlreadyPlaying, GameOnAtTable, NotAServerChannel, TableChanged
from bot.services import MatchStatus, Services
from bot.services.activities import ActivityService
from bot.storage import activities as table_store
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, counted_seeds

HERE = Instance("i-1", GUILD, CHANNEL, frozenset({ALICE.id, BOB.id, CAROL.id}))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def opened(folder: Path, database_url: str | None, solver_cache: Path, clock: FakeClock) -> Services:
    settings = Settings(
        database_path=folder / "hog.sqlite3",
        database_url=database_url,
        solver_cache_path=solver_cache,
        _env_file=None,  # type: ignore[call-arg]
    )
    return await Services.open(settings.services, clock, counted_seeds())


@pytest.fixture
async def services(
    tmp_path: Path, database_url: str | None, solver_cache: Path, clock: FakeClock
) -> AsyncIterator[Services]:
    services = await opened(tmp_path, database_url, solver_cache, clock)
    yield services
    await services.close()


@pytest.fixture
def tables(services: Services) -> ActivityService:
    return services.activities


async def test_a_new_instance_shows_the_game_its_person_has_open_in_its_channel(
    services: Services, tables: ActivityService
) -> None:
    playing = await services.games.vs_bot(CHANNEL, BOB, guild_id=GUILD)
    table = await tables.join(HERE, ALICE)  # alice has no game here: the lobby
    assert (table.match, table.host, table.channel_id, table.guild_id) == (None, None, CHANNEL, GUILD)
    table = await tables.join(HERE, BOB)
    assert table.match is not None and table.match.id == playing.id and table.playing
    assert (await tables.join(HERE, ALICE)).match == table.match  # the table shows it to everyone now
    with pytest.raises(NotAServerChannel):
        await tables.join(Instance("i-dm", None, CHANNEL, frozenset({ALICE.id})), ALICE)


async def test_a_launch_from_a_board_shows_its_game(services: Services, tables: ActivityService) -> None:
    game = await services.games.vs_bot(CHANNEL, ALICE, guild_id=GUILD)
    await tables.launched("i-2", GUILD, CHANNEL, game.id)
    shown = (await tables.table("i-2")).match
    assert shown is not None and shown.id == game.id
    other = await services.games.vs_bot(CHANNEL + 1, BOB, guild_id=GUILD)
    await tables.launched("i-3", GUILD, CHANNEL, other.id)  # a board of another channel: not this table's
    assert (await tables.table("i-3")).match is None


async def test_a_friend_takes_the_seat_and_the_game_starts(
    services: Services, tables: ActivityService
) -> None:
    await tables.join(HERE, ALICE)
    waiting = await tables.host(HERE.id, ALICE, "sp17", 40)
    assert (waiting.host, waiting.rules, waiting.goal, waiting.match) == (ALICE, "pork-chop", 40, None)
    started = await tables.sit(HERE.id, BOB)
    match = started.match
    assert match is not None and match.status is MatchStatus.ACTIVE and started.host is None
    assert match.players == (ALICE, BOB) and (match.rules, match.goal) == ("pork-chop", 40)
    with pytest.raises(GameOnAtTable):
        await tables.host(HERE.id, CAROL, "sp17", 40)
    await services.games.forfeit(match.id, BOB.id)
    assert not (await tables.table(HERE.id)).playing
    assert (await tables.host(HERE.id, CAROL, "swine-align", 100)).host == CAROL  # a new game may start


async def test_someone_already_playing_in_the_channel_cannot_take_the_seat(
    services: Services, tables: ActivityService
) -> None:
    await services.games.vs_bot(CHANNEL, BOB, guild_id=GUILD)  # bob's game on the board, not this table's
    await tables.join(HERE, ALICE)
    await tables.host(HERE.id, ALICE, "swine-align", 100)
    with pytest.raises(AlreadyPlaying):
        await tables.sit(HERE.id, BOB)
    assert (await tables.table(HERE.id)).host == ALICE  # still waiting


async def test_two_processes_seating_two_people_at_once_start_one_game(
    tmp_path: Path, database_url: str | None, solver_cache: Path, clock: FakeClock
) -> None:
    """Two bot processes on one database (their own locks, their own services): bob and carol take the
    seat across from alice at the same moment; one game starts, the other is refused, nothing is left
    half made."""
    one = await opened(tmp_path, database_url, solver_cache, clock)
    two = await opened(tmp_path, database_url, solver_cache, clock)
    try:
        await one.activities.join(HERE, ALICE)
        await one.activities.host(HERE.id, ALICE, "swine-align", 100)
        results = await asyncio.gather(
            one.activities.sit(HERE.id, BOB), two.activities.sit(HERE.id, CAROL), return_exceptions=True
        )
        seated = [result for result in results if not isinstance(result, BaseException)]
        refused = [result for result in results if isinstance(result, BaseException)]
        assert len(seated) == 1 and len(refused) == 1
        assert isinstance(refused[0], TableChanged | GameOnAtTable | AlreadyPlaying), refused[0]
        table = await one.activities.table(HERE.id)
        assert table.match is not None and table.match.players[0] == ALICE
        rows = await one.db.fetch_all("SELECT status FROM matches WHERE channel_id = ?", (CHANNEL,))
        assert sorted(row["status"] for row in rows) in (["active"], ["active", "cancelled"])
    finally:
        await one.close()
        await two.close()


async def test_a_rematch_voted_on_the_board_is_the_tables_next_game(
    services: Services, tables: ActivityService
) -> None:
    await tables.join(HERE, ALICE)
    table = await tables.versus_house(HERE.id, ALICE, "swine-align", 100, "easy")
    assert table.match is not None
    await services.games.forfeit(table.match.id, ALICE.id)
    rematch = await services.games.rematch(table.match.id, ALICE.id)  # the board's button: the bot voted
    assert rematch is not None
    shown = (await tables.table(HERE.id)).match
    assert shown is not None and shown.id == rematch.id


async def test_forgetting_the_one_waiting_leaves_the_table_without_them(
    services: Services, tables: ActivityService
) -> None:
    await tables.join(HERE, ALICE)
    await tables.host(HERE.id, ALICE, "swine-align", 100)
    await services.privacy.forget(ALICE.id)
    assert (await tables.table(HERE.id)).host is None


async def test_a_change_anywhere_shows_in_the_stamps_and_old_instances_go(
    services: Services, tables: ActivityService, clock: FakeClock
) -> None:
    await tables.join(HERE, ALICE)
    before = (await tables.stamps([HERE.id, "i-none"]))[HERE.id]
    table = await tables.versus_house(HERE.id, ALICE, "swine-align", 100, "easy")
    assert table.match is not None
    started = (await tables.stamps([HERE.id]))[HERE.id]
    assert started.version > before.version and started.match_id == table.match.id
    await services.games.play(table.match.id, ALICE.id, 0, 3)
    assert (await tables.stamps([HERE.id]))[HERE.id].match_version > (started.match_version or 0)
    clock.advance(table_store.KEPT_SECONDS + 1)
    await tables.join(Instance("i-new", GUILD, CHANNEL + 1, frozenset({BOB.id})), BOB)
    assert await tables.stamps([HERE.id]) == {}  # left alone past the time an instance is kept
