"""Monte-Carlo experiments, many turns and games at once: their averages and win rates converge on the exact
ones (worked out from the dice's exact distribution and the solver), batches join up seamlessly, and the
perfect player plays its full-state policy."""

import numpy as np
import pytest

from hogengine.dice import outcomes
from hogengine.rules import RULE_SETS, RuleSet, get_rules
from hogengine.simulate import BATCH, DICE_COUNTS, average_turn_scores, play_match
from hogengine.solver import exact_winrate, solve
from hogengine.strategies import always_roll, table_from_function

TRIALS = 20_000
# A fixed seed, and 4.5 standard errors: a wrong rule or a biased draw would be off by far more.
SIGMAS = 4.5


def exact_turns(rules: RuleSet, mover: np.ndarray, opponent: np.ndarray) -> dict[int, tuple[float, float]]:
    """Per number of dice, the exact mean and standard deviation of a turn's points from one of these
    positions drawn at random (each equally likely), from the dice's exact distribution."""
    start = rules.start_position(mover, opponent)
    moments = {}
    for count in DICE_COUNTS:
        choice = np.full(len(mover), count)
        _, sides = rules.dice(start, choice)
        first = np.zeros(len(mover))
        second = np.zeros(len(mover))
        for side in (4, 6):
            dice = outcomes(rules, count, side)
            rolled_here = np.asarray(sides) == side
            for pig_out, rolled, probability in zip(dice.pig_out, dice.rolled, dice.prob, strict=True):
                points = np.asarray(rules.step(start, choice, pig_out, rolled, 100).points, dtype=float)
                first += np.where(rolled_here, probability * points, 0.0)
                second += np.where(rolled_here, probability * points**2, 0.0)
        mean = float(first.mean())
        moments[count] = (mean, float(np.sqrt(second.mean() - mean**2)))
    return moments


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
@pytest.mark.parametrize("scores", [(17, 62), None], ids=["fixed scores", "random positions"])
def test_turn_averages_are_the_exact_means(rules: RuleSet, scores: tuple[int, int] | None) -> None:
    """From fixed scores, or from every position equally likely as `hog simulate turns` draws them (so Hog
    Wild and Hogtimus count as often as they occur on the board)."""
    found = average_turn_scores(rules, TRIALS, np.random.default_rng(5), scores=scores)
    grid = [np.array([score]) for score in scores] if scores else [a.ravel() for a in np.indices((100, 100))]
    for count, (mean, deviation) in exact_turns(rules, *grid).items():
        assert abs(found[count] - mean) <= SIGMAS * deviation / np.sqrt(TRIALS) + 1e-12, count


def test_free_bacon_from_fixed_scores_is_exact_and_the_progress_hears_every_turn() -> None:
    heard: list[int] = []
    found = average_turn_scores(
        get_rules("swine-align"), BATCH + 1, np.random.default_rng(), scores=(0, 42), tick=heard.append
    )
    assert found[0] == 12.0  # 3 + the 42nd digit of pi after the point (9): no dice, nothing random
    assert heard == [BATCH, 1] * len(DICE_COUNTS)


def test_a_match_alternates_the_first_mover_across_batches() -> None:
    """To a goal of 1, ten dice always reach it (a Pig Out scores 1, else at least 10): the first mover
    wins every game, so A wins exactly the even-numbered ones, however the games are batched."""
    rules = get_rules("swine-align")
    ten = table_from_function(always_roll(10), rules)
    heard: list[int] = []
    result = play_match(ten, ten, rules, BATCH + 3, np.random.default_rng(), goal=1, tick=heard.append)
    assert (result.games, result.wins) == (BATCH + 3, BATCH // 2 + 2)
    assert heard == [BATCH, 3]


def test_the_perfect_players_games_win_its_exact_rate() -> None:
    """Under pork-chop the perfect player sees who spent the Pork Chop; its full-state policy plays."""
    rules = get_rules("pork-chop")
    perfect = solve(rules).policy
    four = table_from_function(always_roll(4), rules)
    exact = exact_winrate(rules, perfect, four).average
    result = play_match(perfect, four, rules, TRIALS, np.random.default_rng(7))
    assert abs(result.win_rate - exact) < SIGMAS * result.standard_error
