"""What the page tests share: a game exported by the bot's own `/hog export` (its services on a real SQLite
file, the house bot at its perfect level), and `hog gui` running as a real process."""

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.services import MatchStatus, Services
from hogengine.game import State, legal_choices
from tests.helpers import ALICE, CHANNEL, GUILD, FakeClock, Served, counted_seeds

EXPORTED_RULES = "pork-chop"  # Pork Chop's hidden flag and four-sided dice make the richest record


def scripted_choice(state: State) -> int:
    """The choices the game tests play: player 0 opens with the rule set's lowest choice (-1, Pork Chop
    or Ham Hijinks where there is one), then rolls 5; player 1 (a friend at the screen) rolls 3."""
    if state.turn == 0:
        return state.ruleset.choices[0]
    return 5 if state.mover == 0 else 3


async def _export(folder: Path, solver_cache: Path) -> dict[str, Any]:
    """Alice plays Pork Chop first, then five dice a turn, against the perfect house bot; the export."""
    settings = Settings(database_path=folder / "hog.sqlite3", solver_cache_path=solver_cache, _env_file=None)
    services = await Services.open(settings.services, FakeClock(), counted_seeds())
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
    """A finished game's `/hog export`: its rolls, its revealed seed and the commitment (made in a thread of
    its own: the browser tests' Playwright keeps an event loop running in theirs)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _export(tmp_path_factory.mktemp("export"), solver_cache)).result()


@pytest.fixture(scope="session")
def export_file(tmp_path_factory: pytest.TempPathFactory, exported: dict[str, Any]) -> Path:
    """The export as the bot attaches it: `hog-match-N.json`, indented."""
    path = tmp_path_factory.mktemp("records") / "hog-match-1.json"
    path.write_text(json.dumps(exported, indent=2), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def served(solver_cache: Path) -> Iterator[Served]:
    """`hog gui` for a whole module of tests, sharing the session's solver cache."""
    server = Served(cache=solver_cache)
    yield server
    status, stderr = server.stop()
    assert status == 130 and "Traceback" not in stderr, stderr
