"""The database out of reach, on each backend: every write is refused with RecordsUnavailable (words safe to
show players), the outage is logged once as it begins and once as it ends, and the same database object
plays on once it is back. PostgreSQL on a server of its own, stopped and started as an operator does; the
SQLite file locked by another program past the busy timeout (what happens as root too)."""

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.domain.errors import RecordsUnavailable
from bot.domain.matches import Player
from bot.storage import Connection, Database, open_migrated, postgres
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage.database import nothing
from tests.bot.storage.test_db import NOW, SEVEN, a_match, new_match, player_names
from tests.catalog import BROKEN_CONSTRAINT
from tests.hang import HANG
from tests.postgres_server import PostgresServer, running_server

OUTAGE_LOGGER = "bot.storage.outage"
NOTHING_DONE = "I can't reach the game records right now: nothing was done. Please try again in a minute."
SAVED = (
    "That was saved, but I can't reach the game records right now: what you see may lag behind until they"
    " are back."
)


@dataclass
class Outage:
    """A database and the operator's hands on what it runs on: `cut` puts it out of reach, `mend` back."""

    db: Database
    cut: Callable[[], None]
    mend: Callable[[], None]


@pytest.fixture(scope="module")
def module_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this module's own: stopping the session's would fail other tests."""
    with running_server() as server:
        yield server


@pytest.fixture
def own_server(module_server: PostgresServer) -> Iterator[PostgresServer]:
    """This module's server, running again after each test, however the test ended."""
    yield module_server
    if module_server.paused:
        module_server.resume()


@pytest.fixture
async def db(tmp_path: Path, database_url: str | None) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "hog.sqlite3", database_url)
    yield database
    await database.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def outage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Outage]:
    path = tmp_path / "hog.sqlite3"
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("own_server")
        db = await open_migrated(path, server.new_database())
        yield Outage(db, server.pause, server.resume)
    else:
        db = await open_migrated(path)
        # Another program (a shell, a backup tool), driven from a thread as the server's pg_ctl is.
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        yield Outage(db, lambda: holder.execute("BEGIN IMMEDIATE"), holder.rollback)
        holder.close()
    await db.close()


async def add_player(conn: Connection) -> None:
    await player_table.upsert_players(conn, [SEVEN], NOW)


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """What the outage logged: (level, message) each, after checking none carries a traceback."""
    records = [record for record in caplog.records if record.name == OUTAGE_LOGGER]
    assert [record.exc_info for record in records] == [None] * len(records)
    return [(record.levelname, record.getMessage()) for record in records]


async def test_writes_are_refused_in_words_and_the_outage_is_logged_once(
    outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=OUTAGE_LOGGER)
    db = outage.db
    await new_match(db)  # the database answered: from now on, failing is an outage
    await asyncio.to_thread(outage.cut)

    for _ in range(2):  # two presses
        with pytest.raises(RecordsUnavailable) as refused:
            await asyncio.create_task(db.write(add_player))  # each gesture runs in a task of its own
        assert str(refused.value) == NOTHING_DONE
    trouble = db.outage.trouble
    assert trouble is not None and trouble.startswith("the database cannot be reached (since 20")
    ((level, warning),) = outage_lines(caplog)
    assert level == "WARNING" and warning.startswith("the database cannot be reached: ")

    await asyncio.to_thread(outage.mend)
    await db.write(add_player)
    assert await player_names(db) == ["seven"]  # stored once: the refused writes left nothing
    assert db.outage.trouble is None
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING", "INFO"]


async def test_a_write_of_nothing_finds_the_outage_over(outage: Outage) -> None:
    """What the clock does while the database is out of reach and nobody plays."""
    db = outage.db
    await new_match(db)
    await asyncio.to_thread(outage.cut)
    with pytest.raises(RecordsUnavailable):
        await db.write(nothing)
    await asyncio.to_thread(outage.mend)
    assert db.outage.trouble is not None  # nothing has told it yet
    await db.write(nothing)
    assert db.outage.trouble is None


