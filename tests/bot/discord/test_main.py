"""`python -m bot` / `make run` as an operator meets them: the how-to without a token, JSON logs, the
health check and `.env.example`."""

import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.__main__ import JsonLines
from bot.config import Settings
from bot.health import FRESH_SECONDS
from tests.hang import HANG
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[3]
EMPTY = {"PATH": "/usr/local/bin:/usr/bin:/bin"}  # no DISCORD_TOKEN, no HOG_* settings


def run(command: Sequence[str | Path], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=EMPTY | env, capture_output=True, text=True, timeout=HANG, check=False
    )


def check_how_to(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode != 0
    assert "Bot -> Reset Token" in done.stderr
    assert "DISCORD_TOKEN=" in done.stderr and ".env" in done.stderr
    assert "make play" in done.stderr
    assert "Games will be kept in data/hog.sqlite3." in done.stderr
    assert "Traceback" not in done.stderr


def test_without_a_token_python_m_bot_explains_where_to_get_one(tmp_path: Path) -> None:
    check_how_to(run([sys.executable, "-m", "bot"], tmp_path))
    assert not (tmp_path / "data").exists()  # nothing is created before there is a token


def test_in_the_docker_image_the_how_to_names_what_works_there(tmp_path: Path) -> None:
    """The image has no make: its how-to says where compose reads the token and how to play offline."""
    assert "HOGBOT_IMAGE=1" in (ROOT / "Dockerfile").read_text()  # what the image sets, and the bot reads
    done = run([sys.executable, "-m", "bot"], tmp_path, HOGBOT_IMAGE="1")
    assert done.returncode == 2 and "make" not in done.stderr
    assert "Put it in the .env file beside docker-compose.yml (compose reads it):" in done.stderr
    assert "then `docker compose up -d` again." in done.stderr
    assert done.stderr.endswith("Try the game offline: docker compose run --rm bot hog play\n\n")


def test_a_blank_setting_in_env_means_unset(tmp_path: Path) -> None:
    """`.env.example` copied with its optional values left blank: the defaults hold, nothing is refused."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nHOG_DEV_GUILD_ID=\nHOG_TURN_TIMEOUT_SECONDS=\n")
    check_how_to(run([sys.executable, "-m", "bot"], tmp_path, HOG_LOG_LEVEL=""))


def test_settings_that_are_not_valid_are_named_without_a_traceback(tmp_path: Path) -> None:
    done = run([sys.executable, "-m", "bot"], tmp_path, HOG_LOG_LEVEL="loud", HOG_TURN_TIMEOUT_SECONDS="0")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "hogbot cannot start: HOG_TURN_TIMEOUT_SECONDS: Input should be greater than 0 (see .env.example)",
        "hogbot cannot start: HOG_LOG_LEVEL: Input should be 'DEBUG', 'INFO', 'WARNING', 'ERROR' or"
        " 'CRITICAL' (see .env.example)",
    ]
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    ("count", "ids", "why"),
    [
        ("2", "2", "Value error, shard 2 is outside 0-1 (HOG_SHARD_COUNT is 2)"),
        ("4", "1-", "Value error, '1-' is not a shard id or a range like 0-3 (write e.g. 0-3 or 0,2)"),
        ("4", "3-1", "Value error, '3-1' is not a shard id or a range like 0-3 (write e.g. 0-3 or 0,2)"),
        ("", "0", "Value error, needs HOG_SHARD_COUNT, the number of shards of every process together"),
        ("4", "0-999999999999", "Value error, '0-999999999999' goes past shard 65535"),
        ("0", "0", ""),
    ],
)
def test_shards_that_cannot_be_run_are_named(tmp_path: Path, count: str, ids: str, why: str) -> None:
    """Each in one line naming the setting at fault; a count that is not valid is that line alone (not a
    second one saying the ids lack a count)."""
    done = run([sys.executable, "-m", "bot"], tmp_path, HOG_SHARD_COUNT=count, HOG_SHARD_IDS=ids)
    assert done.returncode == 2
    count_line = "HOG_SHARD_COUNT: Input should be greater than or equal to 1"
    setting = f"HOG_SHARD_IDS: {why}" if why else count_line
    assert done.stderr.splitlines() == [f"hogbot cannot start: {setting} (see .env.example)"]


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("mysql://a@b/c", "should be a URL like postgresql://user:password@host:5432/database"),
        ("postgresql://hog:s3cret@127.0.0.1:99999/hog", "has a port that is not a number from 0 to 65535"),
        ("postgresql://hog:s3/cr@t@127.0.0.1:5432/hog", "(or an @ / : ? # in the user or password"),
        ("postgresql://hog:s3cr@t@127.0.0.1:5432/hog", "has an @ in the user or password: percent-encode"),
    ],
)
def test_a_database_url_that_cannot_name_a_server_is_named(tmp_path: Path, url: str, why: str) -> None:
    """Before anything is opened: one line naming the setting, never the password (one with an unescaped
    `/` reads as a port)."""
    for command in (["-m", "bot"], ["-m", "bot", "--copy-to"]):
        done = run([sys.executable, *command], tmp_path, DISCORD_TOKEN="t", HOG_DATABASE_URL=url)
        assert done.returncode == 2
        (line,) = done.stderr.splitlines()
        assert line.startswith("hogbot cannot start: HOG_DATABASE_URL: Value error, ")
        assert why in line and line.endswith(" (see .env.example)") and "s3" not in line


@pytest.mark.parametrize(
    ("where", "credentials", "why"),
    [
        ("closed-port", "hog:s3cret@", "the server refused the connection (is PostgreSQL running there?)"),
        ("missing-database", "hog:s3cret@", 'database "nowhere" does not exist'),
        (
            "bad-parameter",
            "hog:s3cret@",
            "the URL cannot be read (check its parameters; percent-encode @ / : ? # in user or password)",
        ),
    ],
)
def test_a_database_that_cannot_be_opened_stops_the_bot_in_one_line(
    tmp_path: Path, postgres: PostgresServer, where: str, credentials: str, why: str
) -> None:
    """Before Discord is contacted: one line naming the setting and the cause, never the user or password
    (not even one with unescaped `/` and `@`, nor one in the query)."""
    port = postgres.port if where == "missing-database" else _closed_port()
    url = f"postgresql://{credentials}127.0.0.1:{port}/nowhere?password=s3cret"
    if where == "bad-parameter":
        url += "&target_session_attrs=s3cret"
    done = run([sys.executable, "-m", "bot"], tmp_path, DISCORD_TOKEN="t", HOG_DATABASE_URL=url)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"hogbot cannot start: HOG_DATABASE_URL: cannot open postgresql://127.0.0.1:{port}/nowhere: {why}"
    ]
    assert "s3" not in done.stderr and "hog:" not in done.stderr


@pytest.mark.parametrize("where", ["not-sqlite", "no-folder", "a-folder"])
def test_a_sqlite_file_that_cannot_be_opened_stops_the_bot_in_one_line(tmp_path: Path, where: str) -> None:
    """A file that is not SQLite's, a folder that cannot be made, or a folder where the file should be: one
    line, exit 2, and the process ends (an unclosed connection's thread once kept it alive for ever, and
    aiosqlite's thread once reported its own stop after the loop had closed)."""
    path = tmp_path / "hog.sqlite3"
    if where == "not-sqlite":
        path.write_text("not a database, just words " * 10)
    elif where == "no-folder":
        path = tmp_path / "a-file" / "hog.sqlite3"
        path.parent.write_text("")
    else:
        path.mkdir()
    done = run([sys.executable, "-m", "bot"], tmp_path, DISCORD_TOKEN="t", HOG_DATABASE_PATH=str(path))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"hogbot cannot start: HOG_DATABASE_PATH: cannot open {path}: ")


def test_a_sqlite_file_locked_past_the_busy_timeout_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    """Another process (an old bot still stopping, a backup tool) holds the file's write lock for longer
    than SQLite waits: one line saying so, exit 1, no traceback."""
    path = tmp_path / "hog.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = WAL")  # as a bot left it: opening needs no lock, migrating does
        holder.execute("BEGIN IMMEDIATE")
        done = run([sys.executable, "-m", "bot"], tmp_path, DISCORD_TOKEN="t", HOG_DATABASE_PATH=str(path))
    finally:
        holder.close()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "hogbot cannot start: Cannot read which migrations the database has: database is locked"
    ]


