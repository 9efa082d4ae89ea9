"""Every worked example of the seed documents, played through the engine (`resolve`)."""

import pytest

from hogengine.events import EventKind
from hogengine.game import dice_for
from hogengine.rules import get_rules, pieces

DIGIT_RULES = ["pork-chop", "pig-fest", "piggy-back"]


def kinds(result):
    return [event.kind for event in result.events]


# Free Bacon


@pytest.mark.parametrize(("opponent", "points"), [(0, 6), (1, 4), (2, 7), (42, 12)])
def test_free_bacon_reads_the_digit_of_pi_at_the_opponents_score(begin, turns, opponent, points):
    (result,) = turns(begin("swine-align", (0, opponent)), [(0, [])])
    assert result.points == points
    assert result.dice == 0


@pytest.mark.parametrize("rules", DIGIT_RULES)
@pytest.mark.parametrize(("opponent", "points"), [(42, 5), (48, 9), (7, 8), (0, 1), (71, 8)])
def test_free_bacon_is_one_more_than_the_largest_digit(rules, opponent, points):
    assert get_rules(rules).free_bacon(opponent) == points


@pytest.mark.parametrize(("opponent", "points"), [(42, 5), (48, 9), (7, 8)])
def test_free_bacon_turn_without_hogtimus_scores_the_digit_rule(begin, turns, opponent, points):
    (result,) = turns(begin("pig-fest", (1, opponent)), [(0, [])])
    assert result.points == points


# The course's constant (its tests check it is never changed): pi's first 101 digits.
COURSE_PI = int(
    "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"
)


def test_pi_digits_made_by_machins_formula_are_the_courses_and_go_on_past_them():
    assert "".join(map(str, pieces.pi_digits(101))) == str(COURSE_PI)
    thousand = "".join(map(str, pieces.pi_digits(1000)))
    assert thousand.startswith(str(COURSE_PI))
    assert thousand[762:768] == "999999"  # the Feynman point: six nines from digit 762 after the point
    assert pieces.free_bacon_pi(762) == 12
    assert list(pieces.pi_digits(2000)[:1000]) == list(pieces.pi_digits(1000))  # longer runs agree


@pytest.mark.parametrize(("score", "largest"), [(0, 0), (7, 7), (71, 7), (100, 1), (190, 9), (1234, 4)])
def test_the_largest_digit_reads_every_digit_of_a_score(score, largest):
    assert pieces.largest_digit(score) == largest


# Pig Out


def test_swine_align_pig_out_scores_one_and_a_clean_roll_scores_the_sum(begin, turns):
    pig, clean = turns(begin("swine-align", (1, 40)), [(7, [1, 1, 2, 1, 1, 6, 1]), (4, [3, 3, 3, 3])])
    assert pig.points == 1
    assert EventKind.PIG_OUT in kinds(pig)
    assert clean.points == 12


@pytest.mark.parametrize(
    ("rolls", "points"),
    [
        ([1, 1, 1, 1, 1, 2, 3], 4),  # 7 dice, five 1s: min(11 - 7, 5) = 4
        ([1, 1, 1, 2, 3], 5),  # 5 dice, three 1s: 3, and Hogtimus Prime makes it 5
        ([3, 3, 3, 3], 12),  # no Pig Out: the sum
    ],
)
def test_pork_chop_pig_out_scores_the_ones_capped_at_eleven_minus_dice(begin, turns, rolls, points):
    (result,) = turns(begin("pork-chop", (1, 0)), [(len(rolls), rolls)])
    assert result.points == points


def test_pork_chop_pig_out_cap_before_hogtimus():
    assert get_rules("pork-chop").pig_out_points(7, 5) == 4
    assert get_rules("pork-chop").pig_out_points(5, 3) == 3


def test_pig_fest_pig_out_scores_one(begin, turns):
    (result,) = turns(begin("pig-fest", (1, 0)), [(5, [1, 1, 1, 2, 3])])
    assert result.points == 1


