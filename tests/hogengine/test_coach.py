"""The coach grades a choice by the winning chance it gave away against perfect play, exactly as the solver
values it (lichess's thresholds: an inaccuracy from 5 points, a mistake from 10, a blunder from 15), says
nothing of a smaller loss, and never speaks of a choice before the other side has moved since."""

from pathlib import Path
from random import Random

import pytest

from hogengine.analysis import Grade, advice, answered, coaching, judge, player_summary, summary
from hogengine.game import TurnResult, choice_label
from hogengine.solver import Solution, solve
from tests.hogengine.conftest import random_game

RULES = ["swine-align", "pork-chop", "pig-fest", "piggy-back"]


@pytest.fixture(scope="module", params=RULES)
def solved(request: pytest.FixtureRequest, hog_cache: Path) -> Solution:
    return solve(request.param, 100, hog_cache)


def expected_grade(cost: float) -> str | None:
    points = 100 * cost
    return "blunder" if points >= 15 else "mistake" if points >= 10 else "inaccuracy" if points >= 5 else None


def test_grades_and_lines_are_the_solvers_exact_costs(solved: Solution) -> None:
    rules = solved.rules.id
    graded = set()
    for seed in range(6):
        for result in random_game(rules, Random(seed)):
            values = solved.choice_values(result.before)
            best = max(values.values())
            cost = best - values[result.choice]
            move = judge(solved, result)
            assert move.cost == pytest.approx(cost, abs=1e-12) and move.best_value == best
            assert move.grade == expected_grade(move.cost)
            line = advice(move, result.before)
            if move.grade is None:
                assert line is None
                continue
            graded.add(move.grade)
            played, better = (
                choice_label(result.before, result.choice),
                choice_label(result.before, move.best),
            )
            assert line is not None and line.startswith(f"Turn {result.before.turn + 1}: {played} was ")
            assert f" {move.grade} against perfect play ({100 * values[result.choice]:.1f}% to win); " in line
            assert line.endswith(f"{better} had {100 * best:.1f}%.")
    assert graded == set(Grade)  # random play makes every grade


def test_the_coach_never_speaks_before_the_other_side_has_moved(solved: Solution) -> None:
    played = random_game(solved.rules.id, Random(7))
    for length in range(len(played)):
        so_far = played[:length]
        for seat in (0, 1):
            spoken = {said.turn for said in coaching(solved, so_far, [seat])}
            for turn in spoken:
                assert so_far[turn].player == seat
                assert any(later.player != seat for later in so_far[turn + 1 :])  # answered since
            graded = {t for t, r in enumerate(so_far) if r.player == seat and judge(solved, r).grade}
            answered_since = {t for t in graded if any(later.player != seat for later in so_far[t + 1 :])}
            assert spoken == answered_since
    spoken = {said.turn for said in coaching(solved, played, [0, 1])}  # the end: everything is said
    assert spoken == {t for t, r in enumerate(played) if judge(solved, r).grade}
    ended = coaching(solved, played[:5], [0, 1], ended=True)  # a forfeit: the coach says all it has
    assert answered(played[:5], 0, ended=True) == 5
    assert {said.turn for said in ended} == {t for t, r in enumerate(played[:5]) if judge(solved, r).grade}


def test_the_summary_counts_each_grade(solved: Solution) -> None:
    played: list[TurnResult] = random_game(solved.rules.id, Random(3))
    moves = [judge(solved, result) for result in played]
    mine = [move for move in moves if move.player == 0]
    line = summary(player_summary(0, moves), moves)
    accuracy = 100 * (1 - sum(move.cost for move in mine) / len(mine))
    assert line.startswith(f"Your game against perfect play: accuracy {accuracy:.1f}%; ")
    for grade in Grade:
        count = sum(move.grade is grade for move in mine)
        if count:
            assert f"{count} {grade}{'' if count == 1 else 's'}" in line
