"""The services' solver: each rule set solved once, however many ask at the same time, and kept on disk
beside the database so a restarted bot reads it instead of solving again."""

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import Services
from bot.services.solver import Solver
from hogengine.solver import Solution, solve
from tests.helpers import ALICE, CHANNEL

GOAL = 12  # small: solved in a blink


def test_the_cache_is_beside_the_database_unless_a_folder_is_set(tmp_path: Path) -> None:
    beside = Settings(database_path=tmp_path / "data" / "hog.sqlite3", _env_file=None)
    chosen = Settings(
        database_path=tmp_path / "hog.sqlite3", solver_cache_path=tmp_path / "x", _env_file=None
    )

    assert beside.solver_cache_dir == tmp_path / "data" / "solver-cache"
    assert chosen.solver_cache_dir == tmp_path / "x"


async def test_concurrent_first_requests_solve_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[tuple[str, int, Path | None]] = []
    release = threading.Event()

    def slow_solve(rules: str, goal: int, cache_dir: Path | None) -> Solution:
        calls.append((rules, goal, cache_dir))
        release.wait(5)
        return solve(rules, goal)

    monkeypatch.setattr("bot.services.solver.solve", slow_solve)
    solver = Solver(tmp_path)

    asking = [asyncio.create_task(solver.solution("fa20", GOAL)) for _ in range(3)]
    await asyncio.sleep(0.05)  # all three are waiting for the first solve
    release.set()
    found = await asyncio.gather(*asking)

    assert calls == [("swine-align", GOAL, tmp_path)]
    assert found[0] is found[1] is found[2]
    assert await solver.solution("swine-align", GOAL) is found[0]


async def test_a_solution_is_kept_beside_the_database_for_the_next_start(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "data" / "hog.sqlite3", _env_file=None)
    services = await Services.open(settings)
    try:
        match = await services.games.vs_bot(CHANNEL, ALICE, "pork-chop", GOAL, "perfect")
        hint = await services.games.hint(match.id, ALICE.id)
    finally:
        await services.close()

    assert list((tmp_path / "data" / "solver-cache").iterdir())
    never_solve = (  # a fresh process that cannot solve: it must read the folder
        "import sys\nfrom hogengine.solver import optimal\n"
        "optimal._solution = lambda *a: sys.exit('solved again')\n"
        f"print(optimal.solve('pork-chop', {GOAL}, sys.argv[1]).first_mover)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", never_solve, str(settings.solver_cache_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == solve("pork-chop", GOAL).first_mover
    assert hint.win_probability == solve("pork-chop", GOAL).win_probability(match.state)
