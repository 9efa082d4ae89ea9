"""The binding rulings of RULES.md, each as a game situation a player could meet."""

import pytest

from hogengine.errors import BadRolls, GameOver, IllegalChoice
from hogengine.events import EventKind
from hogengine.game import choice_label, dice_for, dice_rules, legal_choices, new_game, resolve
from hogengine.rules import RULE_SETS, get_rules, pieces, pig_fest
from hogengine.rules.pig_fest import HAM_HIJINKS_USES_MULTIPLIER


def kinds(result):
    return [event.kind for event in result.events]


@pytest.mark.parametrize(
    ("rules", "sides"), [("pork-chop", 4), ("pig-fest", 4), ("piggy-back", 4), ("swine-align", 6)]
)
def test_hog_wild_counts_a_total_of_zero(rules, sides):
    assert dice_for(new_game(rules), 3) == (3, sides)


def test_swine_align_never_rolls_four_sided_dice(begin):
    assert dice_for(begin("swine-align", (3, 4)), 5) == (5, 6)


@pytest.mark.parametrize(
    ("rules", "low", "high"),
    [("swine-align", 0, 10), ("pork-chop", -1, 10), ("pig-fest", -1, 10), ("piggy-back", 0, 10)],
)
def test_legal_choices_per_rule_set(rules, low, high):
    assert legal_choices(new_game(rules)) == range(low, high + 1)
    with pytest.raises(IllegalChoice):
        dice_for(new_game(rules), high + 1)
    with pytest.raises(IllegalChoice):
        dice_for(new_game(rules), low - 1)


def test_aliases_and_ids_find_the_same_rule_sets():
    assert [get_rules(alias).id for alias in ("fa20", "SP17", " su15 ", "sp16")] == [r.id for r in RULE_SETS]


# Pork Chop


def test_second_pork_chop_rolls_ten_dice_with_hog_wild_and_the_pig_out_cap(begin, turns):
    state = begin("pork-chop", (30, 40), pork_chop=(1, 0))  # 70: Hog Wild
    assert dice_for(state, -1) == (10, 4)
    (result,) = turns(state, [(-1, [1, 1, 1, 2, 2, 2, 2, 2, 2, 2])])
    assert result.points == 1  # three 1s, capped at 11 - 10 = 1
    assert EventKind.PORK_CHOP not in kinds(result)


def test_second_pork_chop_gets_hogtimus_prime(begin, turns):
    (result,) = turns(begin("pork-chop", (1, 3), pork_chop=(1, 1)), [(-1, [2, 2, 2, 2, 2, 2, 2, 3, 6, 6])])
    assert result.points == 31  # 29 -> 31
    assert EventKind.PRIME_BOOST in kinds(result)


def test_having_used_pork_chop_does_not_exempt_from_swine_swap(begin, turns):
    (result,) = turns(begin("pork-chop", (10, 60), pork_chop=(1, 0)), [(-1, [2] * 10)])
    assert result.after.scores == (60, 30)
    assert EventKind.SWAP in kinds(result)


def test_pork_chop_is_the_turns_only_swap(begin, turns):
    (result,) = turns(begin("pork-chop", (21, 42), mover=1), [(-1, [])])
    assert result.after.scores == (42, 21)  # 42 against 21 is a double, yet no second swap
    assert result.points == 0
    assert result.after.hidden_by_name()["pork_chop"] == (0, 1)


def test_each_player_has_their_own_pork_chop(begin, turns):
    first, second = turns(begin("pork-chop", (5, 10)), [(-1, []), (-1, [])])
    assert EventKind.PORK_CHOP in kinds(first)
    assert EventKind.PORK_CHOP in kinds(second)
    assert dice_for(second.after, -1) == (10, 6)


def test_the_minus_one_button_says_what_it_does_for_the_player_to_move(begin, turns):
    (chopped,) = turns(begin("pork-chop", (5, 10)), [(-1, [])])
    assert choice_label(chopped.before, -1) == "Pork Chop"
    assert choice_label(chopped.after, -1) == "Pork Chop"  # the opponent still has theirs
    back = begin("pork-chop", (5, 10), pork_chop=(1, 0))
    assert choice_label(back, -1) == f"Roll {dice_for(back, -1)[0]} (-1)"
    assert choice_label(back, 0) == "Free Bacon" and choice_label(back, 3) == "Roll 3"
    assert choice_label(begin("pig-fest", (5, 10)), -1) == "Ham Hijinks"


# Game end


def test_the_game_ends_at_the_end_of_the_turn_after_the_swap(begin, turns):
    (result,) = turns(begin("piggy-back", (95, 12)), [(2, [3, 3])])  # 101 against 12: no swap
    assert result.after.winner == 0
    (swapped,) = turns(begin("piggy-back", (90, 90)), [(7, [2, 2, 2, 2, 3, 3, 3])])
    assert swapped.after.winner == 1
    assert kinds(swapped)[-1] is EventKind.GAME_OVER


