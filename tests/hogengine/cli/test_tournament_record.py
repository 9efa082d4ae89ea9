"""`hog tournament --record FILE` and `--replay FILE`: a tournament with an entry that answers at random
plays again exactly from its record; a record that was changed, or is not one, is refused in one line."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hogengine.cli import main, tournament_record

# Answers at random (accepted under pig-fest only, seed 001): nine tables are recorded of it.
COIN = b"""import random
TEAM_NAME = 'Coin'
def final_strategy(score, opponent):
    return random.randint(2, 6)
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A random entry and two fixed tables, in the working folder (so errors show their short names)."""
    monkeypatch.chdir(tmp_path)
    Path("coin.py").write_bytes(COIN)
    for dice in (4, 5):
        Path(f"roll{dice}.json").write_text(json.dumps([[dice] * 100] * 100))
    return ["coin.py", "roll4.json", "roll5.json"]


SAMPLED = ("tournament", "--rules", "pig-fest", "--goal", "40", "--format", "sampled", "--seed", "7")


@pytest.fixture
def record(capsys: pytest.CaptureFixture[str], files: list[str]) -> Path:
    """The record of a sampled pig-fest tournament with the random entry."""
    path = Path("record.json")
    status, out, _ = run(capsys, *SAMPLED, "--record", str(path), *files)
    assert status == 0 and f"`hog tournament --replay {path}` plays it again" in out
    return path


def test_the_seed_alone_is_said_not_to_replay_a_random_entry(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    status, out, _ = run(capsys, *SAMPLED, *files)
    assert status == 0
    assert out.splitlines()[-1] == (
        "Note: --seed 7 does not replay this tournament: Coin answered at random, with tables drawn for this"
        " run only; --record FILE keeps them for --replay FILE."
    )
    status, out, _ = run(capsys, *SAMPLED, "--json", *files)
    assert json.loads(out)["random_entries"] == ["Coin"]


def test_a_record_replays_every_game_of_a_random_entry(
    capsys: pytest.CaptureFixture[str], record: Path
) -> None:
    kept = json.loads(record.read_text())
    coin = kept["entries"][0]
    assert coin["name"] == "Coin" and len(coin["tables"]) == 9
    assert len({json.dumps(table) for table in coin["tables"]}) > 1  # drawn at random, all kept
    assert [len(entry["tables"]) for entry in kept["entries"][1:]] == [1, 1]
    status, out, _ = run(capsys, "tournament", "--replay", str(record), "--json")
    replayed = json.loads(out)
    assert status == 0 and (replayed["seed"], replayed["rules"], replayed["goal"]) == ("7", "pig-fest", 40)
    assert (replayed["standings"], replayed["matches"]) == (kept["standings"], kept["matches"])
    status, out, _ = run(capsys, "tournament", "--replay", str(record))
    assert status == 0 and out.splitlines()[0] == "sampled tournament under pig-fest to 40 (seed 7)"
    assert out.splitlines()[-1] == f"Replayed {record}: every result is the recorded one."


def test_an_exact_tournament_replays_from_its_record_too(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    """Exact rates of a random entry depend on the table it drew: the record keeps that too."""
    path = Path("exact.json")
    exact = ("tournament", "--rules", "pig-fest", "--goal", "30", "--json")
    status, out, _ = run(capsys, *exact, "--record", str(path), *files)
    first = json.loads(out)
    assert status == 0 and first["seed"] is None and first["record"] == str(path)
    status, out, _ = run(capsys, "tournament", "--replay", str(path), "--json")
    assert status == 0 and json.loads(out)["matches"] == first["matches"]


def test_a_replay_that_differs_from_its_record_fails_saying_where(
    capsys: pytest.CaptureFixture[str], record: Path
) -> None:
    kept = json.loads(record.read_text())
    kept["matches"][1]["a_result"] = 9.0 - kept["matches"][1]["a_result"]
    record.write_text(json.dumps(kept))
    status, out, err = run(capsys, "tournament", "--replay", str(record))
    assert status == 1 and "Replayed" not in out
    assert err == (
        "hog tournament: The replay differs from the record 'record.json': matches[1].a_result: replayed"
        f" {9.0 - kept['matches'][1]['a_result']!r}, recorded {kept['matches'][1]['a_result']!r}.\n"
    )


def test_a_table_changed_in_a_record_is_refused_naming_its_cell(
    capsys: pytest.CaptureFixture[str], record: Path
) -> None:
    kept = json.loads(record.read_text())
    kept["entries"][2]["tables"][0][3][4] = 11
    record.write_text(json.dumps(kept))
    status, out, err = run(capsys, "tournament", "--replay", str(record))
    assert status == 1 and out == ""
    assert err == (
        "hog tournament: 'record.json' is not a usable tournament record: entry 3 ('roll5'): row 3, column 4:"
        " 11 is not a legal choice under pig-fest (-1 to 10).\n"
    )


def entry(record: dict[str, Any], number: int) -> dict[str, Any]:
    """Entry `number` (from 0) of a record."""
    found: dict[str, Any] = record["entries"][number]
    return found


def first_table(record: dict[str, Any]) -> list[list[Any]]:
    """The first table of the record's second entry."""
    table: list[list[Any]] = entry(record, 1)["tables"][0]
    return table


