"""`hog replay` as users run it: the contract's output, and every bad record one line naming its turn."""

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from hogengine.replay import MAX_RECORD_BYTES
from tests.hang import HANG

# The contest sample game of seed 000: 14-42 -> 42-21 -> 21-42 -> 42-21 -> 42-22.
SAMPLE = json.loads(Path(__file__).with_name("pork_chop_sample.json").read_text())


def test_replay_of_the_pork_chop_sample_game(hog):
    done = hog("replay", "--json", stdin=json.dumps(SAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    out = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [line["score"] for line in out] == [[42, 21], [21, 42], [42, 21], [42, 22]]
    assert [line["turn"] for line in out] == [0, 1, 2, 3]


def test_replay_tells_the_sample_game_in_words_by_default(hog):
    done = hog("replay", stdin=json.dumps(SAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "Re-playing Pork Chop (CS 61A Spring 2017 contest), first to 100, with its recorded dice.",
        "Score: 14 to 42, Player 0 to move.",
        "",
        "Turn 1: Player 0 chooses Free Bacon.",
        "  * Player 0 takes Free Bacon for 5",
        "  * Hogtimus Prime boosts the turn to 7",
        "  * Swine Swap: the scores trade places",
        "Player 0 scores 7. Score: 42 to 21.",
        "",
        "Turn 2: Player 1 chooses Pork Chop.",
        "  * Player 1 plays Pork Chop: the scores trade places",
        "Player 1 scores 0. Score: 21 to 42.",
        "",
        "Turn 3: Player 0 chooses Pork Chop.",
        "  * Player 0 plays Pork Chop: the scores trade places",
        "Player 0 scores 0. Score: 42 to 21.",
        "",
        "Turn 4: Player 1 chooses Roll 10 (-1).",
        "Player 1 rolls 10 four-sided dice: 1 2 2 2 2 2 2 2 2 2",
        "  * Hog Wild: 4-sided dice",
        "  * Player 1 pigs out (1 point)",
        "Player 1 scores 1. Score: 42 to 22.",
        "",
        "The game is not over: 42 to 22, Player 0 to move.",
    ]


def test_replay_in_words_shows_the_turns_before_one_it_cannot_replay(hog):
    done = hog("replay", stdin=turn_replaced(2, {"choice": 12, "rolls": []}))
    assert done.returncode == 1
    assert done.stdout.decode().splitlines()[-1] == "Player 1 scores 0. Score: 21 to 42."
    assert (
        done.stderr.decode()
        == "hog replay: turn 3: 12 is not a legal choice under pork-chop: choose -1 to 10.\n"
    )


def turn_replaced(index: int, turn: object) -> str:
    turns = list(SAMPLE["turns"])
    turns[index] = turn
    return json.dumps({**SAMPLE, "turns": turns})


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"rules": "pork-chop", "turns": [', "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (json.dumps({**SAMPLE, "rules": "nope\nnope"}), "Unknown rules"),
        (turn_replaced(2, {"choice": 12, "rolls": []}), "turn 3: 12 is not a legal choice"),
        (turn_replaced(1, {"choice": 2, "rolls": [3, 3, 3]}), "turn 2: Choice 2 rolls 2 dice, but 3"),
        (turn_replaced(0, {"choice": 1, "rolls": [6]}), "turn 1: 6 is not an outcome of a 4-sided die"),
        (
            json.dumps({"rules": "fa20", "score": [94, 50], "turns": [{"choice": 1, "rolls": [6]}] * 2}),
            "turn 2: The game",
        ),
        (json.dumps({**SAMPLE, "seed": "not hex"}), "hex"),
        (json.dumps({**SAMPLE, "seed": "00"}), "turn 4: the rolls"),
        (turn_replaced(3, {"choice": False, "rolls": []}), "turn 4: the choice must be a whole number"),
    ],
)
def test_replay_errors_are_one_line_naming_the_turn(hog, stdin, message):
    done = hog("replay", stdin=stdin)
    stderr = done.stderr.decode()
    assert done.returncode == 1
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1
    assert stderr.startswith("hog replay: ")
    assert message in stderr


MANY_KEYS = {f"k{index}": 0 for index in range(20_000)}


def one_turn(choice: str, rolls: str = "[]") -> str:
    """A swine-align record of one turn, its numbers written out as given (JSON allows any length)."""
    return '{"rules": "fa20", "turns": [{"choice": ' + choice + ', "rolls": ' + rolls + "}]}"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (one_turn("9" * 600), "turn 1: a 600-digit number is not a legal choice"),
        (one_turn("1", "[" + "9" * 600 + "]"), "turn 1: a 600-digit number is not an outcome"),
        (one_turn("9" * 4000), "The record holds a number 4000 digits long"),
        (one_turn("1" + "0" * 5000), "The record holds a number 5001 digits long"),
        (json.dumps({**SAMPLE, "k" * 100_000: 1}), "'kkkkkkkk"),
        (json.dumps({**SAMPLE, **MANY_KEYS}), "'k0', 'k1', 'k10' and 19997 more"),
        (json.dumps({**SAMPLE, "turns": [{"choice": 1, "x" * 100_000: 1}]}), "turn 1: unexpected key"),
        (
            json.dumps({**SAMPLE, "turns": [{"choice": 1, **MANY_KEYS}]}),
            "turn 1: unexpected key(s) 'k0', 'k1', 'k10' and 19997 more.",
        ),
        (
            json.dumps({**SAMPLE, "seed": "00", "turns": [{"choice": 1, "rolls": [1] * 50_000}]}),
            "turn 1: the rolls",
        ),
    ],
)
def test_replay_errors_quote_what_they_reject_briefly(hog, record, message):
    """However long the offending value, the error is one short line that says what was wrong."""
    done = hog("replay", stdin=record)
    stderr = done.stderr.decode()
    assert done.returncode == 1
    assert stderr.count("\n") == 1
    assert message in stderr
    assert len(stderr) < 300
    assert "sys." not in stderr  # nothing about Python's own limits


