"""What the page tests share: a game exported by the bot's own `/hog export` (its services on a real SQLite
file, the house bot at its perfect level), and `hog gui` running as a real process."""

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.services import MatchStatus, Services
from hogengine.game import legal_choices
from tests.helpers import ALICE, CHANNEL, GUILD, FakeClock, counted_seeds

EXPORTED_RULES = "pork-chop"  # Pork Chop's hidden flag and four-sided dice make the richest record
ADDRESS = re.compile(r"Hog is served at (http://127\.0\.0\.1:\d+/\S*) \(Ctrl-C stops it\)\.")


async def _export(folder: Path, solver_cache: Path) -> dict[str, Any]:
    """Alice plays Pork Chop first, then five dice a turn, against the perfect house bot; the export."""
    settings = Settings(database_path=folder / "hog.sqlite3", solver_cache_path=solver_cache, _env_file=None)
    services = await Services.open(settings, FakeClock(), counted_seeds())
    try:
        games = services.games
        match = await games.vs_bot(CHANNEL, ALICE, EXPORTED_RULES, level="perfect", guild_id=GUILD)
        while match.status is MatchStatus.ACTIVE:
            if match.is_bot_turn:
                played = await games.bot_turn(match.id)
                assert played is not None
            else:
                choice = legal_choices(match.state)[0] if match.state.turn == 0 else 5
                played = await games.play(match.id, ALICE.id, match.state.turn, choice)
            match = played.match
        return await games.export(match.id, guild_id=GUILD, user_id=ALICE.id)
    finally:
        await services.close()


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory, solver_cache: Path) -> dict[str, Any]:
    """A finished game's `/hog export`: its rolls, its revealed seed and the commitment."""
    return asyncio.run(_export(tmp_path_factory.mktemp("export"), solver_cache))


@pytest.fixture(scope="session")
def export_file(tmp_path_factory: pytest.TempPathFactory, exported: dict[str, Any]) -> Path:
    """The export as the bot attaches it: `hog-match-N.json`, indented."""
    path = tmp_path_factory.mktemp("records") / "hog-match-1.json"
    path.write_text(json.dumps(exported, indent=2), encoding="utf-8")
    return path


class Served:
    """A running `hog gui --no-browser`: its process and the address it printed."""

    def __init__(self, *options: str, cache: Path) -> None:
        command = [sys.executable, "-m", "hogengine", "gui", "--no-browser", "--port", "0", *options]
        env = {**os.environ, "HOG_CACHE_DIR": str(cache)}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = ADDRESS.fullmatch(line.strip())
        assert found, f"no address printed: {line!r} {self.process.stderr.read() if not line else ''}"
        self.url = found[1]
        self.base = self.url.split("#")[0]

    def stop(self) -> tuple[int, str]:
        """Ctrl-C, as a person stops it: the exit status and what it said on stderr."""
        self.process.send_signal(signal.SIGINT)
        _, stderr = self.process.communicate(timeout=30)
        return self.process.returncode, stderr


@pytest.fixture(scope="module")
def served(solver_cache: Path) -> Iterator[Served]:
    """`hog gui` for a whole module of tests, sharing the session's solver cache."""
    server = Served(cache=solver_cache)
    yield server
    status, stderr = server.stop()
    assert status == 130 and "Traceback" not in stderr, stderr
