"""The vectorised solver agrees with the plain recursive reference on small goals, for every rule set."""

import numpy as np
import pytest

from hogengine.rules import RULE_SETS, RuleSet
from hogengine.rules.pig_fest import PigFest
from hogengine.solver import exact_winrate, exact_winrates, solve, winrate_matrix
from hogengine.solver.model import model
from hogengine.solver.reference import optimal_win, table_winrate

# Small goals keep the scalar reference quick while every rule still fires (swaps, chops, streaks, gifts).
GOALS = {"swine-align": 21, "pork-chop": 13, "pig-fest": 11, "piggy-back": 17}
TOLERANCE = 1e-12


class FewDicePigFest(PigFest):
    """Pig Fest with at most four dice: its 32 hidden layers at a price the scalar reference can pay."""

    choices = range(-1, 5)


# Optimal play asks the reference for every choice in every state; pig-fest's gets fewer choices.
OPTIMAL = [rules for rules in RULE_SETS if rules.id != "pig-fest"] + [FewDicePigFest()]
OPTIMAL_GOALS = {**GOALS, "pork-chop": 12, "pig-fest": 8}


def random_tables(rules: RuleSet, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.choice(np.array(rules.choices), size=(100, 100)).astype(np.int8) for _ in range(count)]


@pytest.mark.parametrize("rules", OPTIMAL, ids=lambda rules: rules.id)
def test_optimal_values_match_the_reference(rules: RuleSet) -> None:
    goal = OPTIMAL_GOALS[rules.id]
    reference = optimal_win(rules, goal)
    solution = solve(rules, goal)
    built = model(rules, goal)
    rng = np.random.default_rng(7)
    states = [built.start, *rng.choice(built.size, size=40, replace=False)]
    for state in states:
        position = rules.at_layer(
            int(built.mover[state]), int(built.opponent[state]), int(built.layer[state])
        )
        cell = (int(built.layer[state]), int(built.mover[state]), int(built.opponent[state]))
        assert solution.values[cell] == pytest.approx(reference(position), abs=TOLERANCE)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_table_win_rates_match_the_reference(rules: RuleSet) -> None:
    goal = GOALS[rules.id]
    a, b, c = random_tables(rules, 3, seed=len(rules.id))
    expected = [table_winrate(rules, x, y, goal) for x, y in ((a, b), (b, c), (c, a))]
    batched = exact_winrates(rules, [(a, b), (b, c), (c, a)], goal)
    for want, got in zip(expected, batched, strict=True):
        assert got.first == pytest.approx(want.first, abs=TOLERANCE)
        assert got.second == pytest.approx(want.second, abs=TOLERANCE)
    alone = exact_winrate(rules, a, b, goal)
    assert alone.average == pytest.approx(expected[0].average, abs=TOLERANCE)


# Smaller goals still, for the many pairs of a test of every block width.
WIDTH_GOALS = {"swine-align": 15, "pork-chop": 10, "pig-fest": 9, "piggy-back": 13}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_blocks_of_every_width_match_the_reference(rules: RuleSet) -> None:
    """The compiled sweep sums a mover's row against 1 to 8 opponents at once (a version per width): a
    group of n tables against itself (n = 1..8), a group of 9 (two groups, each against the other) and
    one table against eight others give the reference's rates for every pair they share."""
    goal = WIDTH_GOALS[rules.id]
    tables = random_tables(rules, 9, seed=11 * len(rules.id))
    want = [table_winrate(rules, tables[0], other, goal) for other in tables[1:]]
    for count in range(2, 10):
        first = winrate_matrix(rules, tables[:count], goal).first
        for other in range(1, count):
            assert first[0, other] == pytest.approx(want[other - 1].first, abs=TOLERANCE)
            assert 1 - first[other, 0] == pytest.approx(want[other - 1].second, abs=TOLERANCE)
    assert winrate_matrix(rules, tables[:1], goal).first.shape == (1, 1)
    against = exact_winrates(rules, [(tables[0], other) for other in tables[1:]], goal)
    for got, expected in zip(against, want, strict=True):
        assert (got.first, got.second) == pytest.approx((expected.first, expected.second), abs=TOLERANCE)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_full_state_policy_against_a_table_matches_the_reference(rules: RuleSet) -> None:
    goal = GOALS[rules.id]
    policy = solve(rules, goal).policy
    (table,) = random_tables(rules, 1, seed=99)
    want = table_winrate(rules, policy, table, goal)
    got = exact_winrate(rules, policy, table, goal)
    assert (got.first, got.second) == pytest.approx((want.first, want.second), abs=TOLERANCE)


def test_round_robin_blocks_agree_with_one_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cutting a round robin into many small blocks (memory budget) changes no figure."""
    rules = RULE_SETS[1]
    tables = random_tables(rules, 7, seed=5)
    whole = winrate_matrix(rules, tables, 14).first
    monkeypatch.setattr("hogengine.solver.winrate.BLOCK_BYTES", 3 * model(rules, 14).size * 8)
    cut = winrate_matrix(rules, tables, 14).first
    np.testing.assert_allclose(cut, whole, atol=TOLERANCE)
    pairs = [(tables[i], tables[j]) for i in range(7) for j in range(7) if (i + j) % 3]
    rates = exact_winrates(rules, pairs, 14)
    expected = [whole[i, j] for i in range(7) for j in range(7) if (i + j) % 3]
    np.testing.assert_allclose([rate.first for rate in rates], expected, atol=TOLERANCE)


def test_start_position_matches_layer_zero() -> None:
    rules = RULE_SETS[2]
    assert model(rules, 11).state_of(rules.start_position(0, 0)) == model(rules, 11).start
