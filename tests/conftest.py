"""Every test keeps the command line's solver cache in a temporary directory, never in the user's home;
storage and service tests run on both backends, PostgreSQL on a real server the session starts."""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.hang import HANG
from tests.helpers import copy_of_the_repository
from tests.postgres_server import PostgresServer, running_server

# Hypothesis's clocks (200 ms an example, a limit on generating data) are budgets for the machine, not checks
# of the code: a machine shared with other jobs fails them at random. Examples are waited on, as all work is.
settings.register_profile("waits-on-the-work", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("waits-on-the-work")


@pytest.fixture(scope="session")
def hog_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One solver cache for the whole run, the command line's and the bot's alike: each rule set's model,
    solution and table is made once per run, whoever needs it first."""
    return tmp_path_factory.mktemp("hog-cache")


@pytest.fixture(autouse=True)
def _solver_cache(hog_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_CACHE_DIR", str(hog_cache))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session, started the first time a test needs it."""
    with running_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str | None:
    """Runs a test on each backend: None for the SQLite file beside the test, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once per run from a copy of its tracked files as a fresh clone has them
    (`pip wheel` compiles the solver's sweep into it); every test that unpacks or installs it shares it."""
    work = tmp_path_factory.mktemp("wheel")
    source = copy_of_the_repository(work / "source")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", work / "dist", source], check=True, timeout=HANG)
    (built,) = (work / "dist").glob("hogbot-*.whl")
    return built
