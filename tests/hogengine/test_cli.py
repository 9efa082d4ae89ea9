"""The `hog` command line as users run it: play through stdin, simulate, failed output; never a traceback."""

import io
import json
import os
import re
import subprocess
import sys
import threading
from itertools import takewhile
from pathlib import Path

import pytest

from hogengine.analysis import coaching
from hogengine.cli import main
from hogengine.cli.play import NOTE_AFTER
from hogengine.cli.progress import Progress
from hogengine.commentary import course_commentary, game_commentary
from hogengine.dice import commitment
from hogengine.game import TurnResult, dice_in_words, new_game
from hogengine.replay import load_record, replay
from hogengine.solver import solve
from tests.hang import HANG

# The contest sample game of seed 000: 14-42 -> 42-21 -> 21-42 -> 42-21 -> 42-22.
SAMPLE = json.loads(Path(__file__).with_name("pork_chop_sample.json").read_text())


def play(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["play", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


SEED = "0123456789abcdef"


def test_play_rejects_bad_input_and_reports_eof_without_a_traceback(monkeypatch, capsys):
    status, out, err = play(monkeypatch, capsys, "three\n11\n\n-1\n", "--seed", SEED, "--vs", "human")
    assert status == 1
    assert "'three' is not a choice: type a whole number from 0 to 10." in out
    assert "'11' is not a choice" in out
    assert "'-1' is not a choice" in out  # swine-align has no -1
    assert err == "hog play: the input ended before the game did.\n"
    assert f"Dice seed: {SEED}" in out  # revealed even when the game is abandoned


def test_ctrl_c_abandons_the_game_but_still_reveals_the_seed_and_the_record(monkeypatch, capsys):
    answers = iter(["4"])

    def keyboard(prompt: str) -> str:
        print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", keyboard)
    status = main(["play", "--seed", SEED, "--vs", "always:5"])
    out, err = capsys.readouterr()
    assert status == 130
    assert err == "hog play: interrupted, the game is abandoned.\n"
    assert f"Dice seed: {SEED}" in out
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record
    assert [turn["choice"] for turn in json.loads(record.group(1))["turns"]][:2] == [4, 5]


def interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("where", "args"),
    [
        ("hogengine.cli.build_parser", ["replay"]),  # Ctrl-C while the commands are still loading
        ("hogengine.cli.simulate.play_match", ["simulate", "games", "always:4", "always:5"]),
        ("hogengine.cli.simulate.average_turn_scores", ["simulate", "turns"]),
    ],
)
def test_ctrl_c_anywhere_exits_130_without_a_traceback(monkeypatch, capsys, where, args):
    monkeypatch.setattr(where, interrupt)
    assert main(args) == 130
    assert capsys.readouterr().err == "\n"


def test_play_against_the_perfect_player_who_plays_the_solvers_best_choice(monkeypatch, capsys):
    status, out, err = play(
        monkeypatch, capsys, "-1\n" + "4\n" * 100, "--rules", "pork-chop", "--goal", "30", "--vs", "perfect"
    )
    assert status == 0, err
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record
    solution = solve("pork-chop", 30)
    theirs = [r for r in replay(load_record(record.group(1))) if r.player == 1]
    assert theirs
    assert [r.choice for r in theirs] == [solution.best_choice(r.before) for r in theirs]
    assert "Player 1 (perfect) chooses" in out


def test_a_slow_solve_for_the_perfect_player_says_what_it_is_doing(monkeypatch, capsys):
    started = []

    class AtOnce(threading.Timer):
        """The note's timer, fired as it starts: the test need not wait NOTE_AFTER seconds for it."""

        def start(self) -> None:
            started.append(self.interval)
            self.function(*self.args, **self.kwargs)

    monkeypatch.setattr("hogengine.cli.play.threading.Timer", AtOnce)
    _, _, err = play(monkeypatch, capsys, "", "--goal", "10", "--vs", "perfect")
    assert started == [NOTE_AFTER]
    assert err.startswith("Working out perfect play for swine-align to 10...\n")


def test_play_help_lists_every_kind_of_opponent(hog):
    done = hog("play", "--help")
    text = " ".join(done.stdout.decode().split())
    for name in ("human", "perfect", "best-table", "always:N", "course", "FILE.json", "FILE.py"):
        assert name in text
    assert (
        "Unknown strategy 'wizard': use one of human, perfect, best-table, course, always:N, FILE.json"
        in hog("play", "--vs", "wizard").stderr.decode()
    )


def test_play_a_whole_game_against_a_strategy_and_check_the_dice(hog, monkeypatch, capsys):
    status, out, err = play(
        monkeypatch, capsys, "4\n" * 200, "--seed", SEED, "--vs", "always:5", "--goal", "40"
    )
    assert status == 0, err
    shown = re.search(r"Dice commitment .*: ([0-9a-f]{64})", out)
    assert shown
    assert shown.group(1) == commitment(bytes.fromhex(SEED))
    assert re.search(r"Player [01] \(.*\) wins, \d+ to \d+\.", out)
    assert "Player 1 (always:5) chooses 5." in out
    assert "Player 0 (you), your choice (0 to 10): " in out
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record
    final = re.search(r"wins, (\d+) to (\d+)\.", out)
    assert final
    replayed = hog("replay", "--json", stdin=record.group(1))
    last = json.loads(replayed.stdout.decode().splitlines()[-1])
    assert last["over"]
    assert last["score"] == [int(final.group(1)), int(final.group(2))]
    winner = re.search(r"(Player [01]) \(.*\) wins, \d+ to \d+\.", out)
    assert winner
    told = hog("replay", stdin=record.group(1)).stdout.decode().splitlines()
    assert told[-1] == f"{winner.group(1)} wins, {final.group(1)} to {final.group(2)}."


def test_the_record_line_works_as_printed_where_hog_is_not_on_the_path():
    """`make play` runs .venv/bin/hog, which the user's shell does not find: the line it prints to check
    the game names the program it came from, and runs as printed in a shell without the venv."""
    program = Path(sys.executable).parent / "hog"
    bare = {"PATH": "/usr/bin:/bin"}
    played = subprocess.run(
        [program, "play", "--seed", SEED, "--vs", "always:5", "--goal", "20"],
        input="4\n" * 100,
        env=bare,
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG,
    )
    line = played.stdout.splitlines()[-1]
    assert line.startswith("Check the game: echo '") and line.endswith(f"' | {program} replay")
    checked = subprocess.run(
        ["sh", "-c", line.removeprefix("Check the game: ")],
        env=bare,
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[-1] == "Player 0 wins, 29 to 2."
    assert "Player 0 (you) wins, 29 to 2." in played.stdout


def test_play_second_against_a_strategy_that_moves_first(monkeypatch, capsys):
    status, out, err = play(
        monkeypatch, capsys, "4\n" * 200, "--seed", SEED, "--vs", "always:5", "--goal", "40", "--second"
    )
    assert status == 0, err
    first_move = out.index("Player 0 (always:5) chooses 5.")
    assert first_move < out.index("Player 1 (you), your choice (0 to 10): ")
    assert "Player 0 (you)" not in out
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record
    assert [turn["choice"] for turn in json.loads(record.group(1))["turns"]][:2] == [5, 4]


def test_play_second_needs_an_opponent_to_move_first(monkeypatch, capsys):
    status, out, err = play(monkeypatch, capsys, "4\n", "--vs", "human", "--second")
    assert (status, out) == (1, "")
    assert err == "hog play: --second seats you as Player 1, but with --vs human both players are people.\n"


def test_the_terminal_counts_in_words_that_agree_with_the_number(monkeypatch, capsys):
    """One die and one point read as such; the commentary keeps the course's exact words, and a Pig Out is
    nothing to celebrate."""
    _, out, _ = play(monkeypatch, capsys, "1\n", "--rules", "pig-fest", "--seed", "00ff", "--vs", "human")
    assert "Player 0 rolls 1 four-sided die: 1\n" in out
    assert "  * Player 0 pigs out (1 point)\n" in out
    assert "Pig Fest: 1 Pig Out in a row, next scoring turn x1" in out
    assert "Player 0 takes the lead by 1" in out  # the course's announce_lead_changes, word for word
    assert "The most yet" not in out


def replayed(out: str) -> list[TurnResult]:
    """The turns of the game `hog play` printed, re-played from the record it reveals at the end."""
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record
    return list(replay(load_record(record.group(1))))


def test_play_says_the_courses_commentary_after_every_turn(monkeypatch, capsys):
    """The course GUI's commentary made true to the turn, as the bot's boards and the page say it: each
    record of points scored first."""
    status, out, err = play(monkeypatch, capsys, "4\n" * 200, "--seed", SEED, "--vs", "always:5")
    assert status == 0, err
    lines = out.splitlines()
    turns = [at for at, line in enumerate(lines) if " Score: " in line]
    scores = [tuple(map(int, re.findall(r"\d+", lines[at].split("Score: ")[1]))) for at in turns]
    said = [tuple(takewhile(bool, lines[at + 1 :])) for at in turns]
    assert said == game_commentary(replayed(out))
    assert said != course_commentary(scores)  # a swap or a Pig Out made the course's version untrue
    assert said[0] == ("Player 0 takes the lead by 1",)  # a first-turn Pig Out: one point, no record


def test_play_board_shows_the_hidden_parts_of_each_rule_set(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "-1\n", "--rules", "pig-fest", "--seed", SEED, "--vs", "human")
    assert "four-sided dice (Hog Wild: 0 + 0 = 0 is a multiple of 7)" in out
    assert "Ham Hijinks: dice exchanged 0 times" in out
    assert "Pig Fest: 0 Pig Outs in a row, next scoring turn x1" in out
    assert "-1: Ham Hijinks" in out
    assert "six-sided dice (Hog Wild: 1 + 0 = 1" not in out
    assert "the dice were exchanged 1 time, an odd number" in out
    _, out, _ = play(monkeypatch, capsys, "-1\n-1\n-1\n", "--rules", "sp17", "--seed", SEED, "--vs", "human")
    assert "Pork Chop: ready" in out
    assert "Player 0 plays Pork Chop" in out
    assert "Choices: -1: Roll 10 (-1) | 0: Free Bacon (+" in out  # what -1 does once the chop is spent
    _, out, _ = play(monkeypatch, capsys, "", "--rules", "pig-fest", "--vs", "human", "--seed", SEED)
    assert "Choices: -1: Ham Hijinks | 0: Free Bacon (+1) | 1 to 10 dice" in out


def test_play_board_says_every_rule_that_chose_the_dice():
    state = new_game("pig-fest", 100, (3, 4)).with_hidden({"exchanges": 1})  # Hog Wild, exchanged back
    assert dice_in_words(state) == (
        "six-sided dice (Hog Wild: 3 + 4 = 7 is a multiple of 7;"
        " the dice were exchanged 1 time, an odd number)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vs", "always:11"], "11 is not a legal choice"),
        (["--vs", "wizard"], "Unknown strategy"),
        (["--rules", "nope"], "Unknown rules"),
        (["--goal", "0"], "goal"),
        (["--seed", "xyz"], "hex"),
    ],
)
def test_play_option_errors_are_one_line(hog, args, message):
    done = hog("play", *args, stdin="")
    assert done.returncode == 1
    assert done.stderr.decode().count("\n") == 1
    assert message in done.stderr.decode()
    assert "Traceback" not in done.stderr.decode()


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--vs", "always:--1"],
        ["play", "--vs", "always:\u00b2"],
        ["simulate", "games", "always:--1", "always:4"],
        ["simulate", "games", "always:4", "always:" + "7" * 5000],
    ],
)
def test_a_strategy_that_is_not_always_a_whole_number_is_one_line(hog, args):
    done = hog(*args)
    stderr = done.stderr.decode()
    assert done.returncode == 1
    assert stderr.count("\n") == 1
    assert "always:N needs a whole number N, such as always:4" in stderr
    assert len(stderr) < 200


