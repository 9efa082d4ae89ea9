"""What the tests of the bot over real sockets share: people's gestures sent through the fake Discord, and
the bot run as `python -m bot` runs it, as a process of its own whose log lines are read as they come."""

import asyncio
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bot.discord.fake_discord import (
    APP_ID,
    BOT,
    EVERYONE,
    GUILD_ID,
    RUN_BOT_AGAINST,
    FakeDiscord,
    Request,
    member,
    user,
)
from tests.hang import HANG

ALICE, BOB, CAROL = user(101, "alice"), user(102, "bob"), user(103, "carol")
ROLL = "Roll 6"
GOAL = 30  # a short game, for the tests that play one to its end
LONG_GOAL = 73  # two turns of six dice (36 points at most each) cannot end it: for tests that go on


def button(message: dict[str, Any], label: str) -> str:
    return next(
        component["custom_id"]
        for row in message["components"]
        for component in row["components"]
        if component.get("label") == label
    )


def answered(token: str) -> Callable[[Request], bool]:
    return lambda r: r.path.startswith(f"/webhooks/{APP_ID}/{token}")


def posts(request: Request) -> bool:
    """Whether the request posts a new message in a channel: by the channel's route, or as a follow-up of an
    interaction (through its token: Discord's global limit does not bind it)."""
    parts = request.path.strip("/").split("/")
    by_channel = parts[0] == "channels" and parts[2:] == ["messages"]
    return request.method == "POST" and (by_channel or (parts[0] == "webhooks" and len(parts) == 3))


async def press(fake: FakeDiscord, person: dict[str, Any], message_id: str, label: str) -> str:
    custom_id = button(fake.messages[message_id], label)
    token = await fake.interact(person, {"custom_id": custom_id, "component_type": 2}, message_id)
    await fake.until(lambda r: r.path.startswith("/interactions/") and token in r.path)
    return token


async def command(
    fake: FakeDiscord,
    person: dict[str, Any],
    name: str,
    options: list[dict[str, Any]],
    *,
    attachments: tuple[dict[str, Any], ...] = (),
    permissions: str = EVERYONE,
    guild_id: int = GUILD_ID,
) -> tuple[str, Request]:
    """`/hog <name>` (`name` may be "group subcommand") with these options as the gateway delivers it
    (nothing checks them on the way): the interaction's token and the bot's answer to it."""
    (hog,) = fake.commands[str(GUILD_ID)]
    *group, subcommand = name.split()
    invoked: dict[str, Any] = {"name": subcommand, "type": 1, "options": options}
    if group:
        invoked = {"name": group[0], "type": 2, "options": [invoked]}
    users = [option["value"] for option in options if option["type"] == 6]
    people = {person["id"]: person for person in (ALICE, BOB, BOT) if person["id"] in users}
    data = {
        "id": hog["id"],
        "name": "hog",
        "type": 1,
        "options": [invoked],
        "resolved": {
            "users": people,
            "members": {key: member(value) | {"user": None} for key, value in people.items()},
            "attachments": {attachment["id"]: attachment for attachment in attachments},
        },
    }
    token = await fake.interact(person, data, permissions=permissions, guild_id=guild_id)
    return token, await fake.until(lambda r: token in r.path and r.path.endswith("/callback"))


def to_move(message: dict[str, Any]) -> dict[str, Any] | None:
    return next((p for p in (ALICE, BOB) if message["content"] == f"<@{p['id']}>, your move."), None)


def settled(message: dict[str, Any]) -> bool:
    """Someone is to move, or the game is over (the house bot is not thinking)."""
    labels = [item.get("label") for row in message["components"] for item in row["components"]]
    return to_move(message) is not None or "Rematch" in labels


async def challenge(fake: FakeDiscord, guild: int = GUILD_ID, goal: int = GOAL) -> str:
    """alice challenges bob to `goal` points on this server: the challenge's message."""
    options = [
        {"name": "opponent", "type": 6, "value": BOB["id"]},
        {"name": "goal", "type": 4, "value": goal},
    ]
    token, _ = await command(fake, ALICE, "challenge", options, guild_id=guild)
    return fake.original(token)