# Hogtimus Prime


@pytest.mark.parametrize("rules", ["pork-chop", "piggy-back"])
@pytest.mark.parametrize(
    ("rolls", "points"),
    [
        ([5, 6], 13),  # 11 -> 13
        ([6, 6, 5], 19),  # 17 -> 19
        ([6, 6, 5, 2], 23),  # 19 -> 23
        ([2], 3),  # 2 -> 3
        ([6] * 8 + [5], 59),  # 53 -> 59
        ([6] * 9 + [5], 61),  # 59 -> 61 (the seed repository's list misses 59)
        ([4, 4], 8),  # not prime: stays
    ],
)
def test_hogtimus_prime_boosts_a_prime_turn_to_the_next_prime(begin, turns, rules, rolls, points):
    (result,) = turns(begin(rules, (1, 0)), [(len(rolls), rolls)])
    assert result.points == points


def test_hogtimus_prime_leaves_one_and_zero(begin, turns):
    (pork,) = turns(begin("pork-chop", (1, 0)), [(3, [1, 2, 2])])
    assert pork.points == 1
    (piggy,) = turns(begin("piggy-back", (1, 0)), [(3, [1, 2, 2])])
    assert piggy.points == 0
    assert [pieces.hogtimus_prime(n) for n in (0, 1, 2, 11, 17, 19, 53, 59)] == [0, 1, 3, 13, 19, 23, 59, 61]


# Hog Wild


@pytest.mark.parametrize("rules", DIGIT_RULES)
@pytest.mark.parametrize(
    ("scores", "sides"), [((0, 0), 4), ((3, 4), 4), ((14, 0), 4), ((10, 11), 4), ((35, 0), 4)]
)
def test_hog_wild_examples_0_7_14_21_35_roll_four_sided_dice(begin, rules, scores, sides):
    assert dice_for(begin(rules, scores), 2) == (2, sides)


@pytest.mark.parametrize("rules", DIGIT_RULES)
@pytest.mark.parametrize("scores", [(1, 0), (3, 5), (20, 0), (50, 49)])
def test_hog_wild_leaves_six_sided_dice_when_the_sum_is_not_a_multiple_of_7(begin, rules, scores):
    assert dice_for(begin(rules, scores), 2) == (2, 6)


# Swine Swap


def test_doubling_swine_swap_example_1(begin, turns):
    (result,) = turns(begin("pork-chop", (37, 92)), [(2, [4, 5])])
    assert result.after.scores == (92, 46)
    assert EventKind.SWAP in kinds(result)


def test_doubling_swine_swap_example_2_hands_the_opponent_the_win(begin, turns):
    (result,) = turns(begin("pork-chop", (91, 55)), [(5, [2, 3, 4, 4, 4])])
    assert result.points == 19
    assert result.after.scores == (55, 110)
    assert result.after.winner == 1


@pytest.mark.parametrize(
    ("scores", "rolls", "after"),
    [
        ((13, 91), [2, 4], (91, 19)),  # 19 and 91
        ((66, 8), [2, 4, 4, 4], (8, 80)),  # 66 + 14 = 80 against 8 read as 08
        ((90, 90), [2, 2, 2, 2, 3, 3, 3], (90, 109)),  # 17 -> 19: 109 and 90 read as 09 and 90
    ],
)
def test_reversed_digits_swine_swap_examples_of_seed_002(begin, turns, scores, rolls, after):
    (result,) = turns(begin("piggy-back", scores), [(len(rolls), rolls)])
    assert result.after.scores == after
    assert EventKind.SWAP in kinds(result)


@pytest.mark.parametrize(("a", "b"), [(2, 20), (55, 55), (114, 41), (107, 70), (81, 118), (100, 0)])
def test_reversed_digits_swap_pairs(a, b):
    assert pieces.reversed_digits(a, b)
    assert pieces.reversed_digits(b, a)


