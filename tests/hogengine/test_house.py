"""The house's levels, written once for every adapter: easy always rolls four, course plays the course's
table by the mover's scores, perfect plays the solver's best choice in the full state."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hogengine.game import State, legal_choices, new_game
from hogengine.house import EASY_ROLLS, HouseLevel, house_choice
from hogengine.rules import RULE_SETS
from hogengine.solver import solve
from hogengine.strategies import course_table

SWINE = RULE_SETS[0].id
SCORES = st.tuples(st.integers(0, 99), st.integers(0, 99))


@given(SCORES, st.integers(0, 1))
def test_easy_always_rolls_four(scores: tuple[int, int], mover: int) -> None:
    assert house_choice(HouseLevel.EASY, new_game(SWINE, 100, scores, mover)) == EASY_ROLLS == 4


@given(SCORES, st.integers(0, 1))
def test_course_plays_the_course_table_from_the_movers_side(scores: tuple[int, int], mover: int) -> None:
    state = new_game(SWINE, 100, scores, mover)
    table = course_table(SWINE, 100)
    assert house_choice(HouseLevel.COURSE, state) == table[scores[mover], scores[1 - mover]]


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


def test_every_level_says_how_it_plays() -> None:
    assert [level.value for level in HouseLevel] == ["easy", "course", "perfect"]
    assert HouseLevel.EASY.description == "always rolls 4 dice"
    assert all(level.description for level in HouseLevel)
