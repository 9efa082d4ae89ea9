"""The services' solver: each rule set solved once, however many ask at the same time, one solve at a
time, the few used last kept in memory, and every one kept on disk beside the database so a restarted bot
reads it instead of solving again."""

import asyncio
import gc
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import Services
from bot.services.solver import KEPT, Solver
from hogengine.solver import Solution, optimal, solve
from tests.hang import HANG
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

    monkeypatch.setattr("bot.services.solver.load_or_solve", slow_solve)
    solver = Solver(tmp_path)

    asking = [asyncio.create_task(solver.solution("fa20", GOAL)) for _ in range(3)]
    await asyncio.sleep(0.05)  # all three are waiting for the first solve
    release.set()
    found = await asyncio.gather(*asking)

    assert calls == [("swine-align", GOAL, tmp_path)]
    assert found[0] is found[1] is found[2]
    assert await solver.solution("swine-align", GOAL) is found[0]


async def test_the_course_table_is_made_once_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first course moves of a rule set, asked for together, wait for one making of its table on a
    worker thread while the event loop goes on."""
    threads: list[str] = []
    release = threading.Event()

    def slow_table(rules: str) -> None:
        threads.append(threading.current_thread().name)
        release.wait(5)

    monkeypatch.setattr("bot.services.solver.course_table", slow_table)
    solver = Solver()

    asking = [asyncio.create_task(solver.course(rules)) for rules in ("sp17", "pork-chop", "pork-chop")]
    await asyncio.sleep(0.05)  # the loop runs while the table is being made
    release.set()
    await asyncio.gather(*asking)
    await solver.course("pork-chop")

    assert len(threads) == 1 and threads[0] != threading.main_thread().name


async def test_a_solution_is_kept_beside_the_database_for_the_next_start(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "data" / "hog.sqlite3", _env_file=None)
    services = await Services.open(settings.services)
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
        timeout=HANG,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == solve("pork-chop", GOAL).first_mover
    assert hint.win_probability == solve("pork-chop", GOAL).win_probability(match.state)


async def test_only_the_solutions_used_last_are_kept_in_memory(tmp_path: Path) -> None:
    """A long-running server asked for many goals holds KEPT solutions, not one per goal ever asked."""
    solver = Solver(tmp_path)
    used = await solver.solution("pork-chop", GOAL)
    left = weakref.ref(await solver.solution("pork-chop", GOAL + 1))
    for goal in range(GOAL + 2, GOAL + 1 + KEPT):
        await solver.solution("pork-chop", goal)
        assert await solver.solution("pork-chop", GOAL) is used  # used again: kept, not solved again
    gc.collect()
    assert left() is None  # the one left alone longest is gone from memory
    again = await solver.solution("pork-chop", GOAL + 1)  # read back from disk when asked again
    assert again.first_mover == solve("pork-chop", GOAL + 1).first_mover


async def test_different_solves_run_one_at_a_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each solve holds its working memory (over a gigabyte for pig-fest) while it runs: never two at once."""
    running, most = 0, 0
    count = threading.Lock()
    real = optimal._solution

    def watched(*args: object) -> Solution:
        nonlocal running, most
        with count:
            running += 1
            most = max(most, running)
        time.sleep(0.05)  # long enough for any solve allowed alongside to start
        try:
            return real(*args)  # type: ignore[arg-type]
        finally:
            with count:
                running -= 1

    monkeypatch.setattr(optimal, "_solution", watched)
    solver = Solver(tmp_path)
    found = await asyncio.gather(
        *(solver.solution(rules, GOAL) for rules in ("fa20", "sp17", "su15", "sp16"))
    )

    assert most == 1
    assert [solution.rules.id for solution in found] == ["swine-align", "pork-chop", "pig-fest", "piggy-back"]