@pytest.mark.parametrize(("a", "b"), [(71, 107), (20, 40), (13, 47)])
def test_reversed_digits_non_swap_pairs(a, b):
    assert not pieces.reversed_digits(a, b)


@pytest.mark.parametrize(("rules", "rolls"), [("pig-fest", [5]), ("piggy-back", [4])])
def test_reaching_100_against_0_swaps_and_the_opponent_wins(begin, turns, rules, rolls):
    (result,) = turns(begin(rules, (100 - rolls[0], 0)), [(1, rolls)])
    assert result.after.scores == (0, 100)
    assert result.after.winner == 1


# Swine Align and Pig Pass (swine-align)


def test_swine_align_example_1_gcd_4_no_extra_turn(begin, turns):
    (result,) = turns(begin("swine-align", (2, 36)), [(1, [6])])
    assert result.after.scores == (8, 36)
    assert result.after.mover == 1


def test_swine_align_example_2_gcd_10_extra_turn(begin, turns):
    (result,) = turns(begin("swine-align", (14, 30)), [(1, [6])])
    assert result.after.scores == (20, 30)
    assert result.after.mover == 0
    assert [e.note for e in result.events if e.kind is EventKind.EXTRA_TURN] == ["swine_align"]


def test_swine_align_example_3_extra_turns_chain(begin, turns):
    first, second = turns(begin("swine-align", (18, 36)), [(1, [6]), (2, [6, 6])])
    assert (first.after.scores, first.after.mover) == ((24, 36), 0)
    assert (second.after.scores, second.after.mover) == ((36, 36), 0)


def test_rules_clarification_a_player_can_take_four_turns_in_a_row(begin, turns):
    """Seed 004, Problem 5: 10-20 (Swine Align), +8 -> 18-20 (Pig Pass), +12 -> 30-20 (Swine Align)."""
    results = turns(begin("swine-align", (0, 20)), [(2, [4, 6]), (2, [4, 4]), (2, [6, 6])])
    assert [r.after.scores for r in results] == [(10, 20), (18, 20), (30, 20)]
    assert [r.player for r in results] == [0, 0, 0]
    assert results[-1].after.mover == 0  # a fourth turn in a row
    notes = [e.note for r in results for e in r.events if e.kind is EventKind.EXTRA_TURN]
    assert notes == ["swine_align", "pig_pass", "swine_align"]


def test_swine_align_and_pig_pass_are_never_active_together():
    """Seed 004, Problem 5: "It's not mathematically possible", so an extra turn names one rule."""
    scores = range(200)
    both = [(a, b) for a in scores for b in scores if pieces.swine_align(a, b) and pieces.pig_pass(a, b)]
    assert both == []


def test_swine_align_example_4_needs_both_scores_positive(begin, turns):
    (result,) = turns(begin("swine-align", (9, 0)), [(1, [6])])
    assert result.after.scores == (15, 0)
    assert result.after.mover == 1


@pytest.mark.parametrize(("mover", "goes_again"), [(5, False), (1, False), (22, True)])
def test_pig_pass_examples_1_to_3(begin, turns, mover, goes_again):
    opponent = 30 if mover == 22 else 10
    (result,) = turns(begin("swine-align", (mover, opponent)), [(1, [6])])
    assert result.after.mover == (0 if goes_again else 1)


def test_pig_pass_example_4_goes_again_after_a_pig_out(begin, turns):
    first, second = turns(begin("swine-align", (22, 30)), [(1, [6]), (1, [1])])
    assert (first.after.scores, first.after.mover) == ((28, 30), 0)
    assert (second.after.scores, second.after.mover) == ((29, 30), 0)
    assert [e.note for e in second.events if e.kind is EventKind.EXTRA_TURN] == ["pig_pass"]


# Pork Chop and Ham Hijinks sample games