async def accepted_challenge(fake: FakeDiscord, guild: int = GUILD_ID, goal: int = GOAL) -> str:
    """alice challenges bob to `goal` points on this server and bob accepts: the board's message."""
    board = await challenge(fake, guild, goal)
    accept = await press(fake, BOB, board, "Accept")
    await fake.until(lambda r: r.method == "PATCH" and answered(accept)(r))
    return board


async def roll(fake: FakeDiscord, board: str) -> None:
    """Whoever the board says is to move rolls six dice, and the board shows the turn."""
    person = to_move(fake.messages[board])
    assert person is not None
    token = await press(fake, person, board, ROLL)
    await fake.until(lambda r: r.method == "PATCH" and answered(token)(r), timeout=HANG)


async def play_to_the_end(fake: FakeDiscord, board: str) -> None:
    """Whoever the board says is to move rolls six dice, until the board says who won."""
    while to_move(fake.messages[board]) is not None:
        await roll(fake, board)
        await fake.until(lambda _: settled(fake.messages[board]))
    assert "wins" in fake.messages[board]["embeds"][0]["description"]


async def spawn_bot(
    url: str, data: Path, python: str | Path = sys.executable, code: str = RUN_BOT_AGAINST, **settings: str
) -> asyncio.subprocess.Process:
    """`code` run by `python` (by default the source tree's `python -m bot`) as a process of its own, in
    `data` with its database there, against the Discord at `url`, with these HOG_* settings (by their
    variable names) and no others from the environment; its stderr piped."""
    env = {
        "PATH": os.environ["PATH"],
        "DISCORD_TOKEN": "fake-token",
        "HOG_DATABASE_PATH": str(data / "hog.sqlite3"),
        "HOG_DEV_GUILD_ID": str(GUILD_ID),
        **settings,
    }
    return await asyncio.create_subprocess_exec(
        python, "-c", code, url, cwd=data, env=env, stderr=asyncio.subprocess.PIPE
    )


class BotProcess:
    """`python -m bot`, unchanged but for Discord's address, against a fake Discord; stderr kept."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stderr: list[str] = []
        self._read = asyncio.Condition()
        self._reader = asyncio.create_task(self._read_stderr())

    @classmethod
    async def start(cls, url: str, data: Path, **settings: str) -> "BotProcess":
        """Start the bot against the Discord at `url` on the database in `data`, the house bot moving at
        once unless these HOG_* settings say otherwise."""
        return cls(await spawn_bot(url, data, **({"HOG_BOT_MOVE_DELAY_SECONDS": "0"} | settings)))

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            async with self._read:
                self.stderr.append(line.decode())
                self._read.notify_all()

    def messages(self) -> list[str]:
        """The messages of the JSON log lines so far."""
        return [json.loads(line)["message"] for line in self.stderr if line.startswith("{")]

    async def logged(self, start: str, timeout: float = HANG) -> None:
        """Wait until a log line's message starts with `start`."""

        def found() -> bool:
            return any(message.startswith(start) for message in self.messages())

        async with self._read:
            await asyncio.wait_for(self._read.wait_for(found), timeout)

    async def kill(self) -> None:
        """SIGKILL: what a crash, an OOM kill or a host reboot does; nothing of the bot runs after it."""
        self.process.kill()
        await self.ended(timeout=HANG)

    def stop(self) -> None:
        """SIGTERM: what docker stop does."""
        self.process.send_signal(signal.SIGTERM)

    async def terminate(self, timeout: float = HANG) -> int:
        """SIGTERM and wait for the orderly stop: the exit status."""
        self.stop()
        return await self.ended(timeout)

    async def ended(self, timeout: float = HANG) -> int:
        """Wait for the process to end (its log read to the last line): the exit status."""
        status = await asyncio.wait_for(self.process.wait(), timeout)
        await self._reader
        return status

    def troubles(self) -> list[str]:
        """What an orderly stop must not leave in the log: ERROR lines, and anything that is not a JSON
        log line (a traceback, asyncio's "Task exception was never retrieved")."""
        logged = [line for line in self.stderr if line.startswith("{")]
        errors = [line for line in logged if json.loads(line)["level"] == "ERROR"]
        return errors + [line for line in self.stderr if not line.startswith("{")]
