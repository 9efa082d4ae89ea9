"""The best score-only tables shipped with the package: current with the code they came from (else `make
tables` makes them anew), the very tables the solver makes, read instead of made, and passed over once
their code has changed."""

import numpy as np
import pytest

from hogengine.game import MAX_GOAL
from hogengine.rules import RULE_SETS, RuleSet, get_rules
from hogengine.solver import best_table, cache, contest_table
from hogengine.strategies import legal_cells


@pytest.mark.parametrize("ruleset", RULE_SETS, ids=lambda ruleset: ruleset.id)
def test_every_rule_set_ships_its_table_made_by_the_code_as_it_is(ruleset: RuleSet) -> None:
    with np.load(contest_table.shipped_path(ruleset)) as stored:
        source, table = str(stored["source"]), stored["table"]
    assert source == cache.source_fingerprint(ruleset, MAX_GOAL), (
        f"The rules or solver code changed since {contest_table.shipped_path(ruleset).name} was made:"
        " run `make tables`."
    )
    assert table.shape == (100, 100) and table.dtype == np.int8 and legal_cells(table, ruleset).all()


@pytest.mark.parametrize(
    "rules", ["swine-align", "piggy-back", "pork-chop"]
)  # seconds each; pig-fest half a minute
def test_a_shipped_table_is_the_one_the_solver_makes(rules: str) -> None:
    ruleset = get_rules(rules)
    shipped = contest_table.shipped(ruleset, MAX_GOAL)
    assert shipped is not None
    np.testing.assert_array_equal(shipped, contest_table._improved(ruleset, MAX_GOAL, None))


def test_the_shipped_table_is_read_not_made(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: object) -> None:
        raise AssertionError("made a table that ships with the package")

    monkeypatch.setattr(contest_table, "_MADE", {})
    monkeypatch.setattr(contest_table, "_improved", never)
    for ruleset in RULE_SETS:
        assert np.array_equal(best_table(ruleset), contest_table.shipped(ruleset, MAX_GOAL))


def test_a_table_whose_code_has_changed_is_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = get_rules("swine-align")
    shipped = contest_table.shipped(ruleset, MAX_GOAL)
    monkeypatch.setattr(contest_table, "_MADE", {})
    monkeypatch.setattr(cache, "source_fingerprint", lambda *_: "code of another day")
    assert contest_table.shipped(ruleset, MAX_GOAL) is None
    made: list[RuleSet] = []
    improved = contest_table._improved

    def counted(rules: RuleSet, goal: int, progress: object) -> object:
        made.append(rules)
        return improved(rules, goal, None)

    monkeypatch.setattr(contest_table, "_improved", counted)
    assert np.array_equal(best_table(ruleset), shipped) and made == [ruleset]


def test_making_a_table_reports_its_progress_from_nothing_to_all_of_it() -> None:
    """The bar of a best table moves with the work and ends full, even when the rounds stop early."""
    reports: list[tuple[int, int]] = []
    contest_table._improved(get_rules("pork-chop"), 30, lambda done, total: reports.append((done, total)))
    (total,) = {total for _, total in reports}
    done = [done for done, _ in reports]
    assert done[0] == 0 and done[-1] == total
    assert done == sorted(done)
    assert len(set(done)) > 5  # it moves along the way, not only at the end