def test_pork_chop_sample_game(begin, turns):
    results = turns(begin("pork-chop", (14, 42)), [(0, []), (-1, []), (-1, []), (-1, [1] + [2] * 9)])
    assert [r.after.scores for r in results] == [(42, 21), (21, 42), (42, 21), (42, 22)]
    assert results[0].points == 7
    events = [[(event.kind, event.player, event.value) for event in result.events] for result in results]
    assert events[0] == [
        (EventKind.FREE_BACON, 0, 5),  # 1 + max(1, 4)
        (EventKind.PRIME_BOOST, 0, 7),  # 5 is prime: the next prime is 7
        (EventKind.SWAP, 0, 0),  # 21 against 42
    ]
    assert events[1] == [(EventKind.PORK_CHOP, 1, 0)]  # 42 against 21 is a double, but one swap a turn
    assert events[2] == [(EventKind.PORK_CHOP, 0, 0)]
    assert events[3] == [(EventKind.HOG_WILD, 1, 4), (EventKind.PIG_OUT, 1, 1)]  # 63: a multiple of 7
    assert (results[3].dice, results[3].sides, results[3].points) == (10, 4, 1)


def test_ham_hijinks_sample_game(begin, turns):
    results = turns(begin("pig-fest"), [(-1, []), (2, [3, 3]), (4, [2, 2, 3, 3]), (-1, [])])
    assert [r.after.scores for r in results] == [(1, 0), (1, 6), (11, 6), (11, 7)]
    assert results[1].sides == 4  # exchanged once
    assert results[2].sides == 6  # Hog Wild (1 + 6 = 7) with an odd exchange count
    assert results[3].after.hidden_by_name()["exchanges"] == 2
    assert dice_for(results[3].after, 3) == (3, 6)


# Pig Fest


def pig_fest_turns(begin, turns, p0_moves):
    """Player 0 plays the given turns while Player 1 always rolls one die showing 2."""
    moves = [move for p0 in p0_moves for move in (p0, (1, [2]))]
    return turns(begin("pig-fest"), moves)[::2]


def test_pig_fest_multiplier_of_three_streak_turns_twelve_into_thirty_six(begin, turns):
    results = pig_fest_turns(begin, turns, [(1, [1])] * 3 + [(3, [4, 4, 4]), (3, [4, 4, 4])])
    assert [r.after.hidden_by_name()["streak"][0] for r in results] == [1, 2, 3, 0, 0]
    assert results[3].points == 36
    assert results[4].points == 12  # the multiplier resets after use


def test_pig_fest_streak_caps_at_three(begin, turns):
    results = pig_fest_turns(begin, turns, [(1, [1])] * 5 + [(3, [4, 4, 4])])
    assert results[4].after.hidden_by_name()["streak"][0] == 3
    assert results[5].points == 36


def test_ham_hijinks_takes_and_resets_the_multiplier(begin, turns):
    results = pig_fest_turns(begin, turns, [(1, [1]), (1, [1]), (-1, [])])
    assert results[2].points == 2
    assert results[2].after.hidden_by_name()["streak"] == (0, 0)


def test_free_bacon_takes_the_multiplier_and_players_do_not_share_it(begin, turns):
    (result,) = turns(begin("pig-fest", (1, 42), streak=(2, 3)), [(0, [])])
    assert result.points == 10
    assert result.after.hidden_by_name()["streak"] == (0, 3)


# Piggy Back


def test_piggy_back_gives_the_opponent_the_number_of_dice(begin, turns):
    (result,) = turns(begin("piggy-back", (1, 0)), [(3, [1, 5, 1])])
    assert result.points == 0
    assert result.after.scores == (1, 3)


def test_piggy_back_gift_can_end_the_game_for_the_opponent(begin, turns):
    (result,) = turns(begin("piggy-back", (98, 98)), [(5, [1, 2, 3, 4, 4])])
    assert result.sides == 4  # Hog Wild: 196 is a multiple of 7
    assert result.after.scores == (98, 103)
    assert result.after.winner == 1
