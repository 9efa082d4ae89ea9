"""The CS 61A project API beyond the course's own cases: plain Python values, the other rule sets, any dice
and goal, the course GUI's rule switches, and games equal to the engine's."""

import io
import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hogengine.course as hog
from hogengine.commentary import course_commentary
from hogengine.course import (
    always_roll,
    announce_highest,
    announce_lead_changes,
    average_win_rate,
    bacon_strategy,
    both,
    extra_turn,
    extra_turn_strategy,
    final_strategy,
    free_bacon,
    make_averaged,
    make_test_dice,
    max_scoring_num_rolls,
    pig_pass,
    play,
    roll_dice,
    say_scores,
    silence,
    swine_align,
    take_turn,
    winner,
)
from hogengine.course.dice import make_fair_dice, six_sided
from hogengine.errors import BadState, IllegalChoice
from hogengine.game import dice_for, new_game, resolve
from hogengine.rules import RULE_SETS
from hogengine.solver import best_table

RULES = [rules.id for rules in RULE_SETS]
scores = st.integers(0, 99)


@settings(max_examples=200, deadline=None)
@given(score=scores, opponent=scores, rules=st.sampled_from(RULES))
def test_every_course_function_answers_in_plain_python_values(score, opponent, rules):
    for flag in (swine_align(score, opponent), pig_pass(score, opponent), extra_turn(score, opponent)):
        assert type(flag) is bool
    for number in (
        free_bacon(opponent, rules=rules),
        take_turn(0, opponent),
        take_turn(3, opponent, make_test_dice(score + 1)),
        roll_dice(4, make_test_dice(1, score + 1), rules=rules),
        bacon_strategy(score, opponent, rules=rules),
        extra_turn_strategy(score, opponent, rules=rules),
        final_strategy(score, opponent),
        winner(always_roll(5), always_roll(4), rules=rules, rng=Random(score)),
    ):
        assert type(number) is int
    final = play(always_roll(5), always_roll(4), score, opponent, rules=rules, rng=Random(opponent))
    assert [type(value) for value in final] == [int, int]
    assert type(make_averaged(lambda: np.int64(score), 3)()) is float


def test_swine_align_and_pig_pass_read_the_engines_rule_pieces():
    assert extra_turn(30, 45) is True  # the np.True_: gcd 15
    assert swine_align(24, 36) and not swine_align(15, 0)
    assert pig_pass(28, 30) and not pig_pass(30, 28)


def test_the_helpers_take_the_other_rule_sets():
    assert roll_dice(2, make_test_dice(1, 1), rules="pork-chop") == 2  # Pig Out counts the ones
    assert roll_dice(3, make_test_dice(1, 5, 5), rules="piggy-back") == 0
    assert free_bacon(42, rules="pork-chop") == 5  # 1 + the largest digit
    assert free_bacon(42, rules="sp16") == 5
    assert bacon_strategy(0, 48, cutoff=9, rules="pig-fest") == 0  # 1 + 8 = 9
    assert bacon_strategy(0, 42, cutoff=9, num_rolls=3, rules="pig-fest") == 3
    # Only the course's rules have extra turns: elsewhere extra_turn_strategy is bacon_strategy.
    assert extra_turn_strategy(0, 6) == 0  # 0 + 5 against 6: Pig Pass
    assert extra_turn_strategy(0, 6, rules="pork-chop") == bacon_strategy(0, 6, rules="pork-chop") == 6
    # Rolls of 6, 6, 1 over and over: one die averages 13/3 and two 14/3, but Piggy Back's Pig Out scores
    # 0, so there both average 4 and the tie goes to fewer dice.
    assert max_scoring_num_rolls(make_test_dice(6, 6, 1), trials_count=30) == 2
    assert max_scoring_num_rolls(make_test_dice(6, 6, 1), trials_count=30, rules="piggy-back") == 1
    table = best_table("pork-chop")
    assert [final_strategy(s, o, rules="pork-chop") for s, o in [(0, 0), (50, 70)]] == [
        int(table[0, 0]),
        int(table[50, 70]),
    ]


def test_fair_dice_draw_from_the_random_module_as_the_courses_do():
    random.seed(11)
    first = [six_sided() for _ in range(20)]
    random.seed(11)
    assert [six_sided() for _ in range(20)] == first
    assert set(first) <= set(range(1, 7))
    die = make_fair_dice(2)
    assert {die() for _ in range(100)} == {1, 2}
    random.seed(5)
    rolled = roll_dice(3)
    random.seed(5)
    assert rolled == roll_dice(3)


