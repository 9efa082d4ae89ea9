"""Solutions kept on disk are read back without solving or building a model, damaged ones are redone, and
writers sharing the folder never leave a broken file."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hogengine.rules import get_rules
from hogengine.solver import cache, optimal, solve
from hogengine.solver.model import _BUILT


def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget every solution and model this process holds, as a new process would."""
    optimal._solve.cache_clear()
    monkeypatch.setattr("hogengine.solver.model._BUILT", type(_BUILT)())


def test_a_stored_solution_is_read_without_building_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh_process(monkeypatch)
    solved = solve("pig-fest", 9, tmp_path)
    fresh_process(monkeypatch)

    def never(*_: object) -> None:
        raise AssertionError("built a model although the solution was stored")

    monkeypatch.setattr("hogengine.solver.model.build", never)
    stored = solve("pig-fest", 9, tmp_path)
    assert np.array_equal(stored.policy, solved.policy) and stored.first_mover == solved.first_mover
    optimal._solve.cache_clear()


def test_a_damaged_stored_solution_is_solved_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_process(monkeypatch)
    solved = solve("pork-chop", 10, tmp_path)
    (stored,) = tmp_path.iterdir()
    np.savez(stored, values=solved.values, choice_table=solved.choice_table, policy=solved.policy[:, :5])
    fresh_process(monkeypatch)
    again = solve("pork-chop", 10, tmp_path)
    assert np.array_equal(again.policy, solved.policy)
    optimal._solve.cache_clear()


@pytest.mark.parametrize("where", [None, "disk"])
def test_one_caller_cannot_change_the_solution_every_caller_shares(where: str | None, tmp_path: Path) -> None:
    solution = solve("swine-align", 12, None if where is None else tmp_path)
    for array in (solution.values, solution.choice_table, solution.policy):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0, 0] = 0
    assert solve("swine-align", 12, None if where is None else tmp_path) is solution


WRITE_MANY = """
import sys
from pathlib import Path
import numpy as np
from hogengine.rules import get_rules
from hogengine.solver import cache
folder, mark = Path(sys.argv[1]), int(sys.argv[2])
for _ in range(15):
    cache.save(folder, get_rules("pork-chop"), 100, "solution", values=np.full(1_000_000, mark))
"""


def test_processes_sharing_the_folder_never_leave_a_broken_file(tmp_path: Path) -> None:
    """Bot processes sharing one cache volume may store the same solution at once: whatever is read is
    some writer's whole file, and no partial file is left behind."""
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITE_MANY, str(tmp_path), str(mark)]) for mark in range(1, 5)
    ]
    seen: set[int] = set()
    while any(writer.poll() is None for writer in writers):
        stored = cache.load(tmp_path, get_rules("pork-chop"), 100, "solution")
        if stored is not None:
            values = stored["values"]
            assert len(values) == 1_000_000 and len(set(values[[0, -1]].tolist())) == 1
            seen.add(int(values[0]))
    assert [writer.wait() for writer in writers] == [0] * 4
    assert seen <= {1, 2, 3, 4} and [path.suffix for path in tmp_path.iterdir()] == [".npz"]


def test_a_result_stored_by_another_compiled_sweep_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Best tables are made through the compiled sweep: another build of it alone (no Python file changed)
    keys stored results anew, so none made by the old sweep is read back. The key is the built module, not
    its C source: a source edited but not built again must not pass for the new sweep."""
    compiled = tmp_path / cache.COMPILED.name
    shutil.copyfile(cache.COMPILED, compiled)
    monkeypatch.setattr(cache, "COMPILED", compiled)
    rules = get_rules("pork-chop")
    before = cache.fingerprint.__wrapped__(rules, 100)
    compiled.write_bytes(compiled.read_bytes() + b"another build")
    assert cache.fingerprint.__wrapped__(rules, 100) != before


def test_a_stored_model_is_read_instead_of_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the command line needs at every call (seconds to build for pig-fest) is read back whole."""
    fresh_process(monkeypatch)
    ruleset = get_rules("pig-fest")
    built = cache.kept_model(ruleset, 12, tmp_path)
    fresh_process(monkeypatch)

    def never(*_: object) -> None:
        raise AssertionError("built the model again although it was stored")

    monkeypatch.setattr(cache, "build", never)
    read = cache.kept_model(ruleset, 12, tmp_path)
    assert read is not built
    for name in (*cache.MODEL_ARRAYS, "probability", "kind_first"):
        assert np.array_equal(getattr(read, name), getattr(built, name)), name
    assert read.dice == built.dice and read.start == built.start


def test_a_damaged_stored_model_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_process(monkeypatch)
    ruleset = get_rules("pork-chop")
    built = cache.kept_model(ruleset, 10, tmp_path)
    (stored,) = tmp_path.iterdir()
    np.save(stored / "target.npy", built.target[:-1])  # cut short: rows point past the end
    fresh_process(monkeypatch)
    again = cache.kept_model(ruleset, 10, tmp_path)
    assert np.array_equal(again.target, built.target)
