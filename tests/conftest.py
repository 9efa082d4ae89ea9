"""Every test keeps the command line's solver cache in a temporary directory, never in the user's home;
storage and service tests run on both backends, PostgreSQL on a real server the session starts. `make test`
runs the tests in parallel (pytest-xdist, a worker per core, a test file's tests in one worker): what a run
makes once (the wheel, the solved rule sets) its workers share."""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.hang import HANG
from tests.helpers import copy_of_the_repository, first_comes_first
from tests.postgres_server import PostgresServer, running_server

# Hypothesis's clocks (200 ms an example, a limit on generating data) are budgets for the machine, not checks
# of the code: a machine shared with other jobs fails them at random. Examples are waited on, as all work is.
settings.register_profile("waits-on-the-work", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("waits-on-the-work")


MOST_WORKERS = 4  # each may run a PostgreSQL server, bots and solvers of its own: more would crowd memory


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's: a run without it (-p no:xdist) still starts
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker for each core this process may use, at most MOST_WORKERS."""
    return min(len(os.sched_getaffinity(0)), MOST_WORKERS)


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run that all its workers share (each worker's own temporary folders are below it)."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if "PYTEST_XDIST_WORKER" in os.environ else own


@pytest.fixture(scope="session")
def hog_cache(run_folder: Path) -> Path:
    """One solver cache for the whole run, the command line's and the bot's alike, in every worker: each
    rule set's model, solution and table is made once per run, whoever needs it first (the cache is made for
    processes sharing it)."""
    cache = run_folder / "hog-cache"
    cache.mkdir(exist_ok=True)
    return cache


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
def wheel(run_folder: Path) -> Path:
    """The project's wheel, built once per run from a copy of its tracked files as a fresh clone has them
    (`pip wheel` compiles the solver's sweep into it); every test that unpacks or installs it shares it."""
    with first_comes_first(run_folder, "wheel") as work:
        if not list(work.glob("dist/hogbot-*.whl")):
            source = copy_of_the_repository(work / "source")
            pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "wheel", "--no-deps"]
            subprocess.run([*pip, "-w", work / "dist", source], check=True, timeout=HANG)
    (built,) = (work / "dist").glob("hogbot-*.whl")
    return built
