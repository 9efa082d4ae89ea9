"""Strategies: functions of (score, opponent_score) and the 100x100 int8 tables that store them.

A table is indexed [score][opponent_score], the contest's "ten thousand choices". Every value is
checked against the rule set's legal choices when a table is built or loaded.
"""

from collections.abc import Callable, Sequence
from contextlib import suppress
from itertools import chain
from pathlib import Path
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from hogengine.errors import BadStrategy, unreadable
from hogengine.numeric import BoolArray
from hogengine.rules import RuleSet, get_rules
from hogengine.text import NumberTooLong, RepeatedKey, read_at_most, read_json, shown, whole_number

Strategy: TypeAlias = Callable[[int, int], int]
Table: TypeAlias = npt.NDArray[np.int8]
SIZE = 100  # scores 0..99: every score a player can hold while the game goes on
MAX_TABLE_BYTES = 1 << 20  # a table file past this is no table (100 rows of 100 choices: some 30 KB)


def legal_choice(value: object, rules: RuleSet, where: str) -> int:
    """`value` as a choice of these rules, or BadStrategy naming `where` it came from."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool) and int(value) in rules.choices:
        return int(value)
    low, high = rules.choices[0], rules.choices[-1]
    raise BadStrategy(f"{where}: {shown(value)} is not a legal choice under {rules.id} ({low} to {high}).")


def legal_cells(values: npt.NDArray[np.integer], rules: RuleSet) -> BoolArray:
    """Per cell of an integer array, whether it is a legal choice of these rules."""
    return (values >= rules.choices.start) & (values < rules.choices.stop)


def _table(rows: Sequence[object], rules: RuleSet, where: Callable[[int, int], str]) -> Table:
    """`rows` as a table: 100 lists of 100 legal choices, else BadStrategy naming the first row or cell
    that is not one (`where` names a cell). Lists of plain ints, the usual case, are checked as one array;
    anything else cell by cell, in order, so the first offender is named as it always was."""
    lists = [row for row in rows if isinstance(row, list) and len(row) == SIZE]
    if len(lists) == len(rows) and set(map(type, chain.from_iterable(lists))) <= {int}:
        with suppress(OverflowError):  # an int beyond int64 is named below
            values = np.array(rows, dtype=np.int64)
            if legal_cells(values, rules).all():
                return values.astype(np.int8)
    table = np.empty((SIZE, SIZE), dtype=np.int8)
    for score, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != SIZE:
            raise BadStrategy(f"Row {score} must be a list of {SIZE} choices, one per opponent score.")
        for opponent, value in enumerate(row):
            table[score, opponent] = legal_choice(value, rules, where(score, opponent))
    return table


def always_roll(n: int) -> Strategy:
    """A strategy that always chooses `n` (the course's `always_roll`)."""

    def strategy(score: int, opponent_score: int) -> int:
        return n

    return strategy


def always_roll_table(n: int, rules: RuleSet | str) -> Table:
    """always_roll(n)'s table, filled at once: what asking it for all 10,000 pairs gives, without the calls
    (a measure every report and tournament uses)."""
    ruleset = get_rules(rules)
    return np.full((SIZE, SIZE), legal_choice(n, ruleset, f"always_roll({n})"), dtype=np.int8)


def table_from_function(fn: Strategy, rules: RuleSet | str) -> Table:
    """Ask `fn` for every pair of scores below 100 and store its choices, each checked legal."""
    rows = [[fn(score, opponent) for opponent in range(SIZE)] for score in range(SIZE)]
    return _table(rows, get_rules(rules), lambda score, opponent: f"strategy({score}, {opponent})")


def function_from_table(table: Table) -> Strategy:
    """The strategy a table stores (plain ints, as the engine expects)."""
    if table.shape != (SIZE, SIZE):
        raise BadStrategy(f"A strategy table is {SIZE}x{SIZE}, not {'x'.join(map(str, table.shape))}.")

    def strategy(score: int, opponent_score: int) -> int:
        return int(table[score, opponent_score])

    return strategy


def load_table_json(path: str | Path, rules: RuleSet | str) -> Table:
    """A table from a .json file, else a clear BadStrategy."""
    try:
        with Path(path).open("rb") as file:
            data = read_at_most(file, MAX_TABLE_BYTES)
    except OSError as error:
        raise unreadable(path, error) from None
    if data is None:
        limit = f"{MAX_TABLE_BYTES >> 20} MB"
        raise BadStrategy(f"The strategy file {shown(str(path))} is larger than any table ({limit}).")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadStrategy(f"The strategy file {shown(str(path))} is not UTF-8 text.") from None
    return table_from_json(text, rules)


def table_from_json(text: str, rules: RuleSet | str) -> Table:
    """A table from JSON text: 100 rows of 100 legal choices, else a clear BadStrategy (never a path)."""
    ruleset = get_rules(rules)
    try:
        rows = read_json(text)
    except NumberTooLong as error:
        raise BadStrategy(f"The strategy table holds {error}.") from None
    except RepeatedKey:  # valid JSON, but an object: a table is never one
        raise BadStrategy(f"A strategy table is a list of {SIZE} rows, one per score.") from None
    except (ValueError, RecursionError) as error:
        raise BadStrategy(f"The strategy table is not valid JSON ({str(error)[:200]}).") from None
    return table_from_rows(rows, ruleset)


def table_from_rows(rows: object, rules: RuleSet | str) -> Table:
    """A table from parsed JSON (a table file's, or one inside a tournament record): 100 rows of 100 legal
    choices, else a clear BadStrategy naming the first bad row or cell."""
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise BadStrategy(f"A strategy table is a list of {SIZE} rows, one per score.")
    return _table(rows, get_rules(rules), lambda score, opponent: f"row {score}, column {opponent}")


# What `strategy_from_spec` takes, as its errors list it.
SPECS = ("always:N", "FILE.json")


def strategy_from_spec(spec: str, rules: RuleSet | str, known: Sequence[str] = SPECS) -> Strategy:
    """A strategy named on the command line: `always:N` (N a plain whole number legal under the rules) or
    a .json table file; an unknown name's error lists `known`, every name the caller accepts."""
    ruleset = get_rules(rules)
    if spec.endswith(".json"):
        return function_from_table(load_table_json(Path(spec), ruleset))
    name, _, argument = spec.partition(":")
    if name != "always":
        raise BadStrategy(f"Unknown strategy {shown(spec)}: use one of {', '.join(known)}.")
    n = whole_number(argument)
    if n is None:
        raise BadStrategy(f"always:N needs a whole number N, such as always:4, not {shown(argument)}.")
    return always_roll(legal_choice(n, ruleset, f"always:{n}"))
