"""A tournament's record (`hog tournament --record FILE`): the rules, the format and seed, every entry's
tables as they played (all nine of an entry that answers at random) and the results, so that
`hog tournament --replay FILE` plays the very same tournament again and checks it.

The seed alone cannot replay a random entry: its sandbox run draws new tables every time."""

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hogengine.cli.specs import Entry
from hogengine.contest_rules import GAMES
from hogengine.errors import BadStrategy, HogError
from hogengine.game import MAX_GOAL
from hogengine.replay import TOURNAMENT_RECORD
from hogengine.rules import RuleSet, get_rules
from hogengine.solver import Standings
from hogengine.strategies import table_from_rows
from hogengine.text import read_at_most, read_json, shown

# Larger than any record of a real contest (20 to 30 KB a table), small enough to read at once.
MAX_BYTES = 256 << 20
FORMATS = ("exact", "sampled")  # the seeds' two contest formats
# Replayed figures are computed as recorded; a little room for another machine's last bits.
TOLERANCE = 1e-12
SEPARATORS = (",", ":")  # a record is read by programs: no spaces
BATCH = 4096  # matches written at once


@dataclass(frozen=True)
class Record:
    """What a record holds: how the tournament was played, its entries and its results."""

    rules: RuleSet
    goal: int
    format: str
    seed: str | None  # the sampled format's dice seed; none for exact
    entries: list[Entry]
    results: dict[str, object]  # as `results` gives them


def results(standings: Standings) -> dict[str, object]:
    """The standings and every match as JSON-ready lists: what `--json` prints and a record keeps."""
    return {
        "standings": [vars(row) for row in standings.rows],
        "matches": [vars(match) for match in standings.matches],
    }


def _played_tables(entry: Entry) -> list[object]:
    """The tables an entry played: a random entry's recorded ones, else its one table."""
    return [table.tolist() for table in entry.tables or (entry.table,)]


def record_chunks(record: Record) -> Iterator[str]:
    """The record's JSON text in pieces, an entry or a batch of matches at a time: a contest of a thousand
    entries never holds all its tables as lists, nor its whole text, at once."""
    head = {
        "record": TOURNAMENT_RECORD,
        "rules": record.rules.id,
        "goal": record.goal,
        "format": record.format,
        "seed": record.seed,
    }
    yield json.dumps(head, separators=SEPARATORS)[:-1] + ',"entries":['
    for number, entry in enumerate(record.entries):
        piece = {"name": entry.name, "tables": _played_tables(entry)}
        yield ("," if number else "") + json.dumps(piece, separators=SEPARATORS)
    yield "]"
    for key, values in record.results.items():
        if not isinstance(values, list):
            yield f",{json.dumps(key)}:{json.dumps(values, separators=SEPARATORS)}"
            continue
        yield f",{json.dumps(key)}:["
        for start in range(0, len(values), BATCH):
            batch = json.dumps(values[start : start + BATCH], separators=SEPARATORS)[1:-1]
            yield ("," if start else "") + batch
        yield "]"
    yield "}"


def write_record(path: str, record: Record) -> None:
    """Write the record to `path` (replacing any file there), or a one-line HogError."""
    try:
        with Path(path).open("w", encoding="utf-8") as file:
            file.writelines(record_chunks(record))
    except OSError as error:
        raise HogError(f"Cannot write the record {shown(path)}: {error.strerror}.") from None


def read_record(path: str) -> Record:
    """The record in `path`, read strictly (every table checked as a table file is), or a one-line
    HogError saying what is wrong with it."""
    try:
        with open(path, "rb") as file:
            data = read_at_most(file, MAX_BYTES)
    except OSError as error:
        raise HogError(f"Cannot read the record {shown(path)}: {error.strerror}.") from None
    if data is None:
        raise HogError(f"{shown(path)} is larger than any tournament record ({MAX_BYTES >> 20} MB).")
    try:
        content = read_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HogError(f"{shown(path)} is not a tournament record: it is not JSON.") from None
    try:
        return _record(content)
    except (HogError, BadStrategy) as error:
        raise HogError(f"{shown(path)} is not a usable tournament record: {error}") from None


