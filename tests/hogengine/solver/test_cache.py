"""Solutions kept on disk are read back without solving or building a model, and damaged ones are redone."""

from pathlib import Path

import numpy as np
import pytest

from hogengine.solver import optimal, solve
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
