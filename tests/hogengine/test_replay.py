"""The replay contract as a library: strict parsing, per-turn errors, seeds and commitments."""

import io
import json
from pathlib import Path
from random import Random

import pytest

from hogengine.dice import commitment, seeded_rolls
from hogengine.errors import BadRolls, BadState, GameOver, HogError, IllegalChoice, UnknownRules
from hogengine.game import new_game
from hogengine.replay import (
    MAX_RECORD_BYTES,
    BadReplay,
    load_record,
    parse_record,
    parse_seed,
    read_record,
    replay,
    to_record,
)

# The contest sample game of seed 000: 14-42 -> 42-21 -> 21-42 -> 42-21 -> 42-22.
SAMPLE = json.loads(Path(__file__).with_name("pork_chop_sample.json").read_text())


def lines(record):
    return [result.to_json() for result in replay(parse_record(record))]


def test_the_pork_chop_sample_game_replays_to_the_contract_shape():
    out = lines(SAMPLE)
    assert [line["score"] for line in out] == [[42, 21], [21, 42], [42, 21], [42, 22]]
    assert out[3] == {
        "turn": 3,
        "player": 1,
        "choice": -1,
        "dice": 10,
        "sides": 4,
        "rolls": [1, 2, 2, 2, 2, 2, 2, 2, 2, 2],
        "points": 1,
        "score": [42, 22],
        "next": 0,
        "over": False,
        "events": [
            {"kind": "hog_wild", "player": 1, "value": 4},
            {"kind": "pig_out", "player": 1, "value": 1},
        ],
    }


def test_defaults_and_mover():
    (line,) = lines({"rules": "fa20", "mover": 1, "turns": [{"choice": 0, "rolls": []}]})
    assert (line["player"], line["score"]) == (1, [0, 6])


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"rules": "nope"}, UnknownRules, "Unknown rules 'nope'"),
        ({"rules": 3}, BadReplay, "rule set id"),
        ({"goal": True}, BadReplay, "goal"),
        ({"goal": 101}, BadState, "goal"),
        ({"score": [1, 2, 3]}, BadReplay, "two whole numbers"),
        ({"score": [1, False]}, BadReplay, "two whole numbers"),
        ({"score": [100, 0]}, BadState, "Starting scores"),
        ({"mover": 2}, BadState, "0 or 1"),
        ({"mover": "0"}, BadReplay, "mover"),
        ({"turns": {}}, BadReplay, "list of turns"),
        ({"extra": 1}, BadReplay, "Unexpected key"),
        ({"seed": ""}, BadReplay, "hex"),
        ({"seed": "xyz"}, BadReplay, "hex"),
        ({"commitment": "00"}, BadReplay, "only be checked with"),
    ],
)
def test_record_level_errors(change, error, message):
    with pytest.raises(error, match=message):
        lines({**SAMPLE, **change})


def test_missing_keys_are_named():
    with pytest.raises(BadReplay, match="'rules', 'turns'"):
        parse_record({})
    with pytest.raises(BadReplay, match="JSON object"):
        parse_record([])


def with_turn(index, turn):
    turns = list(SAMPLE["turns"])
    turns[index] = turn
    return {**SAMPLE, "turns": turns}


