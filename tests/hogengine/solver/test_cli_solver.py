"""`hog solve`, `hog winrate` and `hog tournament`: human and JSON output, one-line errors."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hogengine.cli import main
from hogengine.solver import best_table, contest_table, exact_winrate
from hogengine.strategies import always_roll, load_table_json, table_from_function

ROOT = Path(__file__).resolve().parents[3]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_winrate_json_is_exactly_the_three_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "winrate", "--rules", "swine-align", "--json", "always:4", "always:5")
    assert status == 0
    figures = json.loads(out)
    assert set(figures) == {"first", "second", "average"}
    assert figures["average"] == pytest.approx(0.463034878620, abs=1e-12)


def test_winrate_reads_json_tables(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "six.json"
    path.write_text(json.dumps([[6] * 100] * 100))
    status, out, _ = run(capsys, "winrate", "--goal", "30", str(path), "always:5")
    assert status == 0 and "average" in out
    six = load_table_json(path, "swine-align")
    five = table_from_function(always_roll(5), "swine-align")
    assert f"{exact_winrate('swine-align', six, five, 30).average:.12f}" in out


@pytest.mark.parametrize(
    ("argument", "words"),
    [("missing.json", "Cannot read"), ("always:11", "not a legal choice"), ("bogus", "Unknown strategy")],
)
def test_bad_strategies_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argument: str, words: str
) -> None:
    status, out, err = run(capsys, "winrate", argument, "always:5")
    assert status == 1 and out == ""
    assert words in err and err.count("\n") == 1


def test_bad_goal_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "winrate", "--goal", "101", "always:4", "always:5")
    assert status == 1 and "goal" in err and err.count("\n") == 1


def test_solve_exports_a_final_strategy_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "final.py"
    status, out, _ = run(
        capsys, "solve", "--rules", "pork-chop", "--goal", "20", "--json", "--export", str(target)
    )
    assert status == 0
    report = json.loads(out)
    assert report["rules"] == "pork-chop" and 0 < report["first_mover"] < 1
    namespace: dict[str, object] = {}
    exec(compile(target.read_text(), str(target), "exec"), namespace)  # our own generated file
    strategy = namespace["final_strategy"]
    assert callable(strategy)
    exported = np.array([[strategy(s, o) for o in range(100)] for s in range(100)], dtype=np.int8)
    np.testing.assert_array_equal(exported, best_table("pork-chop", 20))
    for lint in (["check"], ["format", "--check"]):  # `make test` lints whatever lies in the checkout
        judged = subprocess.run(
            [sys.executable, "-m", "ruff", *lint, "--config", str(ROOT / "pyproject.toml"), str(target)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert judged.returncode == 0, judged.stdout


def test_tournament_prints_standings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    paths = []
    for n in (3, 5, 7):
        paths.append(tmp_path / f"roll{n}.json")
        paths[-1].write_text(json.dumps([[n] * 100] * 100))
    status, out, _ = run(capsys, "tournament", "--goal", "40", "--json", *map(str, paths))
    assert status == 0
    report = json.loads(out)
    assert {row["name"] for row in report["standings"]} == {"roll3", "roll5", "roll7"}
    assert len(report["matches"]) == 3
    status, first, _ = run(
        capsys, "tournament", "--goal", "30", "--format", "sampled", "--seed", "7", *map(str, paths)
    )
    status, again, _ = run(
        capsys, "tournament", "--goal", "30", "--format", "sampled", "--seed", "7", *map(str, paths)
    )
    assert status == 0 and first == again and "seed 7" in first


def test_the_optimal_table_is_made_once_and_kept_on_disk(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second `hog winrate ... optimal` in a fresh process reads the stored table instead of making it."""
    monkeypatch.setenv("HOG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(contest_table, "_MADE", {})
    status, first, _ = run(
        capsys, "winrate", "--rules", "piggy-back", "--goal", "20", "best-table", "always:5"
    )
    kept = sorted(path.name.split("-")[0] for path in tmp_path.iterdir())
    assert status == 0 and kept == ["model", "table"]  # the model too: every call needs it

    def never(*_: object) -> None:
        raise AssertionError("the stored table was not used")

    monkeypatch.setattr(contest_table, "_MADE", {})
    monkeypatch.setattr(contest_table, "_improved", never)
    status, second, _ = run(
        capsys, "winrate", "--rules", "piggy-back", "--goal", "20", "best-table", "always:5"
    )
    assert status == 0 and second == first


def test_a_damaged_stored_table_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(contest_table, "_MADE", {})
    made = best_table("pork-chop", 12, cache_dir=tmp_path)
    (stored,) = tmp_path.iterdir()
    np.savez(stored, table=np.full((100, 100), 11, dtype=np.int8))  # 11 is not a pork-chop choice
    monkeypatch.setattr(contest_table, "_MADE", {})
    assert np.array_equal(best_table("pork-chop", 12, cache_dir=tmp_path), made)


def test_an_empty_cache_setting_keeps_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOG_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(contest_table, "_MADE", {})
    assert run(capsys, "winrate", "--goal", "15", "best-table", "always:5")[0] == 0
    assert not any(tmp_path.iterdir())
