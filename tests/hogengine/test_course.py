"""The CS 61A project API: dice helpers, play, commentary texts, and the course strategies."""

from itertools import pairwise
from random import Random

import pytest

from hogengine.commentary import course_commentary
from hogengine.course import (
    always_roll,
    announce_highest,
    announce_lead_changes,
    average_win_rate,
    bacon_strategy,
    both,
    extra_turn_strategy,
    make_averaged,
    make_test_dice,
    max_scoring_num_rolls,
    play,
    roll_dice,
    say_scores,
    silence,
    winner,
)
from hogengine.errors import BadState, IllegalChoice


def test_test_dice_cycle_through_their_outcomes():
    test_dice = make_test_dice(4, 1, 2)
    assert [test_dice() for _ in range(5)] == [4, 1, 2, 4, 1]


def test_roll_dice_sums_or_pigs_out_and_consumes_every_die():
    assert roll_dice(2, make_test_dice(3, 4)) == 7
    dice = make_test_dice(4, 1, 2, 6)
    assert roll_dice(3, dice) == 1  # 4, 1, 2: Pig Out, yet all three dice are rolled
    assert dice() == 6
    assert roll_dice(2, make_test_dice(1, 1), rules="pork-chop") == 2  # that rule set's Pig Out
    with pytest.raises(IllegalChoice):
        roll_dice(0, dice)
    with pytest.raises(IllegalChoice, match="not a number of about 5001 digits"):
        roll_dice(10**5000, dice)  # too long for repr(): the error still says what was wrong


def test_roll_dice_with_fair_dice_from_an_injected_random_source():
    first = [roll_dice(3, rng=Random(7)) for _ in range(3)]
    assert first == [roll_dice(3, rng=Random(7)) for _ in range(3)]
    assert all(1 <= points <= 18 for points in first)


def test_make_averaged_averages_repeated_calls():
    assert make_averaged(make_test_dice(4, 2, 5, 1), 1000)() == 3.0
    assert make_averaged(roll_dice, 1000)(2, make_test_dice(3, 1, 5, 6)) == 6.0  # 1 and 11 in turn


def test_max_scoring_num_rolls_prefers_fewer_dice_on_ties():
    assert max_scoring_num_rolls(make_test_dice(3), trials_count=10) == 10
    assert max_scoring_num_rolls(make_test_dice(1), trials_count=10) == 1
    assert max_scoring_num_rolls(make_test_dice(1, 2, 2, 2, 2, 2, 2, 2), trials_count=1000) == 4


def test_max_scoring_num_rolls_with_fair_dice_is_repeatable():
    assert max_scoring_num_rolls(trials_count=200, rng=Random(3)) == max_scoring_num_rolls(
        trials_count=200, rng=Random(3)
    )


def test_play_with_test_dice_follows_the_rules_and_returns_final_scores():
    # 20 points a turn: 20-0, then 20-20 and 20-40 give Player 1 extra turns (gcd 20), and 20-60 ends it.
    assert play(always_roll(4), always_roll(4), dice=make_test_dice(5), goal=50) == (20, 60)


def test_play_calls_each_strategy_once_per_turn_and_say_after_every_turn():
    calls, heard = [], []

    def strategy(player):
        def choose(score, opponent_score):
            calls.append((player, score, opponent_score))
            return 0

        return choose

    def say(score0, score1):
        heard.append((score0, score1))
        return say

    final = play(strategy(0), strategy(1), say=say)
    assert heard[-1] == final
    assert len(calls) == len(heard)
    # Free Bacon against 0 gives 3 + 3; against 6 it gives pi's sixth digit 2, + 3.
    assert heard[:2] == [(6, 0), (6, 5)]
    # an extra turn shows as the same player moving twice in a row
    assert any(a[0] == b[0] for a, b in pairwise(calls))


def test_play_rejects_illegal_strategies_and_start_scores():
    with pytest.raises(IllegalChoice):
        play(always_roll(11), always_roll(4), rng=Random(1))
    with pytest.raises(BadState):
        play(always_roll(4), always_roll(4), score0=100)


def test_play_uses_four_sided_dice_under_hog_wild_for_rule_sets_that_have_it():
    seen = []

    class Recorder(Random):
        def randint(self, a, b):
            seen.append(b)
            return super().randint(a, b)

    play(always_roll(3), always_roll(3), rules="pork-chop", rng=Recorder(5))
    assert seen[0] == 4  # 0 + 0 is a multiple of 7
    assert set(seen) == {4, 6}