def test_swine_align_gives_no_extra_turn_once_the_game_is_over(begin, turns):
    (result,) = turns(begin("swine-align", (94, 50)), [(1, [6])])  # 100 and 50: gcd 50
    assert result.after.over
    assert EventKind.EXTRA_TURN not in kinds(result)
    with pytest.raises(GameOver):
        resolve(result.after, 1, [3])


def test_a_turn_rolls_all_its_dice_even_after_a_one(begin):
    with pytest.raises(BadRolls):
        resolve(begin("swine-align"), 3, [1])


# Pig Fest


@pytest.mark.parametrize(("switch", "points"), [(True, 2), (False, 1)])
def test_ham_hijinks_multiplier_ruling_is_one_named_switch(begin, turns, monkeypatch, switch, points):
    """Our ruling is on; flipping its one constant is all it takes to play it the other way."""
    assert HAM_HIJINKS_USES_MULTIPLIER is True
    monkeypatch.setattr(pig_fest, "HAM_HIJINKS_USES_MULTIPLIER", switch)
    (result,) = turns(begin("pig-fest", (10, 30), streak=(2, 0)), [(-1, [])])
    assert result.points == points


def test_ham_hijinks_exchanges_are_shared_and_unlimited(begin, turns):
    results = turns(begin("pig-fest", (1, 2)), [(-1, [])] * 5)
    assert [r.after.hidden_by_name()["exchanges"] for r in results] == [1, 2, 3, 4, 5]
    assert all(r.points == 1 for r in results)


@pytest.mark.parametrize(
    ("rules", "scores", "hidden", "named"),
    [
        ("swine-align", (0, 0), {}, ()),
        ("pork-chop", (0, 0), {}, (EventKind.HOG_WILD,)),
        ("piggy-back", (3, 4), {}, (EventKind.HOG_WILD,)),
        ("piggy-back", (3, 5), {}, ()),
        ("pig-fest", (1, 2), {"exchanges": 1}, (EventKind.HAM_HIJINKS,)),
        ("pig-fest", (3, 4), {"exchanges": 1}, (EventKind.HOG_WILD, EventKind.HAM_HIJINKS)),
        ("pig-fest", (3, 4), {"exchanges": 2}, (EventKind.HOG_WILD,)),
    ],
)
def test_the_engine_names_the_rules_that_chose_the_dice(begin, rules, scores, hidden, named):
    assert dice_rules(begin(rules, scores, **hidden)) == named


def test_pig_fest_dice_flip_with_the_exchange_parity(begin):
    assert dice_for(begin("pig-fest", (1, 2), exchanges=1), 2) == (2, 4)
    assert dice_for(begin("pig-fest", (3, 4), exchanges=1), 2) == (2, 6)  # Hog Wild and odd: six
    assert dice_for(begin("pig-fest", (3, 4), exchanges=2), 2) == (2, 4)


def test_ham_hijinks_turns_end_with_the_swine_swap_check_too(begin, turns):
    (result,) = turns(begin("pig-fest", (1, 20)), [(-1, [])])  # 2 against 20 reads 02 and 20
    assert result.after.scores == (20, 2)
    assert kinds(result) == [EventKind.HAM_HIJINKS, EventKind.SWAP]


@pytest.mark.parametrize("streak", [0, 1, 2, 3])
def test_a_pig_out_scores_exactly_one_whatever_the_streak(begin, turns, streak):
    (result,) = turns(begin("pig-fest", (10, 30), streak=(streak, 0)), [(3, [1, 5, 5])])
    assert result.points == 1
    assert result.after.scores == (11, 30)
    assert result.after.hidden_by_name()["streak"] == (min(streak + 1, 3), 0)
    assert EventKind.MULTIPLIER not in kinds(result)


# Pork Chop's Swine Swap


@pytest.mark.parametrize("score", [0, 16, 50])
def test_equal_scores_swap_to_no_effect(score):
    assert pieces.trade_places(pieces.doubled(score, score), score, score) == (score, score)
    assert pieces.doubled(0, 0)  # zero is double zero: the swap happens and changes nothing


def test_a_turn_that_ties_the_scores_keeps_them(begin, turns):
    (result,) = turns(begin("pork-chop", (10, 16)), [(1, [6])])
    assert result.after.scores == (16, 16)
    assert EventKind.SWAP not in kinds(result)


# Piggy Back


def test_the_piggy_back_gift_comes_before_the_swine_swap_check(begin, turns):
    # P0 pigs out with 3 dice at 12-18: scores 0, P1 gets 3 -> 12-21, and 12 and 21 are reversed digits.
    (result,) = turns(begin("piggy-back", (12, 18)), [(3, [1, 2, 3])])
    assert result.after.scores == (21, 12)
    assert [(e.kind, e.value) for e in result.events if e.kind is EventKind.PIGGY_BACK] == [
        (EventKind.PIGGY_BACK, 3)
    ]
    assert EventKind.SWAP in kinds(result)


def test_hogtimus_prime_boosts_piggy_back_free_bacon(begin, turns):
    (result,) = turns(begin("piggy-back", (1, 42)), [(0, [])])  # 1 + 4 = 5, a prime -> 7
    assert result.points == 7
    assert result.after.scores == (8, 42)
    assert EventKind.PRIME_BOOST in kinds(result)
