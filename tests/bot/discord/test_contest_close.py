"""The close by itself, over real sockets with the real `python -m bot`: the reminders before the close and
an invitation's answer are said once each across a crash and restarts; a bot that was down at the close
plays the final when it starts and posts its results once; two shard processes on one PostgreSQL post
each server's results once; a process killed (-9) mid-final leaves nothing stored, and the next start plays
it again and posts once. The contests are set up beforehand through the services, on a clock of the past,
so their close has come by the time the bot starts."""

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

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
    async with asyncio.timeout(HANG):
        while not (computing := _final_processes(bot.process.pid)):  # the final computes, in its process
            await asyncio.sleep(0.01)
    assert _leased(tmp_path)  # under the server's lease
    await bot.kill()
    async with asyncio.timeout(HANG):  # the final's process dies with the bot: nothing computes on
        while any(map(_alive, computing)):
            await asyncio.sleep(0.01)
    assert contest_row(tmp_path) == ("open", 0)  # nothing of it stored
    with sqlite3.connect(tmp_path / "hog.sqlite3") as db:  # as time passes, the dead process's lease expires
        db.execute("UPDATE leases SET expires_at = 0")
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="20")
    await fake.until(results_post(CHANNEL_ID), timeout=HANG)
    assert await bot.terminate() == 0
    assert len(posts(fake, CHANNEL_ID)) == 1
    assert "has closed: 300 entries." in posts(fake, CHANNEL_ID)[0].body["content"]
    assert contest_row(tmp_path) == ("closed", 1)


def _final_processes(parent: int) -> list[int]:
    """The processes `parent` started to compute a contest's final."""
    found = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
            command = (status.parent / "cmdline").read_bytes()
        except OSError:  # it ended meanwhile
            continue
        if int(fields[1]) == parent and b"bot.services.contests.final_child" in command:
            found.append(int(status.parent.name))
    return found


def _alive(pid: int) -> bool:
    """Whether the process still runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _leased(data: Path) -> bool:
    with sqlite3.connect(data / "hog.sqlite3") as db:
        return bool(db.execute("SELECT 1 FROM leases WHERE kind = 'tournament'").fetchall())


ROLE = 7300  # the students' role a contest's reminders ping
SOONER = 600.0  # seconds: the contests below were opened ten minutes ago, so their reminders are due now


def reminder_post(channel: int, title: str) -> Callable[[Request], bool]:
    """The bot's reminder in this channel of the contest of this title."""
    return lambda r: (
        r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and "⏰" in str((r.body or {}).get("content"))
        and f"**{title}**" in str((r.body or {}).get("content"))
    )


def reminders(fake: FakeDiscord, title: str) -> list[Request]:
    return [request for request in fake.requests if reminder_post(CHANNEL_ID, title)(request)]


async def opened_before(settings: Settings, rules: str, closes: str, title: str, **options: Any) -> None:
    """A contest of GUILD_ID opened ten minutes ago in real time, closing `closes` from then."""
    services = await Services.open(settings.services, FakeClock(time.time() - SOONER))
    try:
        await services.contests.open(
            GUILD_ID, CHANNEL_ID, Player(1, "staff"), rules=rules, fmt="exact", closes=closes, title=title,
            **options,
        )  # fmt: skip
    finally:
        await services.close()


async def answered_invitation(settings: Settings, inviter: Player, invitee: Player) -> None:
    """An invitation to the Day contest accepted just before a crash: its inviter not told yet."""
    services = await Services.open(settings.services, time.time)
    try:
        contest = await services.contests.current(GUILD_ID, RULES)
        await services.contests.invite((GUILD_ID, CHANNEL_ID), inviter, invitee, False, RULES)
        await services.contests.accept(contest.id, inviter, invitee)
    finally:
        await services.close()


def told(inviter: Player, invitee: Player) -> Callable[[Request], bool]:
    """The bot's word to `inviter` that `invitee` accepted."""
    said = f"<@{inviter.id}>, **{invitee.name}** accepted your invitation"
    return lambda r: (
        r.method == "POST"
        and r.path == f"/channels/{CHANNEL_ID}/messages"
        and str((r.body or {}).get("content")).startswith(said)
    )


async def test_reminders_and_an_invitations_answer_are_said_once_each_across_a_crash_and_restarts(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, sqlite_settings: Settings
) -> None:
    # A day's reminder due now (pinging the students' role), and an hour's in another contest.
    await opened_before(sqlite_settings, RULES, "in 1445 minutes", "Day", ping_role_id=ROLE)
    await opened_before(sqlite_settings, "pork-chop", "in 61 minutes", "Hour")
    ada, bea, cid, dee = (Player(2001 + n, name) for n, name in enumerate(("ada", "bea", "cid", "dee")))
    await answered_invitation(sqlite_settings, ada, bea)
    bot = await launch(tmp_path)
    day = await fake.until(reminder_post(CHANNEL_ID, "Day"), timeout=HANG)
    await fake.until(reminder_post(CHANNEL_ID, "Hour"), timeout=HANG)
    inviter = await fake.until(told(ada, bea), timeout=HANG)
    await bot.kill()  # a crash after they were posted

    assert str(day.body["content"]).startswith(
        f"<@&{ROLE}> ⏰ **Day** (Swine Align / Pig Pass, exact) closes in 24"
    )
    assert day.body["allowed_mentions"]["parse"] == [] and day.body["allowed_mentions"]["roles"] == [ROLE]
    assert inviter.body["allowed_mentions"]["parse"] == [] and inviter.body["allowed_mentions"]["users"] == [
        2001
    ]
    # While the bot is down, another contest's reminder falls due and another invitation is answered: the
    # next start says both, in the round of the clock in which any repeat of the others would be said.
    await opened_before(sqlite_settings, "piggy-back", "in 61 minutes", "Later")
    await answered_invitation(sqlite_settings, cid, dee)
    bot = await launch(tmp_path)
    await fake.until(reminder_post(CHANNEL_ID, "Later"), timeout=HANG)
    await fake.until(told(cid, dee), timeout=HANG)
    assert await bot.terminate() == 0
    bot = await launch(tmp_path)  # and once more, an orderly restart
    assert await bot.terminate() == 0
    assert [len(reminders(fake, title)) for title in ("Day", "Hour", "Later")] == [1, 1, 1]
    assert [len([r for r in fake.requests if told(*pair)(r)]) for pair in ((ada, bea), (cid, dee))] == [1, 1]
    with sqlite3.connect(tmp_path / "hog.sqlite3") as db:
        assert db.execute("SELECT title, reminded FROM contests ORDER BY id").fetchall() == [
            ("Day", 24),
            ("Hour", 1),
            ("Later", 1),
        ]
    assert bot.troubles() == []