def test_tls_settings_that_cannot_be_used_are_named_as_such(tmp_path: Path) -> None:
    """A certificate file that is not there, or an sslmode PostgreSQL does not know: the driver's reason,
    not the hint about percent-encoding a password."""
    url = f"postgresql://hog:s3cret@127.0.0.1:{_closed_port()}/hog?sslmode="
    for sslmode, why in [("verify-full", "root certificate file"), ("bogus", "`sslmode` parameter must be")]:
        done = run([sys.executable, "-m", "bot"], tmp_path, DISCORD_TOKEN="t", HOG_DATABASE_URL=url + sslmode)
        assert done.returncode == 2
        (line,) = done.stderr.splitlines()
        assert ": the TLS settings cannot be used: " + why in line
        assert "s3cret" not in line


def _closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_make_run_starts_the_bot(tmp_path: Path) -> None:
    """`make run` in an empty folder (no .env), with the project's virtualenv taken as installed."""
    make = ["make", "-s", "-f", ROOT / "Makefile", "-o", ".venv/.runtime", f"BIN={ROOT}/.venv/bin", "run"]
    check_how_to(run(make, tmp_path))


@pytest.mark.parametrize(("target", "dev"), [("run", False), ("play", False), ("test", True)])
def test_make_installs_test_tools_only_for_the_checks(tmp_path: Path, target: str, dev: bool) -> None:
    """On a fresh clone (no .venv), what each target would install: the runtime dependencies alone for
    the bot and the terminal game, everything the lock pins for the checks."""
    planned = run(["make", "-n", "-C", ROOT, f"VENV={tmp_path / 'venv'}", target], tmp_path).stdout
    assert "pip install -q --constraint requirements.lock --editable ." in planned
    assert ("pip install -q -r requirements.lock" in planned) == dev


