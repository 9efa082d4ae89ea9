"""The unmodified bot, started as `python -m bot` starts it, against a fake Discord over real sockets:
startup, command sync to the development guild only, a challenge and a few turns, then SIGTERM; and the
health check's heartbeat through a gateway reconnection."""

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import discord
import pytest
import yarl

from bot.config import Settings
from bot.discord import HogBot, serve
from bot.health import ailment
from tests.bot.discord.fake_discord import BOT, CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.bot.discord.over_sockets import ALICE, BOB, CAROL, answered, command, press
from tests.hang import HANG


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    url = await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(url.replace("http", "ws") + "/")
    )
    yield server
    await server.stop()


@pytest.fixture
def settings(tmp_path: Path, solver_cache: Path) -> Settings:
    return Settings(
        database_path=tmp_path / "hog.sqlite3",
        solver_cache_path=solver_cache,
        dev_guild_id=GUILD_ID,
        bot_move_delay_seconds=0,
        turn_timeout_seconds=20,  # the clock ticks every second
        _env_file=None,  # type: ignore[call-arg]
    )


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[HogBot]:
    """The bot as `python -m bot` runs it, ready; stopped with SIGTERM (docker stop) afterwards."""
    bot = HogBot(settings, guild_ready_timeout=0.1)
    serving = asyncio.create_task(serve(bot, "fake-token"))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), HANG)
        yield bot
    finally:
        if not serving.done():
            os.kill(os.getpid(), signal.SIGTERM)  # closes Discord and the database
        await asyncio.wait_for(serving, HANG)
    assert bot.is_closed()


async def eventually(check: Callable[[], bool], timeout: float = HANG) -> None:
    """Wait until `check()` holds (polling: the bot's clock and the gateway run on their own)."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)


async def test_the_bot_over_real_sockets(fake: FakeDiscord, settings: Settings) -> None:
    async with running(settings) as bot:
        await play_a_little(fake, bot)
    with pytest.raises(Exception, match="closed"):
        await bot.parts.services.games.get(1)


async def play_a_little(fake: FakeDiscord, bot: HogBot) -> None:
    # Startup: IDENTIFY with the default intents, READY, GUILD_CREATE; commands synced to the dev guild only.
    assert fake.identify["token"] == "fake-token"
    assert fake.identify["intents"] == discord.Intents.default().value
    assert bot.get_guild(GUILD_ID) is not None
    (hog,) = fake.commands[str(GUILD_ID)]
    assert hog["name"] == "hog" and hog["contexts"] == [0]  # servers only: both players must see the board
    assert {option["name"] for option in hog["options"]} == {
        "challenge",
        "vs-bot",
        "forfeit",
        "hint",
        "export",
        "rules",
        "notices",
        "upload",
        "strategies",
        "strategy",
        "tournament",
        "standings",
        "leaderboard",
        "stats",
        "history",
        "analyze",
        "forget-me",
        "contest",
        "help",
        "games",
        "coach",
        "staff",
        "link",
    }
    assert "global" not in fake.commands

    # alice challenges bob with a slash command sent over the gateway; the answer comes back over REST.
    token, callback = await command(
        fake, ALICE, "challenge", [{"name": "opponent", "type": 6, "value": BOB["id"]}]
    )
    assert callback.body["type"] == 4
    board = fake.original(token)
    assert fake.messages[board]["content"] == f"<@{BOB['id']}>, you are challenged!"

    # carol may not accept; bob does, and the challenge becomes the board with a button per choice.
    token = await press(fake, CAROL, board, "Accept")
    refusal = await fake.until(lambda r: r.method == "POST" and answered(token)(r))
    assert refusal.body["content"] == "You are not playing in this game." and refusal.body["flags"] == 64
    token = await press(fake, BOB, board, "Accept")
    await fake.until(lambda r: r.method == "PATCH" and answered(token)(r))
    assert fake.messages[board]["content"] == f"<@{ALICE['id']}>, your move."

    for label in ("Roll 3", "Roll 4", "Free Bacon"):
        mover = fake.messages[board]["content"]
        person = next(p for p in (ALICE, BOB) if mover == f"<@{p['id']}>, your move.")
        token = await press(fake, person, board, label)
        await fake.until(lambda r, token=token: r.method == "PATCH" and answered(token)(r))
        turns = [
            line for line in fake.messages[board]["embeds"][0]["description"].splitlines() if " → " in line
        ]
        assert turns[-1].startswith(f"**{person['username']}** ")
    assert (await bot.parts.services.games.get(1)).state.turn == 3
    assert fake.unknown == []


HOSTILE = [  # what Discord's own checks of the synced options keep out, and a client could still send
    ("vs-bot", [{"name": "goal", "type": 4, "value": 0}], "The goal must be a whole number from 1 to 100."),
    ("vs-bot", [{"name": "goal", "type": 4, "value": 101}], "The goal must be a whole number from 1 to 100."),
    ("vs-bot", [{"name": "goal", "type": 4, "value": -5}], "The goal must be a whole number from 1 to 100."),
    ("vs-bot", [{"name": "rules", "type": 3, "value": "snakes"}], "Unknown rules 'snakes'. Known rule sets:"),
    ("vs-bot", [{"name": "level", "type": 3, "value": "godlike"}], "Unknown bot level 'godlike': choose"),
    ("challenge", [{"name": "opponent", "type": 6, "value": ALICE["id"]}], "You can't challenge yourself."),
    ("challenge", [{"name": "opponent", "type": 6, "value": BOT["id"]}], "Bot accounts can't play"),
    ("export", [{"name": "match", "type": 4, "value": -5}], "That game does not exist."),
    ("notices", [{"name": "setting", "type": 3, "value": "maybe"}], "Choose on or off."),
]


async def test_options_discord_would_refuse_are_refused_privately(
    fake: FakeDiscord, settings: Settings
) -> None:
    async with running(settings) as bot:
        for name, options, refusal in HOSTILE:
            _, answer = await command(fake, ALICE, name, options)
            message = answer.body["data"]
            assert answer.body["type"] == 4 and message["flags"] == 64, (name, options)
            assert message["content"].startswith(refusal), (name, options, message["content"])
        assert await bot.parts.services.games.open_match_in_channel(CHANNEL_ID, int(ALICE["id"])) is None
    assert fake.unknown == []


async def test_the_heartbeat_stops_while_the_gateway_is_down(fake: FakeDiscord, settings: Settings) -> None:
    beat = settings.heartbeat_file
    async with running(settings) as bot:
        await eventually(lambda: ailment(beat) is None)

        fake.resuming.clear()
        await fake.reconnect()
        await eventually(lambda: fake.resumes == 1)  # back on a socket, but not resumed
        beat.unlink()
        await asyncio.sleep(2.5)  # two ticks of the clock
        assert bot.is_ready()  # discord.py still says so...
        assert not beat.exists()  # ...but the health check fails

        fake.resuming.set()
        await eventually(lambda: ailment(beat) is None)
