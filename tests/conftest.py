"""Every test keeps the command line's solver cache in a temporary directory, never in the user's home;
storage and service tests run on both backends, PostgreSQL on a real server the session starts."""

from collections.abc import Iterator

import pytest

from tests.postgres_server import PostgresServer


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
