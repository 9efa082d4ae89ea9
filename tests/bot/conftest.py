"""What every bot test shares: one solver cache folder for the whole session, so each rule set is solved
once (the solver keeps solutions per process and per folder)."""

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("solver-cache")
