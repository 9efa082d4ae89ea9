"""What the Activity's tests share: the fake Discord with the fake parent frame (parent.html), the bot run as
`python -m bot` serving the Activity against it (restartable on the same port and database), Debian's
Chromium driven by Playwright, and a person's view of the Activity: the fake client's page around the
Activity's frame."""

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.async_api import Browser, BrowserContext, FrameLocator, Page, async_playwright, expect

from hogengine.text import counted
from tests.bot.discord.fake_discord import APP_ID, CLIENT_SECRET, GUILD_ID, RUN_BOT_AGAINST, FakeDiscord
from tests.bot.discord.over_sockets import BotProcess, spawn_bot
from tests.bot.web.test_page import CHROMIUM, FLAGS
from tests.hang import HANG

PARENT = Path(__file__).with_name("parent.html")
CHANNEL_ID = 7200  # the fake's #hog of GUILD_ID
DESK = {"width": 1000, "height": 900}
PHONE = {"width": 360, "height": 740}
WAIT_MS = HANG * 1000  # Playwright's waits: on the work, never a budget


def serving(fake: FakeDiscord, port: int) -> dict[str, str]:
    """The settings of a bot serving the Activity on this port of 127.0.0.1, signing in through `fake`,
    framed by its parent frame."""
    return {
        "HOG_ACTIVITY_CLIENT_ID": str(APP_ID),
        "HOG_ACTIVITY_CLIENT_SECRET": CLIENT_SECRET,
        "HOG_ACTIVITY_PORT": str(port),
        "HOG_ACTIVITY_ORIGINS": f"http://127.0.0.1:{port}",
        "HOG_ACTIVITY_FRAME_ANCESTORS": fake.url,
    }


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord, its Activities enabled, serving the fake parent frame."""
    server = FakeDiscord(parent=PARENT)
    server.enable_activities()
    await server.start()
    yield server
    await server.stop()


@dataclass
class ActivityBot:
    """`python -m bot` against the fake Discord, serving the Activity on a port of its own, on a database in
    `data`: started again, it comes back on the same port and database."""

    fake: FakeDiscord
    data: Path
    solver_cache: Path
    port: int = field(default_factory=free_port)
    process: BotProcess | None = None
    serving: bool = True  # with the Activity's settings (else the bot alone, as most run it)
    code: str = RUN_BOT_AGAINST  # what the process runs (python -m bot, against the fake)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> BotProcess:
        """Start the bot and wait until it is connected (and serves the Activity)."""
        self.fake.forget()
        settings = {
            "HOG_SOLVER_CACHE_PATH": str(self.solver_cache),
            "HOG_BOT_MOVE_DELAY_SECONDS": "0",
        }
        if self.serving:
            settings |= serving(self.fake, self.port)
        self.process = BotProcess(await spawn_bot(self.fake.url, self.data, code=self.code, **settings))
        started = "the Activity is served" if self.serving else "synced"
        up = asyncio.ensure_future(self.process.logged(started))
        ended = asyncio.ensure_future(self.process.process.wait())
        done, _ = await asyncio.wait([up, ended], timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
        up.cancel()
        ended.cancel()
        assert up in done and up.exception() is None, "".join(self.process.stderr)
        await self.fake.connected(timeout=HANG)
        return self.process

    async def kill(self) -> None:
        assert self.process is not None
        await self.process.kill()


@pytest.fixture
async def activity(fake: FakeDiscord, tmp_path: Path, solved: Path) -> AsyncIterator[ActivityBot]:
    """The bot serving the Activity, started; killed at the end if it still runs."""
    bot = ActivityBot(fake, tmp_path, solved)
    await bot.start()
    yield bot
    if bot.process is not None and bot.process.process.returncode is None:
        await bot.kill()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    assert CHROMIUM.exists(), "Debian's chromium is missing: `apt-get install chromium` (.ci/run installs it)"
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, timeout=60_000)
        yield launched
        await launched.close()


@dataclass
class Person:
    """Someone's Discord client showing the Activity: the client's page and the Activity's frame in it."""

    who: dict[str, Any]
    context: BrowserContext
    page: Page
    errors: list[str]

    @property
    def frame(self) -> FrameLocator:
        return self.page.frame_locator("#activity")

    async def protocol(self) -> list[str]:
        """What the Activity said to its parent frame, in order (the fake client's log)."""
        return list(await self.page.evaluate("window.protocol"))

    async def messages(self) -> list[Any]:
        """Every message the Activity posted to its parent frame, as it came."""
        return list(await self.page.evaluate("window.messages"))

    async def click(self, name: str) -> None:
        await self.frame.get_by_role("button", name=name, exact=True).click()

    async def turns(self) -> int:
        return await self.frame.locator("#log > li").count()

    async def close(self) -> None:
        await self.context.close()


async def open_activity(
    browser: Browser,
    fake: FakeDiscord,
    bot: ActivityBot,
    who: dict[str, Any],
    instance_id: str,
    *,
    size: dict[str, int] = DESK,
) -> Person:
    """`who`'s client opening the Activity's instance (the fake's parent frame around it)."""
    fake.people[int(who["id"])] = who  # Discord knows who its client is signed in as
    context = await browser.new_context(viewport=size)  # type: ignore[arg-type]
    page = await context.new_page()
    page.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    location = fake.instances[instance_id]["location"]
    query = {
        "activity": bot.url + "/",
        "client": str(APP_ID),
        "user": who["id"],
        "instance": instance_id,
        "guild": location.get("guild_id", ""),
        "channel": location["channel_id"],
    }
    await page.goto(f"{fake.url}/parent?{urlencode(query)}")
    return Person(who, context, page, errors)


def board_of(fake: FakeDiscord) -> dict[str, Any] | None:
    """The latest board in the fake's channels: the message whose embed's footer names a match."""
    boards = [message for message in fake.messages.values() if footer(message).startswith("Match ")]
    return max(boards, key=lambda message: int(message["id"]), default=None)


def footer(message: dict[str, Any] | None) -> str:
    """A message's embed's footer (a board's names its match and turn), or nothing."""
    embeds = [] if message is None else message.get("embeds") or []
    return str(embeds[0].get("footer", {}).get("text", "")) if embeds else ""


def at_turn(message: dict[str, Any] | None, played: int) -> bool:
    """Whether a board's footer stands after `played` turns: a live board names the turn to play next
    (turns are numbered from 1), an ended one how many were played."""
    text = footer(message)
    return f"· turn {played + 1} ·" in text or f"· {counted(played, 'turn')} ·" in text


__all__ = ["CHANNEL_ID", "GUILD_ID", "PHONE"]
