"""One vocabulary for players in every `hog` command: `perfect` is the full-state perfect player,
`best-table` the best score-only table; the old, ambiguous `optimal` is refused with the two new names."""

import io
import json
import sys
from pathlib import Path

import pytest

from hogengine.cli import main
from hogengine.solver import exact_winrate, solve
from hogengine.strategies import always_roll, table_from_function


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    "command",
    [
        ["winrate", "--goal", "15", "optimal", "always:5"],
        ["tournament", "--goal", "15", "optimal", "always:5"],
        ["simulate", "games", "optimal", "always:5", "--games", "2"],
        ["play", "--vs", "optimal"],
    ],
    ids=lambda command: command[0],
)
def test_optimal_is_refused_with_the_two_names_that_replace_it(capsys, monkeypatch, command) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, _, err = run(capsys, *command)
    assert status == 1 and "Traceback" not in err
    assert "'optimal' is no longer a player: say best-table or perfect." in err


def test_winrate_takes_the_perfect_player_with_its_hidden_state(capsys) -> None:
    """Under pork-chop the perfect player sees who spent the Pork Chop: it is the solver's own policy."""
    status, out, _ = run(
        capsys, "winrate", "--rules", "pork-chop", "--goal", "15", "perfect", "always:4", "--json"
    )
    assert status == 0
    four = table_from_function(always_roll(4), "pork-chop")
    expected = exact_winrate("pork-chop", solve("pork-chop", 15).policy, four, 15)
    assert json.loads(out)["average"] == pytest.approx(expected.average, abs=1e-12)
    best = run(capsys, "winrate", "--rules", "pork-chop", "--goal", "15", "best-table", "perfect", "--json")
    assert json.loads(best[1])["average"] < 0.5  # no score-only table beats the perfect player on average


def test_a_tournament_of_score_only_entries_explains_why_perfect_cannot_enter(capsys) -> None:
    status, _, err = run(capsys, "tournament", "--goal", "15", "perfect", "always:5")
    assert status == 1
    assert "perfect sees the hidden state a score-only strategy cannot" in err and "best-table" in err


def test_simulated_games_of_the_perfect_player_win_its_exact_rate(capsys) -> None:
    """Live games show the hidden state, so the perfect player plays its full-state policy there too."""
    args = ["--rules", "pork-chop", "--goal", "30", "perfect", "always:4", "--games", "4000", "--seed", "1"]
    status, out, _ = run(capsys, "simulate", "games", *args, "--json")
    assert status == 0
    report = json.loads(out)
    four = table_from_function(always_roll(4), "pork-chop")
    exact = exact_winrate("pork-chop", solve("pork-chop", 30).policy, four, 30).average
    assert abs(report["win_rate"] - exact) < 4.5 * report["standard_error"]


EVERY = "perfect, best-table, course, always:N, FILE.json, FILE.py"


@pytest.mark.parametrize(
    ("command", "names"),
    [
        (["play", "--vs", "wizard"], f"human, {EVERY}"),
        (["winrate", "--goal", "15", "wizard", "always:5"], EVERY),
        (["simulate", "games", "always:5", "wizard"], EVERY),
        (["tournament", "--goal", "15", "always:5", "wizard"], EVERY),
    ],
    ids=["play", "winrate", "simulate", "tournament"],
)
def test_an_unknown_player_is_told_every_name_the_command_takes(capsys, monkeypatch, command, names) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, err = run(capsys, *command)
    assert (status, out) == (1, "")
    assert err == f"hog {command[0]}: Unknown strategy 'wizard': use one of {names}.\n"


@pytest.mark.parametrize("name", ["gone.py", "gone.json"])
@pytest.mark.parametrize(
    "command",
    [
        ["play", "--vs", "{}"],
        ["winrate", "--goal", "15", "{}", "always:5"],
        ["simulate", "games", "always:5", "{}"],
        ["tournament", "--goal", "15", "always:5", "{}"],
        ["check", "{}"],
    ],
    ids=lambda command: command[0],
)
def test_a_missing_file_is_the_same_line_and_status_in_every_command(
    capsys, monkeypatch, tmp_path: Path, command: list[str], name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, err = run(capsys, *(part.format(name) for part in command))
    assert (status, out) == (1, "")
    assert err == f"hog {command[0]}: Cannot read the strategy file '{name}': No such file or directory.\n"


def test_play_takes_the_best_table_and_a_strategy_file(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n" * 40))
    status, out, _ = run(capsys, "play", "--goal", "15", "--vs", "best-table", "--seed", "00")
    assert status == 0 and "Player 1 (best-table) chooses" in out
    mine = tmp_path / "mine.py"
    mine.write_text("def final_strategy(score, opponent_score):\n    return 3\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n" * 40))
    status, out, _ = run(capsys, "play", "--goal", "15", "--vs", str(mine), "--seed", "00")
    assert status == 0 and f"Player 1 ({mine}) chooses 3." in out


def test_a_tournament_needs_two_entries(capsys) -> None:
    status, out, err = run(capsys, "tournament", "--goal", "15", "always:4")
    assert (status, out) == (1, "")
    assert err == "hog tournament: A tournament needs at least two entries, not 1.\n"


def test_a_cache_that_is_not_a_folder_is_said_once_and_the_command_still_answers(
    capsys, monkeypatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HOG_CACHE_DIR", str(blocker))
    status, out, err = run(capsys, "winrate", "--goal", "15", "best-table", "always:5", "--json")
    assert status == 0 and 0 < json.loads(out)["average"] < 1
    assert err.startswith("hog: the cache '/") and err.count("is not a folder: results are not kept.\n") == 1


def test_hog_play_records_its_commitment_and_replay_checks_it(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("5\n" * 40))
    status, out, _ = run(capsys, "play", "--goal", "15", "--vs", "always:4", "--seed", "00ff")
    assert status == 0
    shown = out.split("Dice commitment (SHA-256 of the secret seed, revealed at the end): ")[1].split()[0]
    record = json.loads(out.split("Check the game: echo '")[1].split("' | ")[0])
    assert record["commitment"] == shown
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(record).encode())))
    assert run(capsys, "replay")[0] == 0
    record["commitment"] = "0" * 64
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(record).encode())))
    status, _, err = run(capsys, "replay")
    assert status == 1 and "The seed does not match the commitment" in err