def fa20(**fields: object) -> str:
    """A swine-align record with these fields (and no turns unless given)."""
    return json.dumps({"rules": "fa20", "turns": [], **fields})


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("", "The record is not valid JSON: Expecting value"),
        ("[" * 100_000, "The record is not valid JSON: it is nested too deeply"),
        (one_turn("NaN"), "turn 1: the choice must be a whole number, not nan"),
        (one_turn("3.0", "[2, 2, 2]"), "turn 1: the choice must be a whole number, not 3.0"),
        (one_turn('"3"', "[2, 2, 2]"), "turn 1: the choice must be a whole number, not '3'"),
        (one_turn("1", "[2.0]"), "turn 1: the rolls must be a list of whole numbers"),
        (one_turn("1", '{"a": 1}'), "turn 1: the rolls must be a list of whole numbers"),
        ('{"rules": "fa20", "goal": Infinity, "turns": []}', '"goal" must be a whole number'),
        (fa20(goal=-5), "The goal must be a whole number from 1 to 100"),
        (fa20(goal=0), "The goal must be a whole number from 1 to 100"),
        (fa20(goal=101), "The goal must be a whole number from 1 to 100"),
        (fa20(score=[0, 100]), "Starting scores must be whole numbers from 0 to 99"),
        ('{"rules": "fa20", "rules": "sp17", "turns": []}', "The record gives the key 'rules' twice"),
        ('{"rules": "fa20", "turns": [{"choice": 1, "choice": 2}]}', "gives the key 'choice' twice"),
        (fa20(seed="ab cd"), "The seed must be a non-empty string of hex digits"),
        (fa20(seed="abc"), "The seed must be a non-empty string of hex digits"),
        (" " * MAX_RECORD_BYTES + fa20(), "The record is larger than 256 KiB: no game record is that long"),
    ],
)
def test_hostile_records_are_one_line_and_exit_1(hog, record, message):
    done = hog("replay", stdin=record)
    stderr = done.stderr.decode()
    assert done.returncode == 1
    assert stderr.startswith("hog replay: ")
    assert stderr.count("\n") == 1
    assert message in stderr