async def test_a_silent_server_is_out_of_reach_without_waiting_for_the_statement_timeout(
    own_server: PostgresServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server that answers nothing (frozen with SIGSTOP) on the pool's open connections and on new ones:
    uses holding a connection and uses waiting for one all fail in words. The statement timeout is put past
    the hang guard, so only the check for a silent server can end them."""
    caplog.set_level(logging.INFO, logger=OUTAGE_LOGGER)
    monkeypatch.setattr(postgres, "STATEMENT_SECONDS", 10 * HANG)
    db = await open_migrated(tmp_path / "hog.sqlite3", own_server.new_database())
    many = postgres.POOL_SIZE + 2  # every pooled connection in use, and two uses waiting for one
    try:
        await asyncio.gather(*(db.fetch_one("SELECT pg_sleep(0.05)") for _ in range(many)))  # all opened
        with own_server.silenced():
            async with asyncio.timeout(HANG):
                reads = [asyncio.create_task(db.fetch_one("SELECT 1 AS one")) for _ in range(many)]
                refused = await asyncio.gather(*reads, db.write(add_player), return_exceptions=True)
        assert [str(error) for error in refused] == [NOTHING_DONE] * (many + 1)
        ((level, warning),) = outage_lines(caplog)
        silent = postgres.PATIENCE_SECONDS + postgres.PROBE_SECONDS
        assert level == "WARNING"
        assert warning.startswith(
            f"the database cannot be reached: no answer from the server within {silent:g} s;"
        )

        await db.write(add_player)  # the frozen connections were dropped; the pool connects anew
        assert await player_names(db) == ["seven"]
        assert db.outage.trouble is None
    finally:
        await db.close()


async def test_a_slow_statement_of_a_server_that_answers_is_waited_for(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    """Past the patience for an answer, the server is asked whether it answers at all: it does, so the
    statement is only slow, and it runs to its end."""
    db = await open_migrated(tmp_path / "hog.sqlite3", own_server.new_database())
    longer = 2 * (postgres.PATIENCE_SECONDS + postgres.PROBE_SECONDS)
    try:
        slow = "SELECT 1 AS one FROM pg_sleep(?)"
        assert await db.fetch_one(slow, (longer,)) == {"one": 1}
        assert await db.write(lambda conn: conn.fetch_one(slow, (longer,))) == {"one": 1}
        assert db.outage.trouble is None
    finally:
        await db.close()


async def test_a_broken_constraint_is_still_a_bug_not_an_outage(db: Database) -> None:
    with pytest.raises(BROKEN_CONSTRAINT):
        await db.write(lambda conn: match_table.insert_match(conn, a_match(Player(404, "nobody"))))
    assert db.outage.trouble is None


async def test_a_failure_before_the_database_ever_answered_is_the_openers_to_say(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """At start (the file locked by an old bot still stopping), the start-up says it in one line: not an
    outage, nothing logged."""
    path = tmp_path / "hog.sqlite3"
    db = await open_migrated(path)
    await db.close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(Exception, match="database is locked"):
            await open_migrated(path)
    finally:
        holder.close()
    assert outage_lines(caplog) == []


async def test_reads_are_refused_too_and_a_saved_change_is_told_as_saved(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    """A stopped server refuses reads as well; a gesture whose change was committed before the server went
    is told its change was saved (only showing it failed), while another gesture is told nothing was done."""
    db = await open_migrated(tmp_path / "hog.sqlite3", own_server.new_database())
    try:
        match = await new_match(db)

        async def played_then_shown() -> None:
            await db.write(add_player)
            await asyncio.to_thread(own_server.pause)
            await db.fetch_one("SELECT * FROM matches WHERE id = ?", (match.id,))

        with pytest.raises(RecordsUnavailable) as refused:
            await asyncio.create_task(played_then_shown())
        assert refused.value.saved and str(refused.value) == SAVED
        with pytest.raises(RecordsUnavailable) as refused:
            await asyncio.create_task(player_names(db))
        assert str(refused.value) == NOTHING_DONE

        await asyncio.to_thread(own_server.resume)
        assert await player_names(db) == ["seven"]
        assert db.outage.trouble is None
    finally:
        await db.close()
