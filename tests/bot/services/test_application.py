"""Services: every service on one database, the upload limits from the settings, closed together."""

from pathlib import Path

import pytest

from bot.config import Settings
from bot.domain.errors import StillPlaying
from bot.domain.settings import Timeouts, UploadLimits
from bot.services import Services
from tests.helpers import ALICE, CHANNEL


async def test_services_share_the_database_and_take_their_limits_from_the_settings(tmp_path: Path) -> None:
    settings = Settings(
        database_path=tmp_path / "hog.sqlite3",
        upload_cooldown_seconds=5,
        upload_workers=3,
        upload_max_waiting=4,
        upload_time_limit_seconds=2,
        challenge_timeout_seconds=90,
        turn_timeout_seconds=45,
        _env_file=None,  # type: ignore[call-arg]
    )
    services = await Services.open(settings.services)
    try:
        assert services.strategies.limits == UploadLimits(
            cooldown_seconds=5, workers=3, waiting=4, time_limit=2, per_person=3
        )
        assert services.games.timeouts == Timeouts(challenge_seconds=90, turn_seconds=45)
        await services.games.vs_bot(CHANNEL, ALICE)
        with pytest.raises(StillPlaying):  # the privacy service sees the game service's game
            await services.privacy.forget(ALICE.id)
    finally:
        await services.close()
    with pytest.raises(RuntimeError, match="The database is closed"):
        await services.games.vs_bot(CHANNEL + 1, ALICE)
