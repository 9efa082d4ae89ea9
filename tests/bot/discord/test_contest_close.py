"""The close by itself, over real sockets with the real `python -m bot`: a bot that was down at the close
plays the final when it starts and posts its results once; two shard processes on one PostgreSQL post
each server's results once; a process killed (-9) mid-final leaves nothing stored, and the next start plays
it again and posts once. The contests are set up beforehand through the services, on a clock of the past,
so their close has come by the time the bot starts."""

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bot.config import Settings
from bot.domain.matches import Player
from bot.services import Services
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.database import NEW
from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Request
from tests.bot.discord.test_shards import GUILDS, rows
from tests.hang import HANG
from tests.helpers import FakeClock, entries, upload_file
from tests.postgres_server import PostgresServer

RULES = "swine-align"


def results_post(channel: int) -> Callable[[Request], bool]:
    """The bot's post of a contest's results in this channel."""
    return lambda r: (
        r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and "has closed: " in str((r.body or {}).get("content"))
    )


def posts(fake: FakeDiscord, channel: int) -> list[Request]:
    return [request for request in fake.requests if results_post(channel)(request)]


async def seeded(settings: Settings, guild: int, channel: int, extra: int = 0) -> None:
    """A contest of `guild` opened in `channel` on a clock of 2023, closing an hour later; four people
    entered the four test tables, and `extra` more entered random tables (stored directly: quick)."""
    clock = FakeClock()
    services = await Services.open(settings.services, clock)
    try:
        contest = await services.contests.open(
            guild, channel, Player(1, "staff"), rules=RULES, fmt="exact", closes="in 1 hour", title="Final"
        )
        people = [Player(2000 + n, f"student{n}") for n in range(4 + extra)]
        for person, (name, table) in zip(people, entries(), strict=False):
            await upload_file(
                services.strategies, guild, person, f"{name}.json", json.dumps(table.tolist()).encode()
            )
        example = (await services.strategies.active(guild))[0]
        draws = np.random.default_rng(7)
        for person in people[4:]:
            table = draws.integers(1, 11, (100, 100)).astype(np.int8)
            copy = replace(example, id=NEW, owner=person, name=f"r{person.id}", table=table, tables=())
            await services.db.write(lambda conn, p=person: player_table.upsert_players(conn, [p], clock()))
            await services.db.write(lambda conn, s=copy: strategy_table.insert_strategy(conn, s))
        for person, strategy in zip(people, await services.strategies.active(guild), strict=True):
            await services.contests.enter(guild, person, strategy.name)
        assert (await services.contests.status(guild, people[0].id)).entries == 4 + extra
        assert contest.closes_at < 1.8e9  # long past, in real time
    finally:
        await services.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord of two servers on two shards (a process without HOG_SHARD_IDS runs both)."""
    server = FakeDiscord(guilds=GUILDS, shards=2)
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def sqlite_settings(tmp_path: Path, solver_cache: Path) -> Settings:
    return Settings(
        database_path=tmp_path / "hog.sqlite3",
        solver_cache_path=solver_cache,
        upload_cooldown_seconds=0,
        _env_file=None,  # type: ignore[call-arg]
    )


def contest_row(data: Path) -> tuple[str, int]:
    with sqlite3.connect(data / "hog.sqlite3") as db:
        ((status, posted),) = db.execute("SELECT status, posted FROM contests").fetchall()
    return status, posted


async def test_a_bot_down_at_the_close_posts_the_results_once_when_it_starts(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, sqlite_settings: Settings
) -> None:
    await seeded(sqlite_settings, GUILD_ID, CHANNEL_ID)
    bot = await launch(tmp_path)
    await fake.until(results_post(CHANNEL_ID), timeout=HANG)
    assert await bot.terminate() == 0
    assert len(posts(fake, CHANNEL_ID)) == 1
    assert contest_row(tmp_path) == ("closed", 1)
    bot = await launch(tmp_path)  # and a later start posts nothing more
    assert await bot.terminate() == 0
    assert len(posts(fake, CHANNEL_ID)) == 1
    assert bot.troubles() == []


async def test_two_shard_processes_on_one_postgresql_post_each_servers_results_once(
    fake: FakeDiscord, launch: Launch, postgres: PostgresServer, tmp_path: Path, solver_cache: Path
) -> None:
    url = postgres.new_database()
    settings = Settings(
        database_path=tmp_path / "unused.sqlite3",
        database_url=url,
        solver_cache_path=solver_cache,
        upload_cooldown_seconds=0,
        _env_file=None,  # type: ignore[call-arg]
    )
    channels = fake.channels
    for guild in GUILDS:
        await seeded(settings, guild, channels[guild])
    bots = []
    for shard in (0, 1):
        folder = tmp_path / str(shard)
        folder.mkdir()
        shards = {"HOG_DATABASE_URL": url, "HOG_SHARD_COUNT": "2", "HOG_SHARD_IDS": str(shard)}
        bots.append(await launch(folder, **shards))
    for guild in GUILDS:
        await fake.until(results_post(channels[guild]), timeout=HANG)
    assert [await bot.terminate() for bot in bots] == [0, 0]
    assert [len(posts(fake, channels[guild])) for guild in GUILDS] == [1, 1]
    stored = await rows(url, "SELECT guild_id, status, posted FROM contests ORDER BY id")
    assert [(row["guild_id"], row["status"], row["posted"]) for row in stored] == [
        (guild, "closed", 1) for guild in GUILDS
    ]
    assert [bot.troubles() for bot in bots] == [[], []]


async def test_a_kill_mid_final_stores_nothing_and_the_next_start_posts_once(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, sqlite_settings: Settings
) -> None:
    await seeded(sqlite_settings, GUILD_ID, CHANNEL_ID, extra=296)  # 300 entries: a final of seconds
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="20")  # a tick of the clock every second
    while not _leased(tmp_path):  # the final is computing under the server's lease
        await asyncio.sleep(0.01)
    await bot.kill()
    assert contest_row(tmp_path) == ("open", 0)  # nothing of it stored
    with sqlite3.connect(tmp_path / "hog.sqlite3") as db:  # as time passes, the dead process's lease expires
        db.execute("UPDATE leases SET expires_at = 0")
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="20")
    await fake.until(results_post(CHANNEL_ID), timeout=HANG)
    assert await bot.terminate() == 0
    assert len(posts(fake, CHANNEL_ID)) == 1
    assert "has closed: 300 entries." in posts(fake, CHANNEL_ID)[0].body["content"]
    assert contest_row(tmp_path) == ("closed", 1)


def _leased(data: Path) -> bool:
    with sqlite3.connect(data / "hog.sqlite3") as db:
        return bool(db.execute("SELECT 1 FROM leases WHERE kind = 'tournament'").fetchall())
