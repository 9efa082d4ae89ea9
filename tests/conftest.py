"""Every test keeps the command line's solver cache in a temporary directory, never in the user's home;
storage and service tests run on both backends, PostgreSQL on a real server the session starts."""

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.postgres_server import PostgresServer

# Hypothesis's clocks (200 ms an example, a limit on generating data) are budgets for the machine, not checks
# of the code: a machine shared with other jobs fails them at random. Examples are waited on, as all work is.
settings.register_profile("waits-on-the-work", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("waits-on-the-work")


@pytest.fixture(autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "hog-cache"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session, started the first time a test needs it."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str | None:
    """Runs a test on each backend: None for the SQLite file beside the test, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
