"""Many live games at once (the sampled contest's games): they follow the rules, so their win rates
converge on the exact ones, whoever sits where; bad tables are refused."""

import numpy as np
import pytest

from hogengine.errors import BadStrategy
from hogengine.rules import RULE_SETS, get_rules
from hogengine.solver import exact_winrate
from hogengine.solver.games import play_games

GAMES = 20_000


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_win_rates_of_many_games_are_the_exact_ones(rules):
    """Random tables use every choice (Pork Chop and Ham Hijinks too) in every hidden layer; A sits first
    in half the games. A fixed seed, and 4.5 standard errors: a wrong rule would be off by far more."""
    rng = np.random.default_rng(61)
    tables = rng.choice(np.array(rules.choices), size=(2, 100, 100)).astype(np.int8)
    seats = np.array([(0, 1), (1, 0)] * (GAMES // 2))
    winner = play_games(rules, tables, seats, 100, rng)
    a_won = winner == np.where(seats[:, 0] == 0, 0, 1)
    exact = exact_winrate(rules, tables[0], tables[1])
    for won, rate in ((a_won[0::2], exact.first), (a_won[1::2], exact.second)):
        error = np.sqrt(rate * (1 - rate) / len(won))
        assert abs(won.mean() - rate) < 4.5 * error


def test_a_short_goal_ends_every_game_and_progress_counts_them():
    rules = get_rules("pig-fest")
    tables = np.full((1, 100, 100), 10, dtype=np.int8)
    ended = []
    winner = play_games(
        rules, tables, np.zeros((50, 2), dtype=np.int64), 1, np.random.default_rng(1), progress=ended.append
    )
    # Ten dice either Pig Out (1 point) or score at least 20: the first mover always reaches a goal of 1.
    assert (winner == 0).all()
    assert ended == [50]


@pytest.mark.parametrize(
    "tables",
    [[np.full((100, 100), 11, dtype=np.int8)], [np.full((99, 100), 4, dtype=np.int8)]],
    ids=["illegal choice", "wrong shape"],
)
def test_tables_that_cannot_play_are_refused(tables):
    with pytest.raises(BadStrategy, match="100x100 table of legal choices under swine-align"):
        play_games(
            get_rules("swine-align"), tables, np.zeros((1, 2), dtype=np.int64), 100, np.random.default_rng()
        )