def test_faces_above_the_die_play_as_the_course_plays_them():
    assert roll_dice(2, make_test_dice(7)) == 14
    # 14 a turn: 14-0, then 14-14 and 14-28 give Player 1 extra turns (gcd 14), and 14-42 ends it.
    assert play(always_roll(2), always_roll(2), dice=make_test_dice(7), goal=30) == (14, 42)
    # Pork Chop's Hog Wild asks for four-sided dice at 0-0; the 9 counts all the same. 18-9 swaps.
    assert play(always_roll(1), always_roll(1), dice=make_test_dice(9), goal=20, rules="pork-chop") == (9, 27)


def test_play_takes_any_goal_and_returns_at_once_from_a_finished_start():
    asked = []

    def strategy(score, opponent_score):
        asked.append(score)
        return 0

    assert play(strategy, strategy, score0=120, score1=7, goal=100) == (120, 7)
    assert asked == []
    # Free Bacon past 100 reads pi further: against 150 it is 3 + digit 150 of pi.
    final = play(always_roll(0), always_roll(0), score0=150, score1=150, goal=200, say=silence)
    assert max(final) >= 200


def test_play_refuses_illegal_choices_and_impossible_scores():
    with pytest.raises(IllegalChoice, match="choose 0 to 10"):
        play(always_roll(11), always_roll(4), rng=Random(1))
    with pytest.raises(IllegalChoice):
        play(always_roll(np.int64(3)), always_roll(4), rng=Random(1))
    for bad in (-1, 2.5, "0", True):
        with pytest.raises(BadState, match="whole numbers from 0"):
            play(always_roll(4), always_roll(4), score0=bad)
    with pytest.raises(BadState):
        free_bacon(-3)


def test_the_course_gui_switches_rules_off_by_replacing_them(monkeypatch):
    three = make_test_dice(3)
    assert play(always_roll(5), always_roll(5), goal=25, dice=three) == (15, 30)  # 15-15: gcd 15
    monkeypatch.setattr(hog, "swine_align", lambda score, opponent_score: False)
    assert hog.play(always_roll(5), always_roll(5), goal=25, dice=three) == (30, 15)
    # With Pig Pass too: 4-5 no longer sends Player 0 again.
    assert hog.play(always_roll(1), always_roll(1), dice=make_test_dice(2, 5), goal=10) == (9, 12)
    monkeypatch.setattr(hog, "pig_pass", lambda score, opponent_score: False)
    assert hog.play(always_roll(1), always_roll(1), dice=make_test_dice(2, 5), goal=10) == (4, 10)


def test_play_uses_four_sided_dice_under_hog_wild_for_rule_sets_that_have_it():
    seen = []

    class Recorder(Random):
        def randint(self, a, b):
            seen.append(b)
            return super().randint(a, b)

    play(always_roll(3), always_roll(3), rules="pork-chop", rng=Recorder(5))
    assert seen[0] == 4  # 0 + 0 is a multiple of 7
    assert set(seen) == {4, 6}


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_play_is_the_engines_game_turn_for_turn(rules, seed):
    """A game of `play` hears the same scores after every turn as the live engine's `resolve` with the
    same strategies and dice."""
    choices = np.random.default_rng(seed).integers(
        RULE_SETS[RULES.index(rules)].choices[0], 11, size=(100, 100)
    )

    def strategy(score, opponent_score):
        return int(choices[score, opponent_score])

    heard = []

    def listen(score0, score1):
        heard.append((score0, score1))
        return listen

    final = play(strategy, strategy, say=listen, rules=rules, rng=Random(seed))
    state, rng, expected = new_game(rules), Random(seed), []
    while not state.over:
        choice = strategy(state.scores[state.mover], state.scores[1 - state.mover])
        count, sides = dice_for(state, choice)
        state = resolve(state, choice, [rng.randint(1, sides) for _ in range(count)]).after
        expected.append(state.scores)
    assert heard == expected
    assert final == state.scores


def test_winner_and_average_win_rate_are_repeatable_with_an_injected_rng():
    assert winner(always_roll(5), always_roll(5), rng=Random(2)) == winner(
        always_roll(5), always_roll(5), rng=Random(2)
    )
    rate = average_win_rate(always_roll(4), always_roll(5), trials_count=300, rng=Random(4))
    assert rate == average_win_rate(always_roll(4), always_roll(5), trials_count=300, rng=Random(4))
    assert abs(rate - 0.46303487862) < 0.08  # the exact value, within simulation noise