def test_the_health_check_follows_the_heartbeat_beside_the_database(tmp_path: Path) -> None:
    health = [sys.executable, "-m", "bot", "--health"]
    beat = tmp_path / "data" / "hogbot.heartbeat"  # beside the default ./data/hog.sqlite3
    done = run(health, tmp_path)  # no bot has beaten yet
    assert done.returncode == 1
    assert done.stderr == (
        f"unhealthy: no heartbeat at {Path('data/hogbot.heartbeat')}: the bot has not connected to Discord"
        " since it started\n"
    )
    beat.parent.mkdir()
    beat.touch()  # what the running bot's clock does while connected
    assert run(health, tmp_path).returncode == 0
    stale = time.time() - FRESH_SECONDS - 1
    os.utime(beat, (stale, stale))  # the bot stopped beating: disconnected, or its clock is stuck
    done = run(health, tmp_path)
    assert done.returncode == 1
    assert "s old (at most 120 s): the bot is disconnected from Discord, or its clock is stuck" in done.stderr

    volume = tmp_path / "volume"
    volume.mkdir()
    (volume / "hogbot.heartbeat").touch()
    assert run(health, tmp_path, HOG_DATABASE_PATH=str(volume / "hog.sqlite3")).returncode == 0


def test_the_heartbeat_can_be_put_anywhere(tmp_path: Path) -> None:
    health = [sys.executable, "-m", "bot", "--health"]
    beat = tmp_path / "beat"
    assert run(health, tmp_path, HOG_HEARTBEAT_PATH=str(beat)).returncode == 1
    beat.touch()
    assert run(health, tmp_path, HOG_HEARTBEAT_PATH=str(beat)).returncode == 0


def test_the_health_check_does_not_load_discord(tmp_path: Path) -> None:
    """It runs every minute in the container: it reads the settings and one file's time, nothing more."""
    heavy = "{'discord', 'aiohttp', 'aiosqlite', 'numpy', 'matplotlib'}"
    probe = (
        "import sys; from bot.__main__ import main; status = main(['--health']);"
        f" print(status, *sorted({{name.split('.')[0] for name in sys.modules}} & {heavy}))"
    )
    done = run([sys.executable, "-c", probe], tmp_path)
    assert done.stdout.split() == ["1"], done.stdout + done.stderr


def test_a_first_start_logs_nothing_of_matplotlibs_font_cache(tmp_path: Path) -> None:
    """`python -m bot` sets up its log, then imports the adapter (and matplotlib with it): on a first start
    matplotlib builds its font cache and says so at INFO, which is not the bot's to log."""
    start = (
        "import logging; from bot.__main__ import configure_logging; configure_logging('INFO');"
        " import bot.discord; logging.getLogger('bot').info('started')"
    )
    done = run([sys.executable, "-c", start], tmp_path, MPLCONFIGDIR=str(tmp_path / "no-font-cache-yet"))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["message"] for line in done.stderr.splitlines()] == ["started"]


def test_logs_are_json_lines_with_context() -> None:
    record = logging.LogRecord(
        "bot.discord.errors", logging.ERROR, __file__, 1, "interaction failed", (), None
    )
    record.__dict__.update(command="hog hint", user=101, channel=7, match=None)

    line = json.loads(JsonLines().format(record))

    assert line["level"] == "ERROR" and line["message"] == "interaction failed"
    assert (line["command"], line["user"], line["channel"]) == ("hog hint", 101, 7)
    assert "match" not in line


def test_env_example_documents_every_setting_with_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    example = ROOT / ".env.example"
    text = example.read_text()
    for name, field in Settings.model_fields.items():
        variable = "DISCORD_TOKEN" if name == "discord_token" else f"HOG_{name.upper()}"
        assert f"{variable}=" in text, f"{variable} ({field.description or name}) is not in .env.example"
    for variable in [*os.environ]:
        if variable.startswith("HOG_") or variable == "DISCORD_TOKEN":
            monkeypatch.delenv(variable)
    documented = Settings(_env_file=example)  # type: ignore[call-arg]
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert documented.model_dump(exclude={"discord_token"}) == defaults.model_dump(exclude={"discord_token"})
