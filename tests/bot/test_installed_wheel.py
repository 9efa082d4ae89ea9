"""The bot as a user installs it: `pip install` of the built wheel into a fresh virtualenv (not the source
tree, not editable), then `python -m bot` against the fake Discord over real sockets creates every table;
an install that lost its migrations refuses to start with one clear line; the installed `hog gui` serves its
page from the wheel's own files."""

import asyncio
import shutil
import signal
import sqlite3
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from bot.storage.migrations import discover
from tests.bot.discord.fake_discord import GUILD_ID, RUN_BOT_AGAINST, FakeDiscord
from tests.bot.discord.over_sockets import spawn_bot
from tests.hang import HANG
from tests.helpers import Served

ROOT = Path(__file__).resolve().parents[2]
# The installed package's own entry point (not the source tree's), Discord's address pointed at the fake.
START = "import bot; assert 'site-packages' in bot.__file__, bot.__file__; " + RUN_BOT_AGAINST


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A fresh virtualenv with the wheel built from a copy of the project (the tree stays untouched)."""
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=HANG)
    install = [venv / "bin" / "python", "-m", "pip", "--disable-pip-version-check", "-q", "install"]
    subprocess.run([*install, wheel, "-c", ROOT / "requirements.lock"], check=True, timeout=HANG)
    return venv / "bin" / "python"


def test_the_wheel_carries_every_module_and_migration_of_the_tree(wheel: Path) -> None:
    """pyproject.toml lists the packages (the top-level migrations/ installs as bot.migrations): a package
    added to the tree but not to the list would be missing from every install."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    wanted = {
        name.replace("migrations/", "bot/migrations/", 1) if name.startswith("migrations/") else name
        for name in tracked.stdout.split()
        if name.split("/")[0] in ("bot", "hogengine", "migrations") and name.endswith((".py", ".sql"))
    }
    with zipfile.ZipFile(wheel) as archive:
        assert wanted - set(archive.namelist()) == set()


def printed(python: Path, code: str, cwd: Path) -> str:
    """What the installed interpreter prints running `code` (outside the source tree)."""
    return subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, cwd=cwd
    ).stdout.strip()


async def start_bot(python: Path, fake: FakeDiscord, data: Path) -> asyncio.subprocess.Process:
    """The installed bot against `fake`, its solver cache in `data`."""
    return await spawn_bot(fake.url, data, python, START, HOG_SOLVER_CACHE_PATH=str(data / "cache"))


async def test_the_installed_wheel_creates_every_table(installed: Path, fake: FakeDiscord, tmp_path: Path):
    bot = await start_bot(installed, fake, tmp_path)
    await fake.until(lambda request: request.path.endswith(f"/guilds/{GUILD_ID}/commands"), timeout=HANG)
    await fake.connected(timeout=HANG)
    bot.send_signal(signal.SIGTERM)
    _, stderr = await asyncio.wait_for(bot.communicate(), HANG)
    assert bot.returncode == 0, stderr.decode()
    assert "voice will NOT be supported" not in stderr.decode()  # Hog has no voice: no warning about it
    with sqlite3.connect(tmp_path / "hog.sqlite3") as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        versions = [version for (version,) in db.execute("SELECT version FROM schema_migrations")]
    assert {"players", "matches", "turns", "strategies", "ratings"} <= tables
    assert versions == [migration.version for migration in discover()]


async def test_an_install_without_migrations_refuses_to_start(
    installed: Path, fake: FakeDiscord, tmp_path: Path
) -> None:
    packaged = printed(
        installed, "from bot.storage.migrations import MIGRATIONS_DIR; print(MIGRATIONS_DIR)", tmp_path
    )
    aside = tmp_path / "aside"
    aside.mkdir()
    sql = sorted(Path(packaged).glob("*.sql"))
    assert sql
    for path in sql:  # what an install that dropped its package data (not its code) looks like
        shutil.move(path, aside)
    try:
        bot = await start_bot(installed, fake, tmp_path)
        _, stderr = await asyncio.wait_for(bot.communicate(), HANG)
    finally:
        for path in sql:
            shutil.move(aside / path.name, path)
    assert bot.returncode == 1
    assert stderr.decode().splitlines()[-1] == (
        f"hogbot cannot start: No migrations found in {packaged}: the installation is incomplete."
    )
    assert "Traceback" not in stderr.decode()


def test_the_installed_hog_gui_serves_its_page_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """`hog gui` is found through the wheel's entry point, and the page's files are in the wheel."""
    server = Served(cache=tmp_path, hog=[installed.parent / "hog"])
    try:
        for name in ("", "static/app.js", "static/style.css", "static/favicon.svg"):
            with urllib.request.urlopen(server.base + name, timeout=HANG) as response:
                assert response.status == 200 and response.read()
    finally:
        status, stderr = server.stop()
    assert status == 130 and "Traceback" not in stderr


def test_the_load_benchmark_runs_from_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    """bench/bench_load.py against the installed package (its own folder first on the path, not the
    source tree): it plays, verifies every stored match against its replay and reports, whatever the
    figures (a missed target is exit status 1, not a failure to run)."""
    script = ROOT / "bench" / "bench_load.py"
    assert "site-packages" in printed(installed, "import bot; print(bot.__file__)", tmp_path)
    run = subprocess.run(
        [installed, script, "--games", "4", "--seconds", "0.3", "--rate", "200", "--database", "sqlite"],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=HANG,
    )
    assert run.returncode in (0, 1), run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.count("all verified") == 2
    assert "targets (sqlite, one process):" in run.stdout
