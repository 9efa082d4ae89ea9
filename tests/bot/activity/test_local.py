"""`python -m tests.bot.activity.local`, the Activity played outside Discord: it prints each person's
address, the page signs in there through the fake client, a game started there shows on the printed
board, and Ctrl-C stops it and the bot it started."""

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.bot.activity.conftest import WAIT_MS, free_port
from tests.hang import HANG

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
async def local() -> AsyncIterator[asyncio.subprocess.Process]:
    """The script in a process group of its own (it and the bot it starts go together, whatever happens)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.activity.local",
        "--port",
        str(free_port()),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        env={"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "HOG_LOG_LEVEL": "WARNING"},
    )
    yield process
    if process.returncode is None:
        os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


async def line(process: asyncio.subprocess.Process) -> str:
    assert process.stdout is not None
    said = await asyncio.wait_for(process.stdout.readline(), HANG)
    assert said, "the script ended"
    return said.decode().strip()


async def test_two_addresses_to_play_the_activity_outside_discord(
    local: asyncio.subprocess.Process, browser: Browser
) -> None:
    addresses = dict([(await line(local)).split(": ", 1) for _ in range(2)])
    assert set(addresses) == {"alice", "bob"}
    page = await (await browser.new_context()).new_page()
    page.set_default_timeout(WAIT_MS)
    await page.goto(addresses["alice"])
    frame = page.frame_locator("#activity")
    await expect(frame.locator("#who")).to_have_text("Signed in as alice")
    await frame.get_by_label("Opponent").select_option("easy")
    await frame.get_by_role("button", name="Start", exact=True).click()
    await expect(frame.locator("#seat")).to_have_text("You are alice, who moved first.")
    while not (board := await line(local)).startswith("the channel's board: Match "):
        pass
    assert "· turn 1 ·" in board  # nothing played yet
    local.send_signal(signal.SIGINT)
    assert await asyncio.wait_for(local.wait(), HANG) == 0
    assert local.stderr is not None
    assert b"Traceback" not in await local.stderr.read()
