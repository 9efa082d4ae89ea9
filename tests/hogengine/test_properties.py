"""Properties every rule set keeps, checked on random games (hypothesis)."""

from dataclasses import replace
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hogengine.errors import BadRolls
from hogengine.events import EventKind
from hogengine.game import State, dice_for, dice_rules, legal_choices, new_game, resolve
from hogengine.position import Position
from hogengine.replay import parse_record, replay, to_record
from hogengine.rules import RULE_SETS, get_rules

RULES = [rules.id for rules in RULE_SETS]
rule_ids = st.sampled_from(RULES)
seeds = st.integers(0, 2**32)


@st.composite
def states(draw: st.DrawFn) -> State:
    """Any state a game can reach: scores below the goal, with every hidden part in range."""
    rules, goal = draw(rule_ids), draw(st.integers(1, 100))
    scores = (draw(st.integers(0, goal - 1)), draw(st.integers(0, goal - 1)))
    return replace(
        new_game(rules, goal, scores, draw(st.integers(0, 1))),
        chop_used=(draw(st.booleans()), draw(st.booleans())),
        streaks=(draw(st.integers(0, 3)), draw(st.integers(0, 3))),
        exchanges=draw(st.integers(0, 9)),
    )


@settings(max_examples=300, deadline=None)
@given(states(), st.data())
def test_a_turn_takes_exactly_its_dice_each_on_the_die(state, data):
    choice = data.draw(st.sampled_from(legal_choices(state)))
    count, sides = dice_for(state, choice)
    rolls = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    resolve(state, choice, rolls)
    with pytest.raises(BadRolls):
        resolve(state, choice, [*rolls, 1])
    if count:
        with pytest.raises(BadRolls):
            resolve(state, choice, rolls[1:])
        with pytest.raises(BadRolls):
            resolve(state, choice, [*rolls[1:], data.draw(st.sampled_from([0, sides + 1]))])


@settings(max_examples=300, deadline=None)
@given(states())
def test_the_rules_named_for_the_dice_are_the_ones_that_set_them(state):
    """Each rule dice_rules names swaps six-sided dice for four-sided ones or back, so they say why."""
    named = dice_rules(state)
    assert set(named) <= {EventKind.HOG_WILD, EventKind.HAM_HIJINKS}
    assert dice_for(state, 1)[1] == (4 if len(named) % 2 else 6)


@settings(max_examples=100, deadline=None)
@given(rule_ids, seeds, st.integers(1, 100))
def test_every_turn_adds_a_point_but_a_pork_chop_and_every_game_ends(random_games, rules, seed, goal):
    results = random_games(rules, Random(seed), goal)
    assert len(results) <= 2 * goal + 2  # a point a turn, plus at most one Pork Chop per player
    for result in results:
        before, after = sum(result.before.scores), sum(result.after.scores)
        if EventKind.PORK_CHOP in [event.kind for event in result.events]:
            assert after == before
        else:
            assert after >= before + 1
    assert results[-1].after.over
    assert all(not result.before.over for result in results)


@settings(max_examples=60, deadline=None)
@given(rule_ids, seeds, st.binary(min_size=1, max_size=32))
def test_a_game_replays_from_its_rolls_and_from_its_seed(random_games, rules, seed, dice_seed):
    results = random_games(rules, Random(seed), seed=dice_seed)
    start = results[0].before
    played = [result.after for result in results]
    from_rolls = replay(parse_record(to_record(start, results)))
    assert [result.after for result in from_rolls] == played
    from_seed = replay(parse_record(to_record(start, results, dice_seed)))
    assert [result.after for result in from_seed] == played


@st.composite
def turns(draw: st.DrawFn, rules: str) -> tuple[State, int, list[int]]:
    """A reachable state, a legal choice in it, and dice that fit."""
    state = draw(states().map(lambda s: replace(s, rules=rules, goal=100)))
    choice = draw(st.sampled_from(legal_choices(state)))
    count, sides = dice_for(state, choice)
    return state, choice, draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_vectorised_step_agrees_with_scalar_step_element_by_element(rules, data):
    ruleset = get_rules(rules)
    cases = data.draw(st.lists(turns(rules), min_size=1, max_size=30))
    positions = [state.position() for state, _, _ in cases]
    choices = np.array([choice for _, choice, _ in cases])
    summaries = [ruleset.roll_summary(rolls) for _, _, rolls in cases]
    pig_out = np.array([pig for pig, _ in summaries])
    rolled = np.array([points for _, points in summaries])
    columns = Position(*(np.array(field) for field in zip(*positions, strict=True)))
    vector = ruleset.step(columns, choices, pig_out, rolled, 100)
    count, sides = ruleset.dice(columns, choices)
    for i, position in enumerate(positions):
        scalar = ruleset.step(position, cases[i][1], summaries[i][0], summaries[i][1], 100)
        assert (np.broadcast_to(count, choices.shape)[i], np.broadcast_to(sides, choices.shape)[i]) == tuple(
            ruleset.dice(position, cases[i][1])
        )
        assert [np.broadcast_to(f, choices.shape)[i] for f in vector.position] == list(scalar.position)
        assert np.broadcast_to(vector.points, choices.shape)[i] == scalar.points
        assert np.broadcast_to(vector.extra, choices.shape)[i] == scalar.extra
        assert vector.fired.keys() == scalar.fired.keys()
        for kind, fired in scalar.fired.items():
            assert np.broadcast_to(vector.fired[kind], choices.shape)[i] == fired
            if fired and kind in scalar.values:
                assert np.broadcast_to(vector.values[kind], choices.shape)[i] == scalar.values[kind]
