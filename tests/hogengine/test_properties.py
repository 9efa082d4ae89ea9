"""Properties every rule set keeps, checked on random games (hypothesis)."""

import json
from dataclasses import replace
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hogengine.errors import BadRolls
from hogengine.events import EventKind
from hogengine.game import State, dice_for, dice_rules, legal_choices, new_game, resolve
from hogengine.replay import load_record, replay, to_record
from hogengine.rules import RULE_SETS, get_rules
from hogengine.rules.pork_chop import SPENT

RULES = [rules.id for rules in RULE_SETS]
per_rule_set = pytest.mark.parametrize("rules", RULES)
seeds = st.integers(0, 2**32)


@st.composite
def states(draw: st.DrawFn, rules: str) -> State:
    """Any state a game of these rules can reach: scores below the goal, and the hidden parts these rules
    keep (a Pork Chop spent per player; Pig Fest streaks and Ham Hijinks exchanges) anywhere in range."""
    goal = draw(st.integers(1, 100))
    scores = (draw(st.integers(0, goal - 1)), draw(st.integers(0, goal - 1)))
    state = new_game(rules, goal, scores, draw(st.integers(0, 1)))
    values = {}
    for part in state.ruleset.hidden_parts:  # each drawn from the range the rule set declares
        value = st.integers(part.values[0], min(part.values[-1], 9))
        values[part.name] = (draw(value), draw(value)) if part.per_seat else draw(value)
    return state.with_hidden(values)


@st.composite
def moves(draw: st.DrawFn, state: State) -> tuple[int, list[int]]:
    """A legal choice in this state and outcomes that fit its dice."""
    choice = draw(st.sampled_from(legal_choices(state)))
    count, sides = dice_for(state, choice)
    return choice, draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))


@per_rule_set
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_turn_takes_exactly_its_dice_each_on_the_die(rules, data):
    state = data.draw(states(rules))
    choice, rolls = data.draw(moves(state))
    sides = dice_for(state, choice)[1]
    assert resolve(state, choice, rolls).outcomes == tuple(rolls)
    with pytest.raises(BadRolls):
        resolve(state, choice, [*rolls, 1])
    if rolls:
        with pytest.raises(BadRolls):
            resolve(state, choice, rolls[1:])
        with pytest.raises(BadRolls):
            resolve(state, choice, [*rolls[1:], data.draw(st.sampled_from([0, sides + 1]))])


@per_rule_set
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_the_rules_named_for_the_dice_are_the_ones_that_set_them(rules, data):
    """Each rule dice_rules names swaps six-sided dice for four-sided ones or back, so they say why."""
    state = data.draw(states(rules))
    named = dice_rules(state)
    assert set(named) <= {EventKind.HOG_WILD, EventKind.HAM_HIJINKS}
    assert dice_for(state, 1)[1] == (4 if len(named) % 2 else 6)


@per_rule_set
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_turn_adds_a_point_to_the_total_but_a_pork_chop_which_spends_the_movers_flag(rules, data):
    state = data.draw(states(rules))
    result = resolve(state, *data.draw(moves(state)))
    before, after = sum(state.scores), sum(result.after.scores)
    if EventKind.PORK_CHOP in [event.kind for event in result.events]:
        assert after == before
        spent = (state.hidden_value(SPENT, state.mover), result.after.hidden_value(SPENT, state.mover))
        assert spent == (0, 1)
    else:
        assert after >= before + 1
        if SPENT in state.ruleset.hidden_parts:
            assert result.after.hidden_by_name()["pork_chop"] == state.hidden_by_name()["pork_chop"]


@per_rule_set
@settings(max_examples=50, deadline=None)
@given(data=st.data(), seed=seeds)
def test_every_game_ends_from_any_state(random_games, rules, data, seed):
    """random_games fails a game that outlasts the turns its goal allows, so none can run forever."""
    results = random_games(data.draw(states(rules)), Random(seed))
    assert results[-1].after.over
    assert all(not result.before.over for result in results)


@per_rule_set
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=seeds, dice_seed=st.binary(min_size=1, max_size=32))
def test_a_game_replays_from_its_json_record_by_its_rolls_and_by_its_seed(
    random_games, rules, data, seed, dice_seed
):
    goal = data.draw(st.integers(1, 100))
    scores = (data.draw(st.integers(0, goal - 1)), data.draw(st.integers(0, goal - 1)))
    start = new_game(rules, goal, scores, data.draw(st.integers(0, 1)))
    results = random_games(start, Random(seed), seed=dice_seed)
    for revealed in (None, dice_seed):
        record = load_record(json.dumps(to_record(start, results, revealed)))
        replayed = list(replay(record))
        assert [result.after for result in replayed] == [result.after for result in results]
        assert [result.to_json() for result in replayed] == [result.to_json() for result in results]


@st.composite
def turns(draw: st.DrawFn, rules: str) -> tuple[State, int, list[int]]:
    """A reachable state, a legal choice in it, and dice that fit."""
    state = replace(draw(states(rules)), goal=100)
    choice, rolls = draw(moves(state))
    return state, choice, rolls


@per_rule_set
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
    values = zip(*(position.values() for position in positions), strict=True)
    columns = positions[0].with_values(np.array(field) for field in values)
    vector = ruleset.step(columns, choices, pig_out, rolled, 100)
    count, sides = ruleset.dice(columns, choices)
    for i, position in enumerate(positions):
        scalar = ruleset.step(position, cases[i][1], summaries[i][0], summaries[i][1], 100)
        assert (np.broadcast_to(count, choices.shape)[i], np.broadcast_to(sides, choices.shape)[i]) == tuple(
            ruleset.dice(position, cases[i][1])
        )
        assert [np.broadcast_to(f, choices.shape)[i] for f in vector.position.values()] == list(
            scalar.position.values()
        )
        assert np.broadcast_to(vector.points, choices.shape)[i] == scalar.points
        assert np.broadcast_to(vector.extra, choices.shape)[i] == scalar.extra
        assert vector.fired.keys() == scalar.fired.keys()
        for kind, fired in scalar.fired.items():
            assert np.broadcast_to(vector.fired[kind], choices.shape)[i] == fired
            if fired and kind in scalar.values:
                assert np.broadcast_to(vector.values[kind], choices.shape)[i] == scalar.values[kind]


@per_rule_set
def test_a_vectorised_step_of_no_positions_is_no_results(rules):
    """The rules work on whole arrays of any length, none too: nothing in, nothing out, no error."""
    ruleset = get_rules(rules)
    none = np.array([], dtype=np.int64)
    position = new_game(rules).position()
    empty = position.with_values(none for _ in position.values())
    step = ruleset.step(empty, none, none.astype(bool), none, 100)
    assert [np.shape(field) for field in step.position.values()] == [(0,)] * len(list(position.values()))
    assert np.shape(step.points) == (0,)
    assert np.shape(ruleset.free_bacon(none)) == (0,)
