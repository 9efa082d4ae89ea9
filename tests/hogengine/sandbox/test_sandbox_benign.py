"""Honest uploads pass with exactly the table final_strategy computes (checked against a run of the
same source in the test process, which is safe: these sources are ours)."""

from __future__ import annotations

import warnings

import pytest

from .sandbox_support import Evaluate

LITERAL = (
    "TABLE = [\n" + "".join(f"    {[(s * 7 + o) % 11 for o in range(100)]},\n" for s in range(100)) + "]\n"
)

BENIGN = {
    "always_roll_4": "def final_strategy(score, opponent_score):\n    return 4\n",
    "bacon_arithmetic": (
        "def free_bacon(score):\n"
        "    return 10 - score % 10 + score // 10\n"
        "def final_strategy(score, opponent_score):\n"
        "    if free_bacon(opponent_score) >= 8 or score + free_bacon(opponent_score) >= 100:\n"
        "        return 0\n"
        "    return 6 if score < opponent_score else 4\n"
    ),
    "math_and_lru_cache": (
        "import math\nfrom functools import lru_cache\n\n"
        "@lru_cache(maxsize=None)\n"
        "def final_strategy(score, opponent_score):\n"
        "    return int(math.sqrt(score * opponent_score)) % 11\n"
    ),
    "literal_table": LITERAL
    + "def final_strategy(score, opponent_score):\n    return TABLE[score][opponent_score]\n",
    "prints": (
        "print('loading my strategy')\n"
        "def final_strategy(score, opponent_score):\n"
        "    print('thinking about', score, opponent_score)\n"
        "    return 5\n"
    ),
    "main_block": (
        "def final_strategy(score, opponent_score):\n    return 3\n\n"
        'if __name__ == "__main__":\n'
        "    print(open('/etc/passwd').read())\n"
        "    import os\n    os.system('true')\n"
    ),
    "allowlisted_modules": (
        "import bisect, collections, heapq, itertools, operator, random\n"
        "rng = random.Random(61)\n"
        "CUTS = sorted(rng.sample(range(1, 100), 9))\n"
        "COUNTS = collections.Counter(itertools.chain.from_iterable([[1, 2], [2, 3]]))\n"
        "def final_strategy(score, opponent_score):\n"
        "    best = heapq.nsmallest(1, [operator.add(score, opponent_score) % 7])[0]\n"
        "    return (bisect.bisect(CUTS, score) + best + COUNTS[2]) % 11\n"
    ),
    "self_seeding_random": (
        "import random\nrandom.seed()\nNOISE = random.Random().random()\n"
        "def final_strategy(score, opponent_score):\n    return score % 7\n"
    ),
    "callable_object": (
        "class Strategy:\n"
        "    def __call__(self, score, opponent_score):\n"
        "        return (score + 2 * opponent_score) % 11\n"
        "final_strategy = Strategy()\n"
    ),
    "default_argument": "def final_strategy(score, opponent_score, margin=2):\n    return margin\n",
    "reads_every_clock_python_offers": (
        "import time\n"
        "STAMPS = [time.perf_counter(), time.process_time(), time.time(), time.monotonic()]\n"
        "STAMPS += [time.thread_time(), time.monotonic_ns()]\n"
        "STAMPS += [time.clock_gettime(clock) for clock in (time.CLOCK_BOOTTIME, time.CLOCK_TAI)]\n"
        "def final_strategy(score, opponent_score):\n"
        "    start = time.perf_counter_ns() + time.process_time_ns() + time.time_ns()\n"
        "    return 5 if start > 0 else 0\n"
    ),
    "warnings_and_caught_errors": (
        "import warnings\nwarnings.warn('just a warning')\n"
        "try:\n    import no_such_module\nexcept ImportError:\n    no_such_module = None\n"
        "def final_strategy(score, opponent_score):\n    return 1 if no_such_module is None else 2\n"
    ),
}


def expected_table(source: str, legal: range = range(11)) -> tuple[tuple[int, ...], ...]:
    """The table of `source` computed in this process, as the sandbox must report it."""
    namespace: dict[str, object] = {"__name__": "upload"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source.removeprefix("\ufeff").replace("\r\n", "\n"), "<upload>", "exec"), namespace)
    strategy = namespace["final_strategy"]
    assert callable(strategy)
    table = tuple(tuple(strategy(s, o) for o in range(100)) for s in range(100))
    assert all(type(v) is int and v in legal for row in table for v in row)
    return table