def _record(content: object) -> Record:
    keys = {"record", "rules", "goal", "format", "seed", "entries", "standings", "matches"}
    if not isinstance(content, dict) or content.get("record") != TOURNAMENT_RECORD:
        raise HogError(f'it does not say "record": "{TOURNAMENT_RECORD}".')
    if set(content) != keys:
        raise HogError(f"its keys must be exactly {', '.join(sorted(keys))}.")
    rules = get_rules(content["rules"]) if isinstance(content["rules"], str) else None
    goal, form, seed = content["goal"], content["format"], content["seed"]
    if rules is None or rules.id != content["rules"]:
        raise HogError("its rules must be a rule set's id.")
    if type(goal) is not int or not 1 <= goal <= MAX_GOAL:
        raise HogError(f"its goal must be a whole number from 1 to {MAX_GOAL}.")
    if form not in FORMATS:
        raise HogError(f"its format must be {' or '.join(FORMATS)}.")
    if (form == "sampled" and not (isinstance(seed, str) and seed)) or (form == "exact" and seed is not None):
        raise HogError("a sampled tournament's seed is a string; an exact one has none (null).")
    entries = content["entries"]
    if not isinstance(entries, list) or len(entries) < 2:
        raise HogError("it must list two entries or more.")
    read = [_entry(number, entry, rules) for number, entry in enumerate(entries, 1)]
    if len({entry.name for entry in read}) != len(read):
        raise HogError("two of its entries have one name.")
    kept = {"standings": content["standings"], "matches": content["matches"]}
    return Record(rules, goal, form, seed, read, kept)


def _entry(number: int, content: object, rules: RuleSet) -> Entry:
    """Entry `number` of a record: a name, and 1 to GAMES tables (more than one: it answers at random)."""
    if not isinstance(content, dict) or set(content) != {"name", "tables"}:
        raise HogError(f"entry {number} must be an object with a name and its tables.")
    name, tables = content["name"], content["tables"]
    if not isinstance(name, str) or not name:
        raise HogError(f"entry {number} has no name.")
    if not isinstance(tables, list) or not 1 <= len(tables) <= GAMES:
        raise HogError(f"entry {number} must have 1 to {GAMES} tables.")
    try:
        read = [table_from_rows(table, rules) for table in tables]
    except BadStrategy as error:
        raise BadStrategy(f"entry {number} ({shown(name)}): {error}") from None
    return Entry(name, read[0], tuple(read) if len(read) > 1 else ())


def difference(replayed: object, recorded: object, where: str = "") -> str | None:
    """Where the replayed results first differ from the recorded ones (None if nowhere): names and
    counts exactly, rates to TOLERANCE."""
    if isinstance(replayed, dict) and isinstance(recorded, dict):
        if set(replayed) != set(recorded):
            return f"{where or 'the results'} hold other fields"
        found = (difference(replayed[key], recorded[key], f"{where}{key}") for key in replayed)
        return next((text for text in found if text), None)
    if isinstance(replayed, list) and isinstance(recorded, list):
        if len(replayed) != len(recorded):
            return f"{where}: {len(replayed)} replayed, {len(recorded)} recorded"
        pairs = enumerate(zip(replayed, recorded, strict=True))
        found = (difference(a, b, f"{where}[{n}].") for n, (a, b) in pairs)
        return next((text for text in found if text), None)
    if isinstance(replayed, float) and isinstance(recorded, int | float) and not isinstance(recorded, bool):
        close = math.isclose(replayed, recorded, rel_tol=0, abs_tol=TOLERANCE)
        return None if close else f"{where.rstrip('.')}: replayed {replayed!r}, recorded {recorded!r}"
    if replayed != recorded or type(replayed) is not type(recorded):
        return f"{where.rstrip('.')}: replayed {shown(replayed)}, recorded {shown(recorded)}"
    return None
