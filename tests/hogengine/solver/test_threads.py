"""The solver's threads (the model's build, the sweep's blocks) follow the cores a process may use, and
change no figure."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hogengine.rules import get_rules
from hogengine.solver import threads, winrate_matrix
from hogengine.solver.cache import MODEL_ARRAYS
from hogengine.solver.model import build

ONE_CORE_ROUND_ROBIN = """
import json, os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
import numpy as np
from hogengine.solver import threads, winrate_matrix
tables = list(np.load(sys.argv[1]))
print(json.dumps({"threads": threads.THREADS, "first": winrate_matrix("swine-align", tables).first.tolist()}))
"""


def test_a_process_held_to_one_core_sweeps_alone_to_the_same_figures(tmp_path: Path) -> None:
    """`taskset -c 0 hog ...` (or a one-core cpuset) sweeps on one thread, not two competing for that core,
    and a round robin of several blocks (swept two at a time where two cores are free) gives the same
    rates on one."""
    rules = get_rules("swine-align")
    rng = np.random.default_rng(7)
    tables = rng.choice(np.array(rules.choices), size=(20, 100, 100)).astype(np.int8)
    np.save(tmp_path / "tables.npy", tables)
    child = subprocess.run(
        [sys.executable, "-c", ONE_CORE_ROUND_ROBIN, str(tmp_path / "tables.npy")],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(child.stdout)
    assert found["threads"] == 1
    np.testing.assert_allclose(found["first"], winrate_matrix(rules, list(tables)).first, rtol=0, atol=1e-12)


@pytest.mark.parametrize("rules", ["pig-fest", "pork-chop"])
def test_a_model_built_on_two_threads_is_the_one_built_on_one(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads step parts of rows at once and lay them in place, the table of targets growing under one of
    them while the other reads it (pig-fest's turns pass 200): every array is the same, to the bit, and
    in the same order (pork-chop's sublevels renumber the states afterwards)."""
    built = {}
    for count in (1, 2):
        monkeypatch.setattr(threads, "THREADS", count)
        built[count] = build(get_rules(rules), 60)
    for name in MODEL_ARRAYS:
        one, two = getattr(built[1], name), getattr(built[2], name)
        assert one.dtype == two.dtype and np.array_equal(one, two), name


@pytest.mark.parametrize(
    ("told", "limit"), [("1", 1), ("2", 2), ("7", 7), ("0", None), ("-1", None), ("two", None)]
)
def test_hog_threads_tells_the_solver_to_use_fewer_threads(told: str, limit: int | None) -> None:
    """A process sharing the machine (a contest's final beside the bot's games) is told how many threads to
    use; a value that is no whole number of at least 1 is ignored: the cores decide, as without it."""
    child = subprocess.run(
        [sys.executable, "-c", "from hogengine.solver import threads; print(threads.THREADS)"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, threads.THREADS_VARIABLE: told},
    )
    cores = min(2, len(os.sched_getaffinity(0)))
    assert int(child.stdout) == (cores if limit is None else min(cores, limit))
