"""The solver's transition model and exact figures agree with live play through `resolve` and fair dice."""

import math
from random import Random

import numpy as np
import pytest

from hogengine.course import winner
from hogengine.dice import fair_dice
from hogengine.game import dice_for, new_game, resolve
from hogengine.rules import RULE_SETS, RuleSet
from hogengine.solver import exact_winrate, solve
from hogengine.solver.model import model
from hogengine.strategies import always_roll, function_from_table, table_from_function

GAMES = 1500
GOAL = 60


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_every_live_turn_is_a_transition_of_the_model(rules: RuleSet) -> None:
    built = model(rules, GOAL)
    rng = Random(rules.id)
    for _ in range(400):
        scores = (rng.randrange(GOAL), rng.randrange(GOAL))
        # Every hidden part the rule set declares, anywhere in its first few values.
        state = new_game(rules.id, GOAL, scores, rng.randrange(2)).with_hidden(
            {
                part.name: [rng.choice(part.values[:4]) for _ in range(2)]
                if part.per_seat
                else rng.choice(part.values[:4])
                for part in rules.hidden_parts
            }
        )
        choice = rng.choice(rules.choices)
        count, sides = dice_for(state, choice)
        roll = fair_dice(sides, rng)
        after = resolve(state, choice, [roll() for _ in range(count)]).after
        targets, probability = built.transitions(
            built.state_of(state.position()), int(built.choice_column(choice))
        )
        assert len(targets) == len(probability) and probability.sum() == pytest.approx(1.0, abs=1e-12)
        if after.over:
            assert (built.won if after.winner == state.mover else built.lost) in targets.tolist()
            continue
        again = after.mover == state.mover
        state_after = built.state_of(after.position())
        assert (built.again_target(state_after) if again else state_after) in targets.tolist()


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_a_rows_constant_is_its_chance_to_win_at_once_or_hand_over_the_turn(rules: RuleSet) -> None:
    """The part of a row's value that optimal play adds whole (worked out when first asked, not by the
    build): the probability of its outcomes that win or let the opponent move."""
    built = model(rules, GOAL)
    rng = np.random.default_rng(len(rules.id))
    for state, column in zip(
        rng.integers(built.size, size=300), rng.integers(built.width, size=300), strict=True
    ):
        targets, probability = built.transitions(int(state), int(column))
        expected = probability[(targets < built.size) | (targets == built.won)].sum()
        assert built.constant[state * built.width + column] == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_exact_win_rates_match_monte_carlo_games(rules: RuleSet) -> None:
    """A table that hides nothing from the rules (the projected optimum) against always_roll(5)."""
    table = solve(rules, GOAL).policy[0]
    baseline = table_from_function(always_roll(5), rules)
    exact = exact_winrate(rules, table, baseline, GOAL).average
    a = function_from_table(np.pad(table, (0, 100 - GOAL), mode="edge"))
    b = function_from_table(baseline)
    rng = Random(f"{rules.id} monte carlo")
    # The course's `winner` plays one game at a time through `resolve`; A moves first in the even games.
    won = sum(
        winner(*((a, b) if game % 2 == 0 else (b, a)), rules=rules.id, goal=GOAL, rng=rng) == game % 2
        for game in range(GAMES)
    )
    rate = won / GAMES
    assert abs(rate - exact) < 4 * math.sqrt(rate * (1 - rate) / GAMES)