CHANGES: list[tuple[Callable[[dict[str, Any]], object], str | None]] = [
    (lambda r: r.update(record="hog replay"), 'it does not say "record": "hog tournament record".'),
    (lambda r: r.pop("matches"), "its keys must be exactly"),
    (lambda r: r.update(extra=1), "its keys must be exactly"),
    (lambda r: r.update(rules="su15"), "its rules must be a rule set's id."),
    (lambda r: r.update(rules=["pig-fest"]), "its rules must be a rule set's id."),
    (lambda r: r.update(rules="hog"), "Unknown rules 'hog'."),
    (lambda r: r.update(goal=True), "its goal must be a whole number from 1 to 100."),
    (lambda r: r.update(goal=101), "its goal must be a whole number from 1 to 100."),
    (lambda r: r.update(format="swiss"), "its format must be exact or sampled."),
    (lambda r: r.update(seed=None), "a sampled tournament's seed is a string"),
    (lambda r: r.update(seed=7), "a sampled tournament's seed is a string"),
    (lambda r: r["entries"].pop(), None),  # a valid record, but its results are no longer the replay's
    (lambda r: r.update(entries=r["entries"][:1]), "it must list two entries or more."),
    (lambda r: entry(r, 1).update(name="Coin"), "two of its entries have one name."),
    (lambda r: entry(r, 1).update(name=""), "entry 2 has no name."),
    (lambda r: entry(r, 1).update(tables=[]), "entry 2 must have 1 to 9 tables."),
    (lambda r: entry(r, 0)["tables"].append([[4] * 100] * 100), "entry 1 must have 1 to 9 tables."),
    (lambda r: entry(r, 1).update(team="x"), "entry 2 must be an object with a name and its tables."),
    (lambda r: first_table(r).pop(), "entry 2 ('roll4'): A strategy table is a list of 100 rows"),
    (lambda r: first_table(r)[0].append(4), "entry 2 ('roll4'): Row 0 must be a list of 100 choices"),
    (lambda r: first_table(r)[0].__setitem__(0, 4.0), "entry 2 ('roll4'): row 0, column 0: 4.0 is not"),
]


@pytest.mark.parametrize(("change", "reason"), CHANGES)
def test_a_record_that_is_not_one_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
    record: Path,
    change: Callable[[dict[str, Any]], object],
    reason: str | None,
) -> None:
    kept = json.loads(record.read_text())
    change(kept)
    record.write_text(json.dumps(kept))
    status, _, err = run(capsys, "tournament", "--replay", str(record))
    assert status == 1 and err.count("\n") == 1 and err.startswith("hog tournament: ")
    if reason is None:
        assert "The replay differs from the record 'record.json': standings: 2 replayed, 3 recorded" in err
    else:
        assert f"'record.json' is not a usable tournament record: {reason}" in err


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "is not a tournament record: it is not JSON."),
        (b"\xff\xfe[]", "is not a tournament record: it is not JSON."),
        (b'{"record": 1, "record": 2}', "is not a tournament record: it is not JSON."),
        (b"[" * 1000, "is not a tournament record: it is not JSON."),
        (b"[1, 2]", 'is not a usable tournament record: it does not say "record": "hog tournament record".'),
        (b"[" * 2048, "is larger than any tournament record (0 MB)."),
    ],
)
def test_a_file_that_is_no_record_is_refused_without_reading_it_all(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    content: bytes,
    reason: str,
) -> None:
    monkeypatch.setattr(tournament_record, "MAX_BYTES", 1024)
    monkeypatch.chdir(tmp_path)
    Path("record.json").write_bytes(content)
    status, out, err = run(capsys, "tournament", "--replay", "record.json")
    assert (status, out) == (1, "") and err == f"hog tournament: 'record.json' {reason}\n"


def test_replay_takes_nothing_the_record_already_says(
    capsys: pytest.CaptureFixture[str], record: Path, files: list[str]
) -> None:
    for extra, what in (
        (files[1:], "strategy files"),
        (["--rules", "pig-fest"], "--rules"),
        (["--goal", "40"], "--goal"),
        (["--seed", "8"], "--seed"),
        (["--format", "exact"], "--format"),
        (["--record", "again.json"], "--record"),
    ):
        status, out, err = run(capsys, "tournament", "--replay", str(record), *extra)
        assert (status, out) == (1, "")
        assert err == f"hog tournament: --replay plays the record as it is: it takes no {what}.\n"
    assert not Path("again.json").exists()


def test_unreadable_and_unwritable_records_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], files: list[str]
) -> None:
    status, _, err = run(capsys, "tournament", "--replay", "missing.json")
    assert status == 1
    assert err == "hog tournament: Cannot read the record 'missing.json': No such file or directory.\n"
    Path("folder").mkdir()
    status, _, err = run(capsys, "tournament", "--replay", "folder")
    assert status == 1 and err == "hog tournament: Cannot read the record 'folder': Is a directory.\n"
    status, _, err = run(capsys, *SAMPLED, "--record", "folder", *files)
    assert status == 1 and err == "hog tournament: Cannot write the record 'folder': Is a directory.\n"
