"""The house's levels, written once for every adapter: easy always rolls four, course plays the course's
own extra-turn strategy by the mover's scores, perfect plays the solver's best choice in the full state."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hogengine.course as hog
from hogengine.game import State, legal_choices, new_game
from hogengine.house import EASY_ROLLS, HOUSE_LEVELS, HouseLevel, course_table, house_choice
from hogengine.rules import RULE_SETS
from hogengine.solver import solve

SWINE = RULE_SETS[0].id
SCORES = st.tuples(st.integers(0, 99), st.integers(0, 99))


@given(SCORES, st.integers(0, 1))
def test_easy_always_rolls_four(scores: tuple[int, int], mover: int) -> None:
    assert house_choice(HouseLevel.EASY, new_game(SWINE, 100, scores, mover)) == EASY_ROLLS == 4


@pytest.mark.parametrize(("rules", "zero_against_six"), [("swine-align", 0), ("pork-chop", 6)])
def test_the_course_table_plays_the_courses_extra_turn_strategy(rules: str, zero_against_six: int) -> None:
    """Seed 004, Problem 11, at a cell test_course.py pins: 0 + 5 against 6 earns Pig Pass's extra turn
    under the course's rules, so 0 dice; pork-chop has no extra turns, so bacon_strategy's 6. Only 0 or 6."""
    table = course_table(rules)
    assert table[0, 6] == zero_against_six
    assert set(np.unique(table)) == {0, 6}


@given(SCORES, st.integers(0, 1), st.sampled_from([rules.id for rules in RULE_SETS]), st.integers(1, 100))
def test_course_plays_the_courses_strategy_from_the_movers_side(
    scores: tuple[int, int], mover: int, rules: str, goal: int
) -> None:
    me, you = scores[mover] % goal, scores[1 - mover] % goal
    state = new_game(rules, goal, (me, you) if mover == 0 else (you, me), mover)
    assert house_choice(HouseLevel.COURSE, state) == hog.extra_turn_strategy(me, you, rules=rules)


def test_where_free_bacon_wins_the_course_rolls_it_only_if_the_course_would() -> None:
    """The course's strategy does not look at the goal: at 95 against 2, Free Bacon (3 + pi's 2nd digit, 4)
    would win, but it gives under 8 points and no extra turn, so the course rolls 6."""
    assert hog.free_bacon(2) == 7 and not hog.extra_turn(102, 2)
    assert house_choice(HouseLevel.COURSE, new_game(SWINE, 100, (95, 2))) == 6


def test_course_rolls_zero_where_free_bacon_gives_an_extra_turn() -> None:
    # Free Bacon at 0 against 6 scores 3 + pi's 6th digit (2) = 5, ending 1 behind: Pig Pass.
    assert house_choice(HouseLevel.COURSE, new_game(SWINE, 100, (0, 6))) == 0
    assert house_choice(HouseLevel.COURSE, new_game(SWINE, 100, (0, 0))) == 6


@pytest.mark.parametrize("rules", [rules.id for rules in RULE_SETS if rules.id != "pig-fest"])
def test_perfect_plays_the_solvers_best_choice_hidden_parts_included(rules: str) -> None:
    solution = solve(rules, 100)
    state = new_game(rules, 100, (37, 81))
    hidden = [part.name for part in state.ruleset.hidden_parts]
    states: list[State] = [state, *(state.with_hidden({name: (1, 0)}) for name in hidden)]
    for each in states:
        choice = house_choice(HouseLevel.PERFECT, each, solution)
        assert choice == solution.best_choice(each) and choice in legal_choices(each)


def test_perfect_needs_the_solution() -> None:
    with pytest.raises(ValueError, match="solution"):
        house_choice(HouseLevel.PERFECT, new_game(SWINE))


def test_the_strategy_level_plays_the_stored_table_from_the_movers_side() -> None:
    table = np.fromfunction(lambda me, you: (me + 2 * you) % 11, (100, 100), dtype=int).astype(np.int8)
    assert house_choice(HouseLevel.STRATEGY, new_game(SWINE, 100, (7, 30), 1), table=table) == (30 + 14) % 11
    assert house_choice(HouseLevel.STRATEGY, new_game(SWINE, 100, (7, 30), 0), table=table) == (7 + 60) % 11
    with pytest.raises(ValueError, match="table"):
        house_choice(HouseLevel.STRATEGY, new_game(SWINE))


def test_every_level_says_how_it_plays() -> None:
    assert [level.value for level in HouseLevel] == ["easy", "course", "perfect", "strategy"]
    assert [level.value for level in HOUSE_LEVELS] == ["easy", "course", "perfect"]  # what a person picks
    assert HouseLevel.EASY.description == "always rolls 4 dice"
    assert all(level.description for level in HouseLevel)
