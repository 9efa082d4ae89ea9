"""SIGTERM (docker stop) while an upload is in the sandbox or a tournament is computing, over real sockets:
the real bot process turns new commands away, lets the work under way finish within its grace period or
cuts it short and says nothing was stored, then exits with status 0 and nothing logged as an error (no
"Session is closed", no "Task exception was never retrieved")."""

import asyncio
import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np

from bot.domain.errors import Restarting, TournamentStopped, UploadStopped
from bot.domain.matches import Player
from bot.domain.strategies import StoredStrategy
from bot.storage import open_migrated
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.database import NEW, Connection
from bot.storage.strategies import table_bytes
from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import EVERYONE, GUILD_ID, FakeDiscord, Request
from tests.bot.discord.over_sockets import ALICE, BOB, CAROL, BotProcess, answered, command
from tests.hang import HANG

# About a second of CPU to load (in each of the sandbox's two children), then always four dice.
SLOW = b"for _ in range(30_000_000):\n    pass\n\ndef final_strategy(score, opponent_score):\n    return 4\n"
MANAGER = str(int(EVERYONE) | 1 << 5)  # Manage Server: may start a tournament
RUNNING = "Tournament running:"  # how its answer shows progress


async def start(launch: Launch, data: Path, grace: str) -> BotProcess:
    return await launch(data, HOG_SHUTDOWN_GRACE_SECONDS=grace, HOG_UPLOAD_TIME_LIMIT_SECONDS="30")


def stored(data: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows of the database the bot left behind."""
    with sqlite3.connect(data / "hog.sqlite3") as db:
        return db.execute(sql).fetchall()


def answers(fake: FakeDiscord, token: str) -> list[Request]:
    """What the bot sent for one interaction after acknowledging it: edits and follow-up messages."""
    return [request for request in fake.requests if answered(token)(request)]


def upload(fake: FakeDiscord) -> tuple[dict[str, Any], dict[str, Any]]:
    """alice's attachment of SLOW, and the option of `/hog upload strategy` that sends it."""
    attachment = fake.attach("slow.py", SLOW)
    return attachment, {"name": "file", "type": 11, "value": attachment["id"]}


async def test_sigterm_mid_upload_lets_it_finish_and_turns_new_commands_away(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    bot = await start(launch, tmp_path, grace="60")
    attachment, option = upload(fake)
    downloading = fake.hold(lambda r: r.path.startswith("/attachments/"))  # under way until released
    token, _ = await command(fake, ALICE, "upload strategy", [option], attachments=(attachment,))
    await asyncio.wait_for(downloading, HANG)

    bot.stop()
    await bot.logged("stopping:")
    _, refused = await command(fake, BOB, "rules", [])
    assert (refused.body["data"]["content"], refused.body["data"]["flags"]) == (str(Restarting()), 64)
    fake.release()  # the download ends; the file goes through the sandbox within the grace period

    assert await bot.ended() == 0
    assert bot.troubles() == []
    verdict = answers(fake, token)[-1].body
    assert verdict["embeds"][0]["title"] == "Accepted: slow" and verdict["attachments"]  # with its heatmap
    assert stored(tmp_path, "SELECT name, owner_id FROM strategies") == [("slow", int(ALICE["id"]))]


async def test_sigterm_mid_upload_past_the_grace_period_stores_nothing_and_says_so(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    bot = await start(launch, tmp_path, grace="0")
    attachment, option = upload(fake)
    token, _ = await command(fake, ALICE, "upload strategy", [option], attachments=(attachment,))
    checking = "Checking **slow.py** in the sandbox (it has 30 s of CPU time)…"
    await fake.until(lambda r: answered(token)(r) and r.method == "PATCH" and r.body["content"] == checking)

    assert await bot.terminate() == 0  # a second of CPU into the file, at least: the sandbox is cut short
    assert bot.troubles() == []
    (embed,) = answers(fake, token)[-1].body["embeds"]
    assert (embed["title"], embed["description"]) == ("Not accepted", str(UploadStopped()))
    assert stored(tmp_path, "SELECT name FROM strategies") == []


async def entrants(data: Path, count: int) -> None:
    """`count` random pig-fest tables of as many owners, stored in the fake's server as uploads are."""
    tables = np.random.default_rng(17).integers(0, 11, (count, 100, 100)).astype(np.int8)
    db = await open_migrated(data / "hog.sqlite3")

    async def store(conn: Connection) -> None:
        for n, table in enumerate(tables):
            owner = Player(5000 + n, f"owner{n}")
            await player_table.upsert_players(conn, [owner], 0.0)
            digest = hashlib.sha256(table_bytes(table)).hexdigest()
            strategy = StoredStrategy(
                id=NEW,
                guild_id=GUILD_ID,
                owner=owner,
                name=f"s{n:02d}",
                team_name=None,
                rules="pig-fest",
                source_kind="json",
                source_hash=digest,
                table_hash=digest,
                active=True,
                figures=(),
                cpu_seconds=None,
                created_at=0.0,
                replaced_at=None,
                table=table,
            )
            await strategy_table.insert_strategy(conn, strategy)

    try:
        await db.write(store)
    finally:
        await db.close()


async def tournament(fake: FakeDiscord) -> str:
    """carol (Manage Server) starts a pig-fest tournament; returns once its progress is shown."""
    rules = {"name": "rules", "type": 3, "value": "pig-fest"}
    token, _ = await command(fake, CAROL, "tournament", [rules], permissions=MANAGER)
    await fake.until(lambda r: answered(token)(r) and str(r.body.get("content")).startswith(RUNNING))
    return token


async def test_sigterm_mid_tournament_lets_it_finish_within_the_grace_period(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    await entrants(tmp_path, 4)
    bot = await start(launch, tmp_path, grace="60")
    progress = fake.hold(lambda r: r.method == "PATCH" and str(r.body.get("content")).startswith(RUNNING))
    token = await tournament(fake)
    await asyncio.wait_for(progress, HANG)  # its answer is being edited: the tournament is under way

    bot.stop()
    await bot.logged("stopping:")
    fake.release()

    assert await bot.ended() == 0
    assert bot.troubles() == []
    assert (
        answers(fake, token)[-1].body["content"].startswith("**exact tournament** of Ham Hijinks + Pig Fest")
    )
    assert stored(tmp_path, "SELECT shown FROM tournaments") == [(1,)]  # stored, and shown


async def test_sigterm_mid_tournament_past_the_grace_period_stores_nothing_and_says_so(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    await entrants(tmp_path, 40)  # seconds of the solver's sweeps after its first progress
    bot = await start(launch, tmp_path, grace="0")
    token = await tournament(fake)

    assert await bot.terminate() == 0
    assert bot.troubles() == []
    assert answers(fake, token)[-1].body["content"] == str(TournamentStopped())
    assert stored(tmp_path, "SELECT * FROM tournaments") == []