@pytest.mark.parametrize("name", sorted(BENIGN))
def test_benign_upload_is_accepted_with_its_exact_table(sandbox: Evaluate, name: str) -> None:
    verdict = sandbox(BENIGN[name])
    assert (verdict.kind, verdict.reason) == ("accepted", None)
    assert verdict.accepted and verdict.table == expected_table(BENIGN[name])
    assert 0 < verdict.cpu_seconds < 2


def test_bom_and_crlf_line_endings(sandbox: Evaluate) -> None:
    source = "\ufeffimport math\r\n\r\ndef final_strategy(score, opponent_score):\r\n    return score % 3\r\n"
    verdict = sandbox(source.encode("utf-8"))
    assert verdict.accepted and verdict.table == expected_table(source)


def test_minus_one_is_legal_when_the_rules_say_so(sandbox: Evaluate) -> None:
    source = "def final_strategy(score, opponent_score):\n    return -1 if score > 90 else 10\n"
    verdict = sandbox(source, legal=range(-1, 11))
    assert verdict.accepted and verdict.table == expected_table(source, range(-1, 11))


def test_line_numbers_survive_crlf_and_bom(sandbox: Evaluate) -> None:
    verdict = sandbox("\ufeff# first\r\n\r\ndef final_strategy(s, o):\r\n    return 1 / 0\r\n".encode())
    assert verdict.kind == "exception" and "at line 4" in (verdict.reason or "")


def test_to_json_round_trips_the_table(sandbox: Evaluate) -> None:
    data = sandbox(BENIGN["always_roll_4"]).to_json()
    assert data["accepted"] is True and data["kind"] == "accepted" and data["reason"] is None
    assert data["table"] == [[4] * 100] * 100
    assert isinstance(data["cpu_seconds"], float)


def test_the_name_a_file_gives_itself_is_reported_exactly_as_written(sandbox: Evaluate) -> None:
    assert sandbox("TEAM_NAME = 'Bacon Bits'\n" + BENIGN["always_roll_4"]).team_name == "Bacon Bits"
    assert sandbox(BENIGN["always_roll_4"]).team_name is None
    # Markup stays as written: it is escaped where it is shown (Discord), never rewritten where it is kept.
    verdict = sandbox('TEAM_NAME = "Alice\'s <@123> **pigs** 🐷"\n' + BENIGN["always_roll_4"])
    assert verdict.accepted and verdict.team_name == "Alice's <@123> **pigs** 🐷"
    assert verdict.to_json()["team_name"] == verdict.team_name
    # Fall 2020's contest file names its player; a template's blank name is no name at all.
    assert sandbox("PLAYER_NAME = 'Zoë'\n" + BENIGN["always_roll_4"]).team_name == "Zoë"
    assert sandbox("PLAYER_NAME = ''  # Change this line!\n" + BENIGN["always_roll_4"]).team_name is None
    assert sandbox("TEAM_NAME = 'Team'\nPLAYER_NAME = 'Me'\n" + BENIGN["always_roll_4"]).team_name == "Team"


RANDOM_CHOICE = "import random\ndef final_strategy(score, opponent):\n    return random.choice([3, 4, 5])\n"


def test_a_random_strategy_is_recorded_where_random_tables_are_asked_for(sandbox: Evaluate) -> None:
    refused = sandbox(RANDOM_CHOICE)
    assert (refused.accepted, refused.kind) == (False, "not_deterministic")
    verdict = sandbox(RANDOM_CHOICE, random_tables=9)
    assert (verdict.accepted, verdict.kind) == (True, "accepted")
    assert len(verdict.tables) == 9 and verdict.table == verdict.tables[0]
    assert len(set(verdict.tables)) == 9  # each table a fresh sweep of 10,000 random choices
    assert {value for table in verdict.tables for row in table for value in row} == {3, 4, 5}
    assert verdict.to_json()["tables"] == [[list(row) for row in table] for table in verdict.tables]


def test_a_deterministic_strategy_records_no_more_tables(sandbox: Evaluate) -> None:
    verdict = sandbox(BENIGN["bacon_arithmetic"], random_tables=9)
    assert verdict.accepted and verdict.tables == ()
    assert verdict.to_json()["tables"] is None


def test_a_random_strategys_answers_are_checked_as_any_others(sandbox: Evaluate) -> None:
    verdict = sandbox(
        "import random\ndef final_strategy(score, opponent):\n    return random.choice([4, 4, 4, 11])\n",
        random_tables=9,
    )
    assert verdict.kind == "illegal_value" and "returned 11" in (verdict.reason or "")
