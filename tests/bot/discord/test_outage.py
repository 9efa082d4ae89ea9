"""The game records out of reach, as players and the operator live it: each press and command is answered
privately with what is true (nothing was done), the log has one WARNING for the whole outage and no
traceback, the health check says the database is down, and the game goes on once it is back. On SimCord
with the SQLite file locked by another program, and with the bot as its own process over real sockets
while its PostgreSQL server is stopped and started again."""

import asyncio
import copy
import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from bot.health import ailment
from bot.storage import SqliteDatabase
from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import RUN_BOT_AGAINST, FakeDiscord
from tests.bot.discord.harness import World, last_turn, said, turn_of
from tests.bot.discord.over_sockets import (
    CAROL,
    LONG_GOAL,
    ROLL,
    BotProcess,
    accepted_challenge,
    answered,
    button,
    command,
    press,
    roll,
    spawn_bot,
    to_move,
)
from tests.bot.discord.test_real_sockets import eventually
from tests.hang import HANG
from tests.postgres_server import PostgresServer, running_server

NOTHING_DONE = "I can't reach the game records right now: nothing was done. Please try again in a minute."
WARNING = "the database cannot be reached: "
BACK = "the database answers again"


async def test_presses_and_commands_on_a_locked_file_are_told_nothing_was_done(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage.outage")
    match = await world.challenge()
    board = await world.board(match.id)
    holder = sqlite3.connect(world.settings.database_path, isolation_level=None)  # a shell, a backup tool
    holder.execute("BEGIN IMMEDIATE")
    try:
        pressed = [await world.alice.click(board, label="Roll 3") for _ in range(2)]
        command = await world.carol.slash(world.channel, "hog vs-bot")
        trouble = await world.services.records_trouble()  # what the clock's heartbeat says
    finally:
        holder.rollback()
        holder.close()

    assert [said(result) for result in pressed] == [NOTHING_DONE, NOTHING_DONE]  # privately
    assert said(command) == NOTHING_DONE and world.domain_errors() == [NOTHING_DONE]
    assert world.message(board.id).content == f"{world.alice.mention}, your move."  # the board as it was
    assert (await world.match(match.id)).state.turn == 0
    assert await world.service.open_match_in_channel(world.channel.id, world.carol.id) is None
    assert trouble is not None and trouble.startswith("the database cannot be reached (since ")
    (warning,) = caplog.records  # one line for the whole outage, with no traceback
    assert warning.levelname == "WARNING" and warning.getMessage().startswith(WARNING)
    assert warning.exc_info is None

    assert await world.services.records_trouble() is None  # the clock's next tick finds it back
    await world.alice.click(board, label="Roll 3")
    assert turn_of(last_turn(world.message(board.id))) == ("alice", 3)
    assert [(r.levelname, r.getMessage()[: len(BACK)]) for r in caplog.records[1:]] == [("INFO", BACK)]


async def test_a_failing_disk_refuses_reads_in_words_and_autocomplete_offers_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Reads failing below the real backend as a failing disk's do (SQLITE_IOERR_READ): a press, a command
    and an autocomplete during it, then the same read once the disk answers again."""
    caplog.set_level(logging.INFO, logger="bot.storage.outage")
    await world.upload(world.alice, "fours.json", json.dumps([[4] * 100] * 100).encode())
    match = await world.challenge()
    board = await world.board(match.id)
    db = world.services.db
    assert isinstance(db, SqliteDatabase)
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = sqlite3.SQLITE_IOERR_READ

    async def failing(*_: object) -> NoReturn:
        raise error

    class FailingLookups:
        def execute(self, *_: object) -> NoReturn:
            raise error

    with monkeypatch.context() as disk:
        disk.setattr(db._conn, "execute_fetchall", failing)  # the backend's reading connection (aiosqlite's)
        disk.setattr(db, "_lookups", FailingLookups())  # and its connection for lookups of one row
        pressed = await world.alice.click(board, label="Roll 3")
        listed = await world.carol.slash(world.channel, "hog strategies")
        offered = await world.carol.autocomplete(world.channel, "hog vs-bot", "strategy", "")

    assert said(pressed) == said(listed) == NOTHING_DONE
    assert world.domain_errors() == [NOTHING_DONE]
    assert offered == []  # an autocomplete cannot say why; nothing is logged for it either
    (warning,) = caplog.records
    assert warning.getMessage() == f"{WARNING}disk I/O error; gestures are refused until it answers"
    assert warning.exc_info is None

    offered = await world.carol.autocomplete(world.channel, "hog vs-bot", "strategy", "")
    assert [choice["value"] for choice in offered] == ["fours"]
    assert [(r.levelname, r.getMessage()[: len(BACK)]) for r in caplog.records[1:]] == [("INFO", BACK)]
    await world.alice.click(board, label="Roll 3")
    assert (await world.match(match.id)).state.turn == 1


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own: stopping the session's would fail other tests."""
    with running_server() as server:
        yield server


def turn_shown(board: dict[str, Any]) -> int:
    """The turn a board's buttons play (`hog:play:<match>:<turn>:<choice>`): the mover's name alone stays
    the same across an extra turn (Swine Align, Pig Pass)."""
    return int(button(board, ROLL).split(":")[3])


def health(beat: Path) -> tuple[int, str]:
    """`python -m bot --health` as the container runs it: its exit status and what it printed."""
    env = {"PATH": os.environ["PATH"], "HOG_HEARTBEAT_PATH": str(beat)}
    command = [sys.executable, "-m", "bot", "--health"]
    done = subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=beat.parent, timeout=HANG, check=False
    )
    return done.returncode, done.stderr