@pytest.mark.parametrize(
    ("record", "error", "message"),
    [
        (with_turn(2, {"choice": 11, "rolls": []}), IllegalChoice, "turn 3: 11 is not a legal choice"),
        (with_turn(1, {"choice": 2, "rolls": [3]}), BadRolls, "turn 2: Choice 2 rolls 2 dice, but 1"),
        (with_turn(0, {"choice": 1, "rolls": [5]}), BadRolls, "turn 1: 5 is not an outcome of a 4-sided die"),
        (with_turn(3, {"choice": True, "rolls": []}), BadReplay, "turn 4: the choice must be a whole number"),
        (with_turn(3, {"choice": 1.0, "rolls": [2]}), BadReplay, "turn 4: the choice must be a whole number"),
        (with_turn(1, {"choice": 1}), BadReplay, 'turn 2: missing "rolls"'),
        (with_turn(1, {"rolls": []}), BadReplay, 'turn 2: missing "choice"'),
        (with_turn(1, {"choice": 1, "rolls": [True]}), BadReplay, "turn 2: the rolls must be a list"),
        (with_turn(1, {"choice": 1, "rolls": "2"}), BadReplay, "turn 2: the rolls must be a list"),
        (with_turn(1, {"choice": 1, "rolls": [2], "note": 1}), BadReplay, "turn 2: unexpected key"),
        (with_turn(1, [1, [2]]), BadReplay, "turn 2: a turn is an object"),
    ],
)
def test_turn_errors_name_the_turn(record, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        lines(record)


def test_a_turn_after_the_game_ended_is_refused():
    record = {"rules": "swine-align", "score": [94, 50], "turns": [{"choice": 1, "rolls": [6]}] * 2}
    with pytest.raises(GameOver, match="turn 2: The game is over"):
        lines(record)


def test_turns_before_an_error_are_yielded():
    record = with_turn(3, {"choice": -1, "rolls": []})
    results = replay(parse_record(record))
    assert [next(results).after.scores for _ in range(3)] == [(42, 21), (21, 42), (42, 21)]
    with pytest.raises(BadRolls, match="turn 4"):
        next(results)


def test_a_record_that_gives_a_key_twice_is_refused_not_read_one_way():
    with pytest.raises(BadReplay, match="The record gives the key 'rules' twice"):
        load_record('{"rules": "fa20", "rules": "sp17", "turns": []}')


def test_load_record_errors_are_hog_errors():
    for text in ["", "[1", "{" * 100_000, '{"rules": "fa20", "turns": [{"choice": 1' + "0" * 5000 + "}]}"]:
        with pytest.raises(HogError):
            list(replay(load_record(text)))


SEED = bytes(range(32))


def seeded_record(choices, **extra):
    return {"rules": "pig-fest", "seed": SEED.hex(), "turns": [{"choice": c} for c in choices], **extra}


def test_a_seed_supplies_every_turns_rolls():
    out = lines(seeded_record([3, -1, 2]))
    assert out[0]["rolls"] == seeded_rolls(SEED, 0, 3, 4)
    assert out[2]["rolls"] == seeded_rolls(SEED, 2, 2, out[2]["sides"])


def test_rolls_given_with_a_seed_must_be_the_seeds():
    good = seeded_record([3])
    good["turns"][0]["rolls"] = seeded_rolls(SEED, 0, 3, 4)
    assert len(lines(good)) == 1
    bad = seeded_record([3])
    bad["turns"][0]["rolls"] = [roll % 4 + 1 for roll in good["turns"][0]["rolls"]]  # each one different
    with pytest.raises(BadReplay, match="turn 1: the rolls"):
        lines(bad)


def test_the_commitment_must_be_the_seeds_sha256():
    assert len(lines(seeded_record([3], commitment=commitment(SEED).upper()))) == 1
    with pytest.raises(BadReplay, match="does not match the commitment"):
        lines(seeded_record([3], commitment=commitment(b"other")))


def test_parse_seed():
    assert parse_seed("00ff") == b"\x00\xff"
    for bad in ["0", "", "zz", "00 ff", " 00", "00\n", "0x00", 12, None]:
        with pytest.raises(BadReplay):
            parse_seed(bad)


@pytest.mark.parametrize("seeded", [False, True])
def test_to_record_round_trips_through_json(random_games, seeded):
    results = random_games("pork-chop", Random(9), seed=SEED if seeded else None)
    record = json.loads(json.dumps(to_record(results[0].before, results, SEED if seeded else None)))
    assert [r.after for r in replay(parse_record(record))] == [r.after for r in results]


def test_a_boolean_is_not_a_seat():
    with pytest.raises(BadState, match="0 or 1"):
        new_game("swine-align", mover=True)  # type: ignore[arg-type]


def test_a_record_is_read_up_to_its_limit_and_no_further():
    longest = b" " * (MAX_RECORD_BYTES - 2) + b"{}"
    assert read_record(io.BytesIO(longest)) == longest
    endless = io.BufferedReader(io.FileIO("/dev/zero"))
    with endless, pytest.raises(BadReplay, match="larger than 256 KiB: no game record is that long"):
        read_record(endless)