def test_play_takes_a_line_that_is_not_text_as_a_bad_choice():
    done = subprocess.run(
        [sys.executable, "-m", "hogengine", "play", "--seed", "00", "--vs", "human"],
        input=b"\xff\xfe\n2\n",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        check=False,
        timeout=HANG,
    )
    out = done.stdout.decode()
    assert done.returncode == 1  # the input ends before the game does
    assert done.stderr == b"hog play: the input ended before the game did.\n"
    assert "That line is not readable text: type a whole number from 0 to 10." in out
    assert "Player 0 rolls 2 six-sided dice" in out  # the next line still counts


def test_play_with_standard_input_closed_ends_as_input_that_ran_out(hog):
    done = hog("play", "--seed", SEED, "--vs", "always:4", closed=0)
    assert done.returncode == 1
    assert done.stderr == b"hog play: the input ended before the game did.\n"
    assert f"Dice seed: {SEED}".encode() in done.stdout


@pytest.mark.parametrize(
    "args",
    [["replay"], ["play", "--seed", SEED], ["simulate", "turns", "--trials", "5"], ["solve", "--goal", "5"]],
)
def test_every_command_started_with_standard_output_closed_says_so_on_stderr(hog, args):
    done = hog(*args, stdin=json.dumps(SAMPLE), closed=1)
    assert done.returncode == 1
    assert done.stderr.decode() == f"hog {args[0]}: cannot write the output: standard output is closed\n"