async def test_postgresql_stopped_and_started_mid_game(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, own_server: PostgresServer
) -> None:
    # A tick of the clock every second (a twentieth of the shortest timeout), from the challenge's clock,
    # which runs only until the next press accepts it. Not from the turn's: that clock runs through the
    # whole outage below but for the time the database was out of reach, and at 20 s a busy machine ran
    # it out (the game lost on time, its board naming nobody to move).
    bot = await launch(
        tmp_path,
        HOG_DATABASE_URL=own_server.new_database(),
        HOG_CHALLENGE_TIMEOUT_SECONDS="20",
        HOG_TURN_TIMEOUT_SECONDS=str(10 * HANG),
    )
    beat = tmp_path / "hogbot.heartbeat"  # beside HOG_DATABASE_PATH; the clock beats every second
    board = await accepted_challenge(fake, goal=LONG_GOAL)  # the roll before the outage and the one after
    await roll(fake, board)
    await eventually(lambda: ailment(beat) is None, timeout=HANG)

    await asyncio.to_thread(own_server.pause)  # pg_ctl stop -m fast: what an operator's restart does
    person, shown = to_move(fake.messages[board]), copy.deepcopy(fake.messages[board])
    assert person is not None
    for _ in range(2):
        token = await press(fake, person, board, ROLL)
        answer = await fake.until(lambda r, token=token: r.method == "POST" and answered(token)(r))
        assert answer.body["content"] == NOTHING_DONE and answer.body["flags"] == 64  # privately
        callbacks = [r for r in fake.requests if r.path.startswith("/interactions/") and token in r.path]
        assert len(callbacks) == 1  # acknowledged once (at once: the press defers before the work)
    assert fake.messages[board] == shown
    down = "the database cannot be reached (since "
    await eventually(lambda: (ailment(beat) or "").startswith(down), timeout=HANG)  # the clock's next beat
    status, printed = await asyncio.to_thread(health, beat)
    assert status == 1 and printed.startswith(f"unhealthy: {down}")
    assert printed.count("\n") == 1

    await asyncio.to_thread(own_server.resume)
    await bot.logged(BACK)  # the clock tries the database on each tick meanwhile
    await eventually(lambda: ailment(beat) is None, timeout=HANG)
    assert await asyncio.to_thread(health, beat) == (0, "")
    await roll(fake, board)  # the game goes on: the press plays and the board shows it
    assert turn_shown(fake.messages[board]) == turn_shown(shown) + 1

    assert await bot.terminate() == 0
    assert bot.troubles() == []  # no ERROR, nothing but JSON log lines
    assert fake.unknown == []
    assert sum(message.startswith(WARNING) for message in bot.messages()) == 1
    assert [line for line in bot.stderr if "error" in json.loads(line)] == []  # no traceback at all


async def test_a_silent_postgresql_gets_every_gesture_answered_in_words(
    fake: FakeDiscord, tmp_path: Path, own_server: PostgresServer, solver_cache: Path
) -> None:
    """A server that answers nothing (frozen with SIGSTOP: no refusal, no reply): a slash command that reads
    before it answers gets the outage sentence as its first response, and a press is told it after its
    acknowledgement, while the server stays silent. The bot's statement timeout is put past the hang guard,
    so only its check for a silent server (half a second of patience, then a question of its own: two
    seconds in all, under Discord's three) can answer them."""
    forever = f"import bot.storage.postgres as p; p.STATEMENT_SECONDS = {10 * HANG};"
    settings = {"HOG_DATABASE_URL": own_server.new_database(), "HOG_SOLVER_CACHE_PATH": str(solver_cache)}
    bot = BotProcess(await spawn_bot(fake.url, tmp_path, code=forever + RUN_BOT_AGAINST, **settings))
    try:
        await fake.connected(timeout=HANG)
        board = await accepted_challenge(fake, goal=LONG_GOAL)
        person, shown = to_move(fake.messages[board]), copy.deepcopy(fake.messages[board])
        assert person is not None
        with own_server.silenced():
            _, first = await command(fake, CAROL, "vs-bot", [])  # reads before it answers
            token = await press(fake, person, board, ROLL)  # acknowledged at once, then told
            told = await fake.until(lambda r: r.method == "POST" and answered(token)(r))
        assert (first.body["type"], first.body["data"]["content"], first.body["data"]["flags"]) == (
            4,
            NOTHING_DONE,
            64,
        )
        assert (told.body["content"], told.body["flags"]) == (NOTHING_DONE, 64)
        assert fake.messages[board] == shown

        await roll(fake, board)  # the server answers again: the game goes on
        assert turn_shown(fake.messages[board]) == turn_shown(shown) + 1
        assert await bot.terminate() == 0
        assert bot.troubles() == []
    finally:
        if bot.process.returncode is None:
            await bot.kill()
