"""`python -m bot` when Discord cannot be reached at start (no route, DNS, a network still coming up):
one line naming the cause and exit status 3 once every try failed; a Discord that comes up a little later
is reached on a later try. Real processes over real sockets."""

import asyncio
import json
import signal
import socket
import sqlite3
from pathlib import Path

from bot.health import ailment
from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import GUILD_ID, FakeDiscord
from tests.bot.discord.over_sockets import spawn_bot
from tests.bot.discord.test_real_sockets import eventually
from tests.hang import HANG


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on (so connections to it are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def start_bot(
    url: str, data: Path, attempts: int, pause: float, **settings: str
) -> asyncio.subprocess.Process:
    """The bot against the Discord at `url`, trying to reach it `attempts` times, `pause` seconds apart."""
    tries = {"HOG_CONNECT_ATTEMPTS": str(attempts), "HOG_CONNECT_RETRY_SECONDS": str(pause)}
    return await spawn_bot(url, data, **(settings | tries))


def messages(stderr: str) -> list[str]:
    """The messages of the JSON log lines."""
    return [json.loads(line)["message"] for line in stderr.splitlines() if line.startswith("{")]


def retries(stderr: str) -> list[str]:
    return [message for message in messages(stderr) if message.startswith("cannot reach Discord")]


async def test_an_unreachable_discord_is_one_line_and_exit_status_3(tmp_path: Path) -> None:
    port = free_port()
    bot = await start_bot(f"http://127.0.0.1:{port}", tmp_path, attempts=3, pause=0.05)
    _, raw = await asyncio.wait_for(bot.communicate(), HANG)
    stderr = raw.decode()
    assert bot.returncode == 3
    assert "Traceback" not in stderr
    said = [line for line in stderr.splitlines() if not line.startswith("{")]  # not a JSON log line
    assert len(said) == 1
    assert said[0].startswith(f"hogbot cannot reach Discord: Cannot connect to host 127.0.0.1:{port}")
    assert said[0].endswith(": check the network.")
    assert len(retries(stderr)) == 2  # logged once per failed try but the last, with its pause
    assert "attempt 1 of 3" in retries(stderr)[0] and "attempt 2 of 3" in retries(stderr)[1]


async def test_sigterm_during_the_pause_between_tries_stops_at_once(tmp_path: Path) -> None:
    """`docker stop` while the bot waits to try Discord again: it ends now (exit 0), not after the pause
    (Docker would kill it after its own ten seconds). The pause outlasts the hang guard: ending at all is
    ending before it."""
    bot = await start_bot(f"http://127.0.0.1:{free_port()}", tmp_path, attempts=3, pause=10 * HANG)
    assert bot.stderr is not None
    logged = b""
    while not retries(logged.decode()):
        line = await asyncio.wait_for(bot.stderr.readline(), HANG)
        assert line, "the bot ended before it paused"
        logged += line
    bot.send_signal(signal.SIGTERM)
    _, rest = await asyncio.wait_for(bot.communicate(), HANG)
    assert bot.returncode == 0, (logged + rest).decode()
    assert len(retries((logged + rest).decode())) == 1 and "Traceback" not in rest.decode()


async def test_a_discord_that_comes_up_later_is_reached_on_a_later_try(tmp_path: Path) -> None:
    port = free_port()
    bot = await start_bot(f"http://127.0.0.1:{port}", tmp_path, attempts=6, pause=1.0)
    assert bot.stderr is not None
    first = b""
    while not retries(first.decode()):  # the first try failed and was logged: Discord comes up now
        line = await asyncio.wait_for(bot.stderr.readline(), HANG)
        assert line, "the bot ended before it tried again"
        first += line
    fake = FakeDiscord()
    await fake.start(port)
    try:
        await fake.until(lambda request: request.path.endswith(f"/guilds/{GUILD_ID}/commands"), timeout=HANG)
        await fake.connected(timeout=HANG)
        bot.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(bot.communicate(), HANG)
    finally:
        await fake.stop()
    stderr = (first + rest).decode()
    assert bot.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert 1 <= len(retries(stderr)) <= 2


async def test_sigterm_while_the_gateway_connects_is_an_orderly_stop(tmp_path: Path) -> None:
    """`docker stop` right after start, before the gateway is up: exit 0, no traceback."""
    fake = FakeDiscord()
    url = await fake.start()
    try:
        bot = await start_bot(url, tmp_path, attempts=1, pause=0)
        await fake.until(lambda request: request.path.endswith(f"/guilds/{GUILD_ID}/commands"), timeout=HANG)
        bot.send_signal(signal.SIGTERM)
        _, raw = await asyncio.wait_for(bot.communicate(), HANG)
    finally:
        await fake.stop()
    assert bot.returncode == 0, raw.decode()
    assert "Traceback" not in raw.decode()
    assert "stopped while starting" in messages(raw.decode())


async def test_sigterm_on_a_bot_long_online_is_a_plain_stop(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    """`docker stop` of a bot that has been online for a while (its clock beats): the log says it stopped,
    not that it was stopped while starting (every stop cancels the gateway's task, online or not)."""
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="20")  # a tick of the clock every second
    beat = tmp_path / "hogbot.heartbeat"
    await eventually(lambda: ailment(beat) is None, timeout=HANG)  # connected, ready, and ticking
    assert await bot.terminate() == 0
    assert bot.troubles() == []
    assert "stopped" in bot.messages() and "stopped while starting" not in bot.messages()


async def test_sigterm_while_the_database_opens_stops_without_going_online(tmp_path: Path) -> None:
    """`docker stop` while the migrations wait for a file another process holds: the bot never logs in,
    closes what it opened once the file is free, and exits 0 without an error (it once went online after
    the stop, then hung on the database's thread until Docker killed it)."""
    holder = sqlite3.connect(tmp_path / "hog.sqlite3", isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")  # as a bot left it: opening needs no lock, migrating does
    holder.execute("BEGIN IMMEDIATE")
    fake = FakeDiscord()
    url = await fake.start()
    try:
        bot = await start_bot(url, tmp_path, attempts=1, pause=0, HOG_LOG_LEVEL="DEBUG")
        assert bot.stderr is not None
        logged = b""
        while b"opening the database" not in logged:
            line = await asyncio.wait_for(bot.stderr.readline(), HANG)
            assert line, "the bot ended before it opened the database"
            logged += line
        await asyncio.sleep(0.5)  # into the migrations' wait for the lock
        bot.send_signal(signal.SIGTERM)
        await asyncio.sleep(1.0)
        holder.rollback()
        _, rest = await asyncio.wait_for(bot.communicate(), HANG)
    finally:
        holder.close()
        await fake.stop()
    stderr = (logged + rest).decode()
    assert bot.returncode == 0, stderr
    assert "Traceback" not in stderr and '"level": "ERROR"' not in stderr
    assert fake.requests == []  # never logged in