def test_replay_with_standard_input_closed_says_so(hog):
    done = hog("replay", closed=0)
    assert done.returncode == 1
    assert done.stderr == b"hog replay: There is no record to read: standard input is closed.\n"


def test_replay_takes_a_record_that_starts_with_a_byte_order_mark(hog):
    done = hog("replay", "--json", stdin=b"\xef\xbb\xbf" + json.dumps(SAMPLE).encode())
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.decode().splitlines()) == len(SAMPLE["turns"])


def test_output_cut_short_by_the_reader_ends_quietly():
    """`hog replay | head`: once the reader has gone, hog stops without a traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hogengine", "replay"],
            input=json.dumps(SAMPLE).encode(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            check=False,
            timeout=HANG,
        )
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode == 141


def test_replay_takes_a_file_as_it_takes_standard_input(hog, tmp_path: Path):
    """`hog replay FILE`, as `hog gui --replay FILE` and `hog tournament --replay FILE` take one; `-` is
    standard input."""
    path = tmp_path / "hog-game.json"
    path.write_text(json.dumps(SAMPLE))
    piped = hog("replay", "--json", stdin=json.dumps(SAMPLE))
    assert hog("replay", "--json", str(path)).stdout == piped.stdout
    assert hog("replay", "--json", "-", stdin=json.dumps(SAMPLE)).stdout == piped.stdout
    missing = hog("replay", str(tmp_path / "gone.json"))
    assert missing.returncode == 1
    said = missing.stderr.decode()
    assert said.startswith("hog replay: cannot use '") and said.endswith(": No such file or directory\n")


def test_a_tournament_record_is_named_with_the_command_that_replays_it(hog, tmp_path: Path):
    path = tmp_path / "contest.json"
    path.write_text(json.dumps({"record": "hog tournament record", "rules": "pig-fest", "entries": []}))
    done = hog("replay", str(path))
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "hog replay: This is a tournament record, not a game record:"
        " `hog tournament --replay FILE` plays it again.\n"
    )


def test_replay_at_a_terminal_says_what_it_waits_for():
    """Typed alone at a terminal, `hog replay` says it reads a record from standard input before it waits."""
    main, child = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "hogengine", "replay", "--json"],
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        os.close(child)
        assert process.stderr is not None and process.stdout is not None
        # Said before it reads: the record is not typed yet (a silent wait fails once HANG has passed).
        assert select.select([process.stderr], [], [], HANG)[0], "hog replay waits without a word"
        said = process.stderr.readline().decode()
        os.write(main, json.dumps(SAMPLE).encode() + b"\n\x04")  # the record, then Ctrl-D
        out, _ = process.communicate(timeout=HANG)
    os.close(main)
    assert said == (
        "hog replay: reading a game record from standard input: paste it, then press Ctrl-D"
        " (or give its file: hog replay FILE.json).\n"
    )
    assert process.returncode == 0
    assert len(out.decode().splitlines()) == len(SAMPLE["turns"])


def test_replay_names_the_players_a_record_gives_and_counts_turns_from_one(hog):
    named = json.dumps({**SAMPLE, "players": ["alice", "Hog Bot (easy)"]})
    lines = hog("replay", stdin=named).stdout.decode().splitlines()
    assert "Turn 1: alice chooses Free Bacon." in lines
    assert "  * alice takes Free Bacon for 5" in lines
    assert "Turn 2: Hog Bot (easy) chooses Pork Chop." in lines
    assert "Player 0" not in "\n".join(lines)


@pytest.mark.parametrize("players", [["alice"], "alice", ["alice", 3], ["alice", ""], ["alice", "x" * 101]])
def test_replay_refuses_players_that_are_not_two_names(hog, players):
    done = hog("replay", stdin=json.dumps({**SAMPLE, "players": players}))
    assert done.returncode == 1 and done.stderr.decode().count("\n") == 1
    assert "name" in done.stderr.decode()