def test_winner_and_average_win_rate_are_repeatable_with_an_injected_rng():
    assert winner(always_roll(5), always_roll(5), rng=Random(2)) == winner(
        always_roll(5), always_roll(5), rng=Random(2)
    )
    rate = average_win_rate(always_roll(4), always_roll(5), trials_count=300, rng=Random(4))
    assert rate == average_win_rate(always_roll(4), always_roll(5), trials_count=300, rng=Random(4))
    assert abs(rate - 0.46303487862) < 0.08  # the exact value, within simulation noise


def test_bacon_strategy():
    assert bacon_strategy(0, 0) == 6  # Free Bacon gives 6 < 8
    assert bacon_strategy(0, 42, cutoff=12) == 0  # 12 >= 12
    assert bacon_strategy(0, 42, cutoff=13, num_rolls=3) == 3


def test_extra_turn_strategy_rolls_zero_for_an_extra_turn():
    assert extra_turn_strategy(0, 6) == 0  # 0 + 5 = 5 against 6: Pig Pass
    assert extra_turn_strategy(6, 24) == 0  # 6 + 6 = 12 against 24: gcd 12
    assert bacon_strategy(0, 6) == 6
    assert extra_turn_strategy(1, 0, num_rolls=2) == 2


# Commentary (seed 004 doctests and RULES.md texts)


def test_say_scores(capsys):
    assert say_scores(10, 0) is say_scores
    assert capsys.readouterr().out == "Player 0 now has 10 and Player 1 now has 0\n"


def test_announce_lead_changes_doctest(capsys):
    f0 = announce_lead_changes()
    f1 = f0(5, 0)
    assert capsys.readouterr().out == "Player 0 takes the lead by 5\n"
    f2 = f1(5, 12)
    assert capsys.readouterr().out == "Player 1 takes the lead by 7\n"
    f3 = f2(8, 12)
    f4 = f3(8, 13)
    assert capsys.readouterr().out == ""
    f4(15, 13)
    assert capsys.readouterr().out == "Player 0 takes the lead by 2\n"


def test_a_tie_resets_the_remembered_leader(capsys):
    announce_lead_changes()(5, 0)(5, 5)(6, 5)
    assert capsys.readouterr().out == "Player 0 takes the lead by 5\nPlayer 0 takes the lead by 1\n"


def test_both_doctest(capsys):
    h0 = both(say_scores, announce_lead_changes())
    h1 = h0(10, 0)
    assert (
        capsys.readouterr().out
        == "Player 0 now has 10 and Player 1 now has 0\nPlayer 0 takes the lead by 10\n"
    )
    h2 = h1(10, 8)
    assert capsys.readouterr().out == "Player 0 now has 10 and Player 1 now has 8\n"
    h2(10, 17)
    assert (
        capsys.readouterr().out
        == "Player 0 now has 10 and Player 1 now has 17\nPlayer 1 takes the lead by 7\n"
    )


def test_announce_highest(capsys):
    f0 = announce_highest(1)
    f1 = f0(12, 0)
    f2 = f1(12, 9)
    assert capsys.readouterr().out == "9 point(s)! The most yet for Player 1\n"
    f3 = f2(20, 9)
    f4 = f3(20, 30)
    assert capsys.readouterr().out == "21 point(s)! The most yet for Player 1\n"
    f5 = f4(20, 47)  # 17: not a new high
    f6 = f5(21, 47)
    f6(21, 77)
    assert capsys.readouterr().out == "30 point(s)! The most yet for Player 1\n"


def test_announce_highest_never_announces_a_gain_of_zero(capsys):
    announce_highest(0)(0, 5)(0, 9)
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


def test_course_commentary_says_each_turns_lines_in_the_boards_order():
    said = course_commentary([(5, 0), (5, 12), (8, 12), (8, 13), (15, 13), (15, 13)])
    assert said == [
        ("Player 0 takes the lead by 5", "5 point(s)! The most yet for Player 0"),
        ("Player 1 takes the lead by 7", "12 point(s)! The most yet for Player 1"),
        (),
        (),
        ("Player 0 takes the lead by 2", "7 point(s)! The most yet for Player 0"),
        (),
    ]
    assert course_commentary([]) == []


def test_course_commentary_prints_nothing_itself(capsys):
    course_commentary([(10, 0), (10, 30)])
    assert capsys.readouterr().out == ""
