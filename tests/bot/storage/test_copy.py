"""`python -m bot --copy-to URL`: a bot's SQLite file, with games, turns, strategies, tournaments and
ratings in it, moves into a new PostgreSQL database whole; the bot then reads the very same records
there and goes on numbering after them; a target that holds data is refused untouched."""

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import MatchStatus, Services
from bot.storage import PostgresDatabase, SqliteDatabase, copy
from tests.catalog import tables
from tests.hang import HANG
from tests.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    ROLL_4,
    FakeClock,
    counted_seeds,
    run_tournament,
    upload_file,
)
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[3]


def settings(tmp_path: Path, url: str | None = None) -> Settings:
    return Settings(
        database_path=tmp_path / "hog.sqlite3",
        database_url=url,
        solver_cache_path=tmp_path / "cache",
        _env_file=None,  # type: ignore[call-arg]
    )


async def a_bots_life(tmp_path: Path, clock: FakeClock) -> None:
    """The SQLite bot in tmp_path lives, then closes: a rated game between two people played to its end, a
    game against an uploaded strategy, and a tournament of two uploads."""
    services = await Services.open(settings(tmp_path).services, clock, counted_seeds())
    try:
        games = services.games
        match = await games.challenge(CHANNEL, ALICE, BOB, rules="swine-align", guild_id=GUILD)
        match = await games.accept(match.id, BOB.id)
        while match.status is MatchStatus.ACTIVE:
            person = match.player_to_move
            assert person is not None
            match = (await games.play(match.id, person.id, match.state.turn, 4)).match
        await services.ratings.record()
        fours = await upload_file(services.strategies, GUILD, ALICE, "fours.py", ROLL_4)
        clock.advance(3600)
        sixes = b"def final_strategy(score, opponent_score):\n    return 6\n"
        await upload_file(services.strategies, GUILD, BOB, "sixes.py", sixes)
        opponent = await services.strategies.opponent(GUILD, fours.strategy.name, "swine-align")
        await games.vs_bot(CHANNEL + 1, BOB, strategy=opponent, guild_id=GUILD)
        await run_tournament(services.tournaments, GUILD, ALICE)
    finally:
        await services.close()


def copy_to(tmp_path: Path, url: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot --copy-to URL` (`--copy-to` alone for an empty URL) on the SQLite file in tmp_path."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "--copy-to", *([url] if url else [])],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOG_DATABASE_PATH": str(tmp_path / "hog.sqlite3"), **env},
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


async def test_a_sqlite_bot_moves_to_postgresql_whole(tmp_path: Path, postgres: PostgresServer) -> None:
    clock = FakeClock()
    await a_bots_life(tmp_path, clock)

    url = postgres.new_database()
    done = copy_to(tmp_path, url)
    assert done.returncode == 0, done.stderr
    assert "  matches: 2 rows" in done.stdout and "  strategies: 2 rows" in done.stdout
    assert done.stdout.splitlines()[-1] == "Set HOG_DATABASE_URL to it, then start the bot."

    before = await Services.open(settings(tmp_path).services, clock, counted_seeds())
    after = await Services.open(settings(tmp_path, url).services, clock, counted_seeds())
    try:
        for match_id in (1, 2):
            assert await after.games.get(match_id) == await before.games.get(match_id)
            assert await after.games.turns(match_id) == await before.games.turns(match_id)
        leaderboard, strategies = await before.ratings.leaderboard(), await before.strategies.active(GUILD)
        tournament = await before.tournaments.latest(GUILD)
        assert (len(leaderboard), len(strategies), tournament is not None) == (2, 2, True)
        assert await after.ratings.leaderboard() == leaderboard
        assert await after.strategies.active(GUILD) == strategies
        assert await after.tournaments.latest(GUILD) == tournament
        new = await after.games.challenge(CHANNEL + 2, ALICE, BOB, guild_id=GUILD)
        assert new.id == 3  # numbering goes on after the copied games
    finally:
        await before.close()
        await after.close()

    again = copy_to(tmp_path, url)
    assert again.returncode == 1
    assert again.stderr.startswith("Cannot copy: The target already holds ")
    assert again.stderr.rstrip().endswith("Nothing was written.")


def test_there_must_be_something_to_copy(tmp_path: Path, postgres: PostgresServer) -> None:
    done = copy_to(tmp_path, postgres.new_database())
    assert (done.returncode, done.stderr) == (
        2,
        f"Nothing to copy: there is no SQLite database at {tmp_path / 'hog.sqlite3'} (HOG_DATABASE_PATH).\n",
    )
    assert copy_to(tmp_path, "sqlite:///x").stderr.startswith(
        "--copy-to: the target should be a URL like postgresql://"
    )


async def test_every_row_is_copied_batch_after_batch(
    tmp_path: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of two rows, each read after the last key of the one before (composite keys included): the
    copy holds every row of every table, as the SQLite file does."""
    clock = FakeClock()
    await a_bots_life(tmp_path, clock)
    monkeypatch.setattr(copy, "BATCH", 2)
    url = postgres.new_database()
    reported: dict[str, int] = {}
    copied = await copy.copy_file_to(tmp_path / "hog.sqlite3", url, reported.__setitem__)
    source = await SqliteDatabase.open(tmp_path / "hog.sqlite3")
    target = await PostgresDatabase.open(url)
    try:
        for table, count in reported.items():
            order = "1, 2" if table not in ("players", "matches", "strategies", "tournaments") else "id"
            rows = [await db.fetch_all(f"SELECT * FROM {table} ORDER BY {order}") for db in (source, target)]
            assert rows[0] == rows[1] and len(rows[0]) == count, table
        assert reported["turns"] > 2 and copied == sum(reported.values())
    finally:
        await source.close()
        await target.close()


async def test_a_target_holding_rows_is_refused_before_anything_is_written(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    (tmp_path / "hog.sqlite3").touch()
    url = postgres.new_database()
    other = await PostgresDatabase.open(url)
    try:
        await other.write(lambda conn: conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)"))
        await other.write(lambda conn: conn.execute("INSERT INTO notes VALUES (1)"))
        done = copy_to(
            tmp_path, "", HOG_DATABASE_URL=url
        )  # the target from the setting, not the command line
        assert (done.returncode, done.stderr) == (
            1,
            "Cannot copy: The target already holds notes: copy only into an empty database."
            " Nothing was written.\n",
        )
        assert await tables(other) == {"notes"}  # not even the migrations' tables
    finally:
        await other.close()
