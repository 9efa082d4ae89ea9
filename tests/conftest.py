"""Every test keeps the command line's solver cache in a temporary directory, never in the user's home."""

import pytest


@pytest.fixture(autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "hog-cache"))