def test_winner_and_average_win_rate_without_an_rng_repeat_once_random_is_reseeded():
    """README: fair dice draw from the random module unless given an rng; random.seed repeats them."""
    random.seed(8)
    rate = average_win_rate(always_roll(4), always_roll(5), trials_count=100)
    won = winner(always_roll(4), always_roll(5))
    random.seed(8)
    assert average_win_rate(always_roll(4), always_roll(5), trials_count=100) == rate
    assert winner(always_roll(4), always_roll(5)) == won


def test_final_strategy_is_the_best_score_only_table():
    table = best_table("swine-align")
    assert all(final_strategy(s, o) == table[s, o] for s in range(0, 100, 7) for o in range(0, 100, 3))
    with pytest.raises(BadState):
        final_strategy(-1, 0)


# Commentary (RULES.md's texts, beyond the course's doctests)


def test_a_tie_resets_the_remembered_leader(capsys):
    announce_lead_changes()(5, 0)(5, 5)(6, 5)
    assert capsys.readouterr().out == "Player 0 takes the lead by 5\nPlayer 0 takes the lead by 1\n"


def test_silence_says_nothing_and_say_scores_returns_itself(capsys):
    assert silence(1, 2) is silence
    assert say_scores(10, 0) is say_scores
    assert capsys.readouterr().out == "Player 0 now has 10 and Player 1 now has 0\n"


def test_announce_highest_never_announces_a_gain_of_zero(capsys):
    hog.announce_highest(0)(0, 5)(0, 9)
    assert capsys.readouterr().out == ""


def test_silence_says_nothing(capsys):
    assert silence(1, 2) is silence
    assert capsys.readouterr().out == ""


def test_commentary_in_a_played_game_prints_after_every_turn(capsys):
    play(always_roll(0), always_roll(0), say=say_scores, goal=20)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "Player 0 now has 6 and Player 1 now has 0",
        "Player 0 now has 6 and Player 1 now has 5",
    ]
    assert all(line.startswith("Player 0 now has") for line in lines)


def test_course_commentary_says_each_turns_lines_in_the_course_guis_order():
    """Seed 004, Problem 7: the GUI passes both(announce_highest(0), both(announce_highest(1),
    announce_lead_changes()))."""
    scores = [(5, 0), (5, 12), (8, 12), (8, 13), (15, 13), (15, 13)]
    said = course_commentary(scores)
    assert said == [
        ("5 point(s)! The most yet for Player 0", "Player 0 takes the lead by 5"),
        ("12 point(s)! The most yet for Player 1", "Player 1 takes the lead by 7"),
        (),
        (),
        ("7 point(s)! The most yet for Player 0", "Player 0 takes the lead by 2"),
        (),
    ]
    assert course_commentary([]) == []
    gui = both(announce_highest(0), both(announce_highest(1), announce_lead_changes()))
    printed: list[tuple[str, ...]] = []
    for pair in scores:
        out = io.StringIO()
        with redirect_stdout(out):
            gui = gui(*pair)
        printed.append(tuple(out.getvalue().splitlines()))
    assert said == printed


def test_course_commentary_starts_from_the_games_start_scores():
    """A record may start anywhere: from 90 to 0, Player 0 already leads and has gained nothing yet."""
    assert course_commentary([(95, 0), (95, 8), (95, 96)], start=(90, 0)) == [
        ("5 point(s)! The most yet for Player 0",),
        ("8 point(s)! The most yet for Player 1",),
        ("88 point(s)! The most yet for Player 1", "Player 1 takes the lead by 1"),
    ]
    assert course_commentary([(30, 30)], start=(20, 30)) == [("10 point(s)! The most yet for Player 0",)]
    assert course_commentary([(31, 30)], start=(30, 30)) == [
        ("1 point(s)! The most yet for Player 0", "Player 0 takes the lead by 1")
    ]


@pytest.fixture
def switching() -> Iterator[None]:
    """Threads take turns as often as the interpreter lets them: a race shows at once, not 1 run in 800."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def test_course_commentary_is_said_right_from_many_threads_at_once(switching):
    """Boards and pages say it from worker threads while the event loop says it too: nothing is shared
    (it once captured the process's sys.stdout, which threads swapped under each other)."""
    scores = [(5, 0), (5, 12), (8, 12), (8, 13), (15, 13), (15, 13)] * 3
    expected = course_commentary(scores)
    stdout = sys.stdout
    with ThreadPoolExecutor(4) as threads:
        said = list(threads.map(lambda _: course_commentary(scores), range(400)))
    assert sys.stdout is stdout
    assert [run for run in said if run != expected] == []


def test_course_commentary_prints_nothing_itself(capsys):
    course_commentary([(10, 0), (10, 30)])
    assert capsys.readouterr().out == ""
