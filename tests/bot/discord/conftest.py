"""A simulated Discord (SimCord) around the real HogBot on a real SQLite file, with deterministic dice; and
the fake Discord over real sockets, for the bot started as a process of its own."""

import asyncio
from asyncio import FIRST_COMPLETED
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import discord
import pytest
import simcord
from simcord.http import router

from bot.config import Settings, shard_ids
from bot.discord import HogBot
from bot.discord.client import now
from bot.services import Services
from bot.services.games.service import Seeds
from tests.bot.discord.fake_discord import FakeDiscord
from tests.bot.discord.harness import Network, World
from tests.bot.discord.over_sockets import BotProcess
from tests.hang import HANG
from tests.helpers import counted_seeds

GUILD_ID = 424242424242424242
TURN_TIMEOUT = 300.0
CHALLENGE_TIMEOUT = 600.0
UPLOAD_TIME_LIMIT = 0.5  # CPU seconds: plenty for the tests' honest strategies, short for an endless one
# SimCord's settle horizon: a bot's timer due later than this is the virtual clock's (advance_time moves it),
# an earlier one fires in real time; and a settle waits this long for the bot's work. Not a budget for heavy
# work: a test makes the solve its bot needs (solve(rules, 100, solver_cache)) before the bot needs it.
SETTLE_HORIZON = 10.0


@pytest.fixture
def seeds() -> Seeds:
    """Dice seeds from a counter, so every run rolls the same games."""
    return counted_seeds()


@pytest.fixture
def settings(tmp_path: Path, solved: Path) -> Settings:
    return Settings(
        database_path=tmp_path / "hog.sqlite3",
        solver_cache_path=solved,
        dev_guild_id=GUILD_ID,
        turn_timeout_seconds=TURN_TIMEOUT,
        challenge_timeout_seconds=CHALLENGE_TIMEOUT,
        bot_move_delay_seconds=0,
        upload_cooldown_seconds=0,
        upload_time_limit_seconds=UPLOAD_TIME_LIMIT,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture
async def world(settings: Settings, seeds: Seeds) -> AsyncIterator[World]:
    services = await Services.open(settings.services, clock=now, seeds=seeds)
    env = simcord.Env(HogBot(settings, services=services), settle_timeout=SETTLE_HORIZON, shard_count=1)
    guild = env.create_guild("Hog Club", id=GUILD_ID)  # the bot syncs its commands to this guild
    channel = guild.create_text_channel("hog")
    moderators = guild.create_role(
        "Mods", permissions=discord.Permissions(manage_messages=True, manage_guild=True)
    )
    await env.start()
    people = [guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol")]
    mod = guild.add_member(env.create_user("mod"), roles=[moderators])
    world = World(env, settings, seeds, channel, *people, mod)
    try:
        yield world
    finally:
        bot = world.bot
        await env.shutdown()
        await bot.close()
    unexpected = env.errors_since(world.errors_seen)
    assert not unexpected, unexpected


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> Network:
    """The network between the bot and (Simulated) Discord, to cut in a test."""
    network = Network(router.dispatch)
    monkeypatch.setattr(router, "dispatch", network.route)
    return network


@pytest.fixture(autouse=True)
def no_apologies(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Any error the bot logs (it apologised to someone) fails the test; tests expecting one clear caplog.
    The fake Discord server's own aiohttp logger is not the bot's: it complains when a bot hangs up on it."""
    yield
    records = caplog.get_records("call")
    errors = [r.getMessage() for r in records if r.levelname == "ERROR" and r.name != "aiohttp.server"]
    assert not errors, errors


@pytest.fixture
def downloads(world: World, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The attachments the bot downloads, as they are downloaded."""
    seen: list[str] = []
    download = world.bot.http.get_from_cdn

    async def counted(url: str) -> bytes:
        seen.append(url)
        return await download(url)

    monkeypatch.setattr(world.bot.http, "get_from_cdn", counted)
    return seen


Launch = Callable[..., Awaitable[BotProcess]]  # (data folder, **HOG_* settings) -> a connected bot


@pytest.fixture
async def launch(fake: FakeDiscord, solver_cache: Path) -> AsyncIterator[Launch]:
    """Start `python -m bot` against `fake` and wait until it is connected; whatever a test left running is
    killed afterwards."""
    started: list[BotProcess] = []

    async def launch(data: Path, **settings: str) -> BotProcess:
        shards = None if "HOG_SHARD_IDS" not in settings else shard_ids(settings["HOG_SHARD_IDS"])
        fake.forget(shards)  # so `connected` waits for this process's IDENTIFY
        bot = await BotProcess.start(fake.url, data, HOG_SOLVER_CACHE_PATH=str(solver_cache), **settings)
        started.append(bot)
        connecting = asyncio.ensure_future(fake.connected(timeout=HANG, shards=shards))
        ended = asyncio.ensure_future(bot.process.wait())
        done, _ = await asyncio.wait([connecting, ended], return_when=FIRST_COMPLETED)
        connecting.cancel()
        ended.cancel()
        assert connecting in done and connecting.exception() is None, "".join(bot.stderr)  # with its log
        return bot

    yield launch
    for bot in started:
        if bot.process.returncode is None:
            await bot.kill()