def test_output_an_ascii_terminal_cannot_show_is_escaped_not_a_crash(hog):
    done = hog("simulate", "games", "always:4", "always:5", "--games", "10", "--seed", "1", encoding="ascii")
    assert done.returncode == 0, done.stderr
    assert "% \\xb1 " in done.stdout.decode()  # the ± of the win rate's margin


def test_play_through_a_pipe_never_shows_a_traceback(hog):
    done = hog("play", "--seed", SEED, stdin="x\n" * 3 + "5\n")
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr
    assert b"not a choice" in done.stdout


def test_simulate_turns_json(capsys):
    assert (
        main(["simulate", "turns", "--rules", "piggy-back", "--trials", "50", "--seed", "1", "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert [row["dice"] for row in report["averages"]] == list(range(11))
    assert report["best"] == max(report["averages"], key=lambda row: (row["average"], -row["dice"]))["dice"]
    assert report["seed"] == "1"
    main(["simulate", "turns", "--rules", "piggy-back", "--trials", "50", "--seed", "1", "--json"])
    assert json.loads(capsys.readouterr().out) == report  # the same seed repeats the run


def test_simulate_turns_from_fixed_scores_for_humans(capsys):
    assert main(["simulate", "turns", "--trials", "20", "--score", "0", "42"]) == 0
    out = capsys.readouterr().out
    assert "from 0-42" in out
    assert "\n     0    12.00" in out  # Free Bacon against 42 is always 12


def test_simulate_games_json(capsys):
    args = ["simulate", "games", "always:4", "always:5", "--games", "200", "--seed", "7", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 200
    assert report["win_rate"] == report["wins"] / 200
    assert abs(report["win_rate"] - 0.463) < 4 * report["standard_error"] + 0.01


def test_simulate_games_with_a_table_file(tmp_path, capsys):
    path = tmp_path / "zeros.json"
    path.write_text(json.dumps([[0] * 100] * 100))
    assert (
        main(["simulate", "games", str(path), "course", "--games", "10", "--seed", "x", "--rules", "sp16"])
        == 0
    )
    assert "beat course in" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "turns", "--trials", "9" * 5000],
        ["simulate", "turns", "--score", "1", "x" * 50_000],
        ["simulate", "games", "always:4", "always:5", "--goal", "9" * 5000],
        ["play", "--goal", "x" * 50_000],
        ["winrate", "always:4", "always:5", "--goal", "9" * 5000],
        ["check", "strategy.py", "--time-limit", "x" * 50_000],
    ],
)
def test_usage_errors_quote_a_bad_value_briefly(hog, args):
    done = hog(*args)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert len(done.stderr) < 1000


def test_simulate_usage_errors_exit_2(hog):
    done = hog("simulate", "games", "always:4", "always:5", "--games", "0")
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr


def test_progress_bar_waits_a_second_then_draws_and_finishes_the_line():
    now = [0.0]
    stream = io.StringIO()
    with Progress(10, "work", stream=stream, enabled=True, clock=lambda: now[0]) as progress:
        progress.advance(3)
        assert stream.getvalue() == ""
        now[0] = 2.0
        progress.advance(2)
        assert "work [" in stream.getvalue()
        assert "50% 5/10" in stream.getvalue()
    assert stream.getvalue().endswith(" 50% 5/10 ~2s left\n")  # closed early: the last state stays


def test_a_shorter_progress_line_covers_the_longer_one_before_it():
    """`~15s left` then `~5s left`: what a terminal shows after the second carriage return has no
    stray character of the first (no `~5s leftt`)."""
    now = [0.0]
    stream = io.StringIO()
    with Progress(10, "work", stream=stream, enabled=True, delay=0.0, clock=lambda: now[0]) as progress:
        now[0] = 10.0
        progress.advance(1)  # ~90s left
        now[0] = 11.0
        progress.advance(8)  # ~1s left: a line one character shorter
    screen = ""
    for part in stream.getvalue().rstrip("\n").split("\r")[1:]:  # a terminal, character by character
        screen = part + screen[len(part) :]
    assert screen.rstrip().endswith(" 90% 9/10 ~1s left")


def test_progress_bar_is_silent_off_a_terminal():
    stream = io.StringIO()
    with Progress(10, "work", stream=stream, delay=0.0) as progress:
        progress.advance(10)
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("args", "label", "total"),
    [
        (["simulate", "games", "always:4", "always:5", "--games", "30"], "simulate games", 30),
        (["simulate", "turns", "--trials", "3"], "simulate turns", 33),  # 3 turns for each of 0..10 dice
    ],
)
def test_simulate_draws_its_progress_bar_to_the_end_on_a_terminal(monkeypatch, capsys, args, label, total):
    """On a terminal, a run that outlasts the bar's delay (none here) is drawn, and finished at its total."""
    stream = io.StringIO()

    class OnATerminal(Progress):
        def __init__(self, total: int, label: str) -> None:
            super().__init__(total, label, stream=stream, enabled=True, delay=0.0)

    monkeypatch.setattr("hogengine.cli.simulate.Progress", OnATerminal)
    assert main([*args, "--seed", "1"]) == 0
    assert stream.getvalue().startswith(f"\r{label} [")
    assert stream.getvalue().endswith(f"100% {total}/{total} ~0s left\n")


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["replay"], json.dumps(SAMPLE)),
        (["play", "--seed", SEED, "--vs", "always:4"], "4\n"),
        (["simulate", "turns", "--trials", "5", "--seed", "1"], ""),
        (["simulate", "games", "always:4", "always:5", "--games", "5", "--json"], ""),
    ],
)
@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["unbuffered", "block-buffered"])
def test_output_that_cannot_be_written_is_one_line_and_a_failure(args, stdin, unbuffered):
    """`hog ... > /dev/full`: every command reports the failed write once, on stderr, and exits 1, whether
    Python buffers its output or not (a bare environment has no PYTHONUNBUFFERED)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "hogengine", *args],
            env={**env, "PYTHONUNBUFFERED": unbuffered} if unbuffered else env,
            input=stdin.encode(),
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
            timeout=HANG,
        )
    assert done.stderr.decode() == f"hog {args[0]}: cannot write the output: No space left on device\n"
    assert done.returncode == 1


def test_play_coach_speaks_once_the_opponent_has_moved_and_sums_up(monkeypatch, capsys, hog_cache):
    status, out, err = play(monkeypatch, capsys, "5\n" * 200, "--seed", SEED, "--vs", "always:4", "--coach")
    assert status == 0, err
    lines = out.splitlines()
    said = [(at, line.removeprefix("Coach: ")) for at, line in enumerate(lines) if line.startswith("Coach: ")]
    results = replayed(out)
    expected = [advice.text for advice in coaching(solve("swine-align", 100, hog_cache), results, [0])]
    assert expected and [text for _, text in said[:-1]] == expected  # the solver's grades, each said once
    assert said[-1][1].startswith("Your game against perfect play: accuracy ")
    for at, text in said[:-1]:
        turn = int(text.split(":")[0].removeprefix("Turn "))
        board = lines.index(next(line for line in lines if line.startswith(f"--- Turn {turn} - ")))
        since = lines[board:at]  # the opponent has moved since, or the game is over
        assert any(line.startswith("Player 1 (always:4) chooses") or line.endswith(" wins") for line in since)


def test_play_without_the_coach_says_nothing_of_it(monkeypatch, capsys):
    _, out, _ = play(monkeypatch, capsys, "5\n" * 200, "--seed", SEED, "--vs", "always:4")
    assert "Coach" not in out and "--- Turn 1 - " in out
