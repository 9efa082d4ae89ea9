"""`python -m bot --backup PATH`: a consistent copy of the bot's SQLite file, taken while the bot plays and
writes (its latest turns still in the WAL beside the file); refused in one line where it cannot help."""

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import MatchStatus, Services
from hogengine.replay import parse_record, replay
from tests.hang import HANG
from tests.helpers import ALICE, BOB, CHANNEL, GUILD, FakeClock, counted_seeds

ENV = {"PATH": "/usr/bin:/bin"}


def settings(database: Path) -> Settings:
    return Settings(
        database_path=database,
        solver_cache_path=database.parent / "cache",
        _env_file=None,  # type: ignore[call-arg]
    )


def backup(tmp_path: Path, target: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--backup", target],
        cwd=tmp_path,
        env=ENV | {"HOG_DATABASE_PATH": str(tmp_path / "hog.sqlite3")} | env,
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


async def test_a_backup_taken_while_the_bot_plays_is_a_whole_consistent_database(tmp_path: Path) -> None:
    database, target = tmp_path / "hog.sqlite3", tmp_path / "backup.sqlite3"
    services = await Services.open(settings(database).services, FakeClock(), counted_seeds())
    games = services.games
    try:
        first = await games.accept((await games.challenge(CHANNEL, ALICE, BOB, guild_id=GUILD)).id, BOB.id)
        # What the bot has committed is still in the WAL: a copy of hog.sqlite3 alone would not hold it.
        assert (tmp_path / "hog.sqlite3-wal").stat().st_size > 0
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "--backup",
            str(target),
            cwd=tmp_path,
            env=ENV | {"HOG_DATABASE_PATH": str(database)},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        match, turns = first, 0
        while process.returncode is None:  # the bot goes on playing, game after game, while it copies
            if match.status is not MatchStatus.ACTIVE:
                match = await games.challenge(CHANNEL, ALICE, BOB, guild_id=GUILD)
                match = await games.accept(match.id, BOB.id)
            person = match.player_to_move
            assert person is not None
            match = (await games.play(match.id, person.id, match.state.turn, 4)).match
            turns += 1
            await asyncio.sleep(0)
        out, err = await process.communicate()
    finally:
        await services.close()
    assert process.returncode == 0, err
    assert out.decode() == f"Backed up {database} to {target}.\n" and err == b""
    assert turns > 0
    assert not target.with_name("backup.sqlite3.partial").exists()
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, nothing beside it
        ids = [row[0] for row in copy.execute("SELECT id FROM matches ORDER BY id")]
    assert ids[0] == first.id
    restored = await Services.open(settings(target).services, FakeClock(), counted_seeds())
    try:
        for match_id in ids:  # every match's stored state is the replay of its stored turns: one moment
            match = await restored.games.get(match_id)
            exported = await restored.games.export(match_id, guild_id=GUILD, user_id=ALICE.id)
            states = [result.after for result in replay(parse_record(exported))]
            assert (states[-1] if states else first.state) == match.state
    finally:
        await restored.close()


def test_a_bot_on_postgresql_is_pointed_at_pg_dump(tmp_path: Path) -> None:
    (tmp_path / "hog.sqlite3").write_bytes(b"")
    done = backup(tmp_path, "backup.sqlite3", HOG_DATABASE_URL="postgresql://hog:secret@db:5432/hog")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "--backup copies the SQLite file, but HOG_DATABASE_URL is set: back PostgreSQL up with pg_dump.\n"
    )
    assert not (tmp_path / "backup.sqlite3").exists()


def test_without_a_database_there_is_nothing_to_back_up(tmp_path: Path) -> None:
    done = backup(tmp_path, "backup.sqlite3")
    assert (done.returncode, done.stdout) == (2, "")
    where = tmp_path / "hog.sqlite3"
    assert done.stderr == f"Nothing to back up: there is no SQLite database at {where} (HOG_DATABASE_PATH).\n"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A bot's SQLite file with its tables (the bot closed again)."""

    async def create() -> None:
        opened = settings(tmp_path / "hog.sqlite3").services
        services = await Services.open(opened, FakeClock(), counted_seeds())
        await services.close()

    asyncio.run(create())
    return tmp_path / "hog.sqlite3"


def test_a_file_that_exists_is_never_overwritten(tmp_path: Path, database: Path) -> None:
    (tmp_path / "backup.sqlite3").write_text("last week's backup")
    done = backup(tmp_path, "backup.sqlite3")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "Cannot back up to backup.sqlite3: it already exists. Nothing was written.\n"
    assert (tmp_path / "backup.sqlite3").read_text() == "last week's backup"


@pytest.mark.parametrize(
    ("target", "garbage", "why"),
    [
        ("missing/backup.sqlite3", False, "unable to open database file"),
        ("backup.sqlite3", True, "file is not a database"),
    ],
    ids=["no such folder", "not a database"],
)
def test_a_backup_that_fails_leaves_nothing_behind(
    tmp_path: Path, database: Path, target: str, garbage: bool, why: str
) -> None:
    if garbage:
        database.write_bytes(b"not SQLite at all " * 100)
    done = backup(tmp_path, target)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"Cannot back up {database} to {target}: {why}. Nothing was written.\n"
    assert sorted(path.name for path in tmp_path.rglob("backup*")) == []
