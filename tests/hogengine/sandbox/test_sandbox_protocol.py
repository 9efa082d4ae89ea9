"""The parent's strict reading of child reports, and the safety of the reasons it writes."""

from __future__ import annotations

import pytest

from hogengine.sandbox import SandboxUnavailable, Verdict, landlock, protocol
from hogengine.sandbox.verdict import piece, rejected

NONCE = "ab" * 16
SWEEP = protocol.Job(range(11), 2, "sweep", (5, 7), b"", b"", "")


def report(line: str, nonce: str = NONCE) -> bytes:
    return f"HOG1 {nonce}\n{line}\nEND\n".encode()


def text(value: str) -> str:
    return "x" + value.encode().hex()


def test_a_full_table_of_canonical_legal_ints_parses() -> None:
    parsed = protocol.parse_report(report("table x " + ",".join(["10"] * 10_000)), NONCE, SWEEP)
    assert parsed == protocol.Answers((10,) * 10_000, None)


def test_a_record_job_reports_every_pair_as_many_times_as_it_records_tables() -> None:
    record = protocol.Job(range(11), 2, "record", (), b"", b"", "", 3)
    values = ",".join(str(n % 11) for n in range(30_000))
    assert protocol.parse_report(report("table x " + values), NONCE, record) == protocol.Answers(
        tuple(n % 11 for n in range(30_000)), None
    )
    assert protocol.parse_report(report("table x " + ",".join(["4"] * 10_000)), NONCE, record) is None


@pytest.mark.parametrize(
    "name",
    [
        "Bacon Bits",
        "Alice's Pigs",
        "Les Cochons 🐷",
        "Zoë & Chloé 👨\u200d👩\u200d👧",  # the zero-width joiners are part of the emoji
        "@everyone [win](https://evil.example)",  # escaped where it is shown, never rewritten
        "x" * 80,
    ],
)
def test_a_team_name_is_reported_exactly_as_written(name: str) -> None:
    table = ",".join(["4"] * 10_000)
    assert protocol.parse_report(report(f"table {text(name)} {table}"), NONCE, SWEEP) == protocol.Answers(
        (4,) * 10_000, name
    )


def test_a_team_name_of_nothing_visible_is_refused_and_a_forged_long_or_broken_one_is_malformed() -> None:
    table = ",".join(["4"] * 10_000)
    invisible = text("\u200b\u3164")
    verdict = protocol.parse_report(report(f"table {invisible} {table}"), NONCE, SWEEP)
    assert isinstance(verdict, Verdict) and verdict.kind == "bad_team_name"
    assert verdict.reason == "The team name has no visible characters: give it one people can read."
    assert protocol.parse_report(report(f"table {text('x' * 81)} {table}"), NONCE, SWEEP) is None
    two_lines = text("two\nlines")
    assert protocol.parse_report(report(f"table {two_lines} {table}"), NONCE, SWEEP) is None
    assert protocol.parse_report(report(f"table {table}"), NONCE, SWEEP) is None  # no team field


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        report("table x " + ",".join(["4"] * 10_000), nonce="cd" * 16),  # someone else's nonce
        report("table x " + ",".join(["4"] * 9_999)),  # too few
        report("table x " + ",".join(["4"] * 10_001)),  # too many
        report("table x " + ",".join(["11"] * 10_000)),  # illegal, though the child checks it
        report("table x " + ",".join(["04"] * 10_000)),  # not canonical
        report("table x " + ",".join(["+4"] * 10_000)),
        report("table x " + ",".join(["4.0"] * 10_000)),
        report("table x " + ",".join(["True"] * 10_000)),
        report("table x " + ",".join([" 4"] * 10_000)),
        report("table x " + ",".join(["4"] * 10_000)) + b"extra",
        b"junk" + report("table x " + ",".join(["4"] * 10_000)),
        report("table x " + ",".join(["4"] * 10_000)) * 2,
        report("accepted"),
        report("no_final_strategy extra"),
        report("exception call 3 5 7 x41"),  # a field short
        report("exception call 3 100 7 x41 x42"),  # opponent out of range
        report("exception run 3 5 7 x41 x42"),
        report("syntax_error 3 " + "x" + "41" * 5_000),  # text too long
        report("syntax_error 3 x4"),  # odd hex
        report("syntax_error 3 x4G"),
        report("syntax_error 03 x41"),
        report("syntax_error 3  x41"),
        report("illegal_value 3 5 41"),
        report("not_deterministic 3 5 9999 x41"),
        report("bad_team_name 3"),
    ],
)
def test_anything_not_exactly_well_formed_is_refused(raw: bytes) -> None:
    assert protocol.parse_report(raw, NONCE, SWEEP) is None


@pytest.mark.parametrize(
    ("line", "kind", "reason"),
    [
        (
            "syntax_error 3 " + text("invalid syntax"),
            "syntax_error",
            "Python cannot read the file: invalid syntax at line 3; fix that line and upload again.",
        ),
        (
            "no_final_strategy x",
            "no_final_strategy",
            "The file defines no functions at all: add def final_strategy(score, opponent_score) returning "
            "how many dice to roll.",
        ),
        (
            "no_final_strategy " + text("free_bacon, roll_dice, take_turn"),
            "no_final_strategy",
            "The file defines no final_strategy (it defines free_bacon, roll_dice, take_turn): add def "
            "final_strategy(score, opponent_score) returning how many dice to roll.",
        ),
        (
            "no_final_strategy " + text("Final_Strategy, roll_dice"),
            "no_final_strategy",
            "The file defines no final_strategy, but it defines Final_Strategy: name it final_strategy "
            "(Python tells capitals apart).",
        ),
        (
            "exception call 3 5 7 " + text("KeyError") + " " + text("'x'"),
            "exception",
            "final_strategy raised KeyError at line 7 for (score 3, opponent 5): 'x'",
        ),
        (
            "exception load -1 -1 0 " + text("OSError") + " x",
            "exception",
            "The file raised OSError while loading.",
        ),
        (
            "exception load -1 -1 1 " + text("ModuleNotFoundError") + " " + text("No module named 'numpy'"),
            "exception",
            "The file imports numpy at line 1, which strategies cannot use: besides the course's dice, ucb "
            "and hog they can import only standard modules that compute, such as math, random, functools, "
            "itertools, collections, fractions and typing; if numpy is a file of yours, copy what the "
            "strategy needs from it into this file.",
        ),
        (
            "exception load -1 -1 2 " + text("ModuleNotFoundError") + " " + text("No module named 'os.path'"),
            "exception",
            "The file imports os.path at line 2, which strategies cannot use: besides the course's dice, ucb "
            "and hog they can import only standard modules that compute, such as math, random, functools, "
            "itertools, collections, fractions and typing.",
        ),
        (
            "keyboard call 0 12 40",
            "keyboard",
            "final_strategy reads from the keyboard at line 40 for (score 0, opponent 12): strategies cannot "
            "use input(), so take the question out.",
        ),
        (
            "keyboard load -1 -1 3",
            "keyboard",
            "The file reads from the keyboard at line 3 while loading: strategies cannot use input(), so "
            "take the question out.",
        ),
        (
            "course_unavailable " + text("ModuleNotFoundError: No module named 'numpy'"),
            "crashed",
            "The course's hog module could not be loaded for this check (ModuleNotFoundError: No module "
            "named 'numpy'): that is the bot's fault, not your file's; please tell whoever runs it.",
        ),
        (
            "exception call 3 5 7 " + text("SystemError") + " " + text("error return without exception set"),
            "too_much_memory",
            "final_strategy recursed too deeply at line 7 for (score 3, opponent 5): its calls used more "
            "than 256 MB.",
        ),
        (
            "illegal_value 0 99 " + text("None"),
            "illegal_value",
            "final_strategy returned None at (0, 99): it must return 0 to 10.",
        ),
        (
            "too_much_memory call 1 2",
            "too_much_memory",
            "final_strategy used more than 256 MB of memory for (score 1, opponent 2).",
        ),
        (
            "bad_team_name " + text("TEAM_NAME") + " " + text("3"),
            "bad_team_name",
            "TEAM_NAME must be one line of 1 to 80 characters, not 3.",
        ),
        (
            "bad_team_name " + text("PLAYER_NAME") + " " + text("a string of 10000 characters"),
            "bad_team_name",
            "PLAYER_NAME must be one line of 1 to 80 characters, not a string of 10000 characters.",
        ),
        (
            "not_deterministic 4 6 3 " + text("5"),
            "not_deterministic",
            "final_strategy is not deterministic: for (score 4, opponent 6) it returned 3, then 5. "
            "It must depend only on the two scores.",
        ),
    ],
)
def test_reported_failures_become_plain_reasons(line: str, kind: str, reason: str) -> None:
    verdict = protocol.parse_report(report(line), NONCE, SWEEP)
    assert isinstance(verdict, Verdict)
    assert (verdict.accepted, verdict.kind, verdict.reason, verdict.table) == (False, kind, reason, None)


def test_unavailable_report_raises() -> None:
    with pytest.raises(SandboxUnavailable, match="could not be installed"):
        protocol.parse_report(report("unavailable " + text("EINVAL")), NONCE, SWEEP)


def test_pieces_lose_mentions_control_characters_and_length() -> None:
    shown = piece("@everyone\n\t<@123> <@&9> <#42>\u202e\u200b " + "z" * 500)
    assert "@everyone" not in shown and "<@1" not in shown and "<#" not in shown
    assert "\n" not in shown and "\t" not in shown and "\u202e" not in shown
    assert len(shown) < 170 and shown.endswith("…")


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("[free nitro](https://evil.example)", "[free nitro]\u200b(https://evil.example)"),
        ("```py\nclosed```", "`\u200b`\u200b`\u200bpy closed`\u200b`\u200b`\u200b"),
        ("</ban:1> <@&9>", "<\u200b/ban:1> <@\u200b&9>"),
        ("a\u3164b\u115fc\uffa0d\u061ce\u200df\U000e0041\U000e007fg\U000e0000", "abcdefg"),
    ],
)
def test_pieces_cannot_link_fence_or_hide_text(hostile: str, shown: str) -> None:
    assert piece(hostile) == shown


def test_reasons_do_not_depend_on_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rewriting a reason that holds a setting's value would confirm an uploader's guess of it."""
    reason = "The file raised ValueError while loading: ./data/hog.sqlite3"
    monkeypatch.setenv("HOG_DATABASE", "./data/hog.sqlite3")
    assert rejected("exception", reason).reason == reason


def test_job_encoding_matches_what_the_child_reads() -> None:
    from hogengine.sandbox import child  # noqa: PLC0415 -- the child's own parser, run here on our bytes

    job = protocol.Job(range(-1, 11), 3, "record", (0, 9_999), b"\x01\x02", b"\x03", "x = 1\n# é\n", 9)
    parsed = child.Job(job.encode(NONCE, 9))
    assert (parsed.nonce, parsed.result_fd, parsed.low, parsed.high) == (NONCE, 9, -1, 11)
    assert (parsed.cpu_seconds, parsed.memory_bytes, parsed.open_files) == (3, protocol.MEMORY_BYTES, 16)
    assert (parsed.mode, parsed.tables, parsed.pairs) == ("record", 9, [(0, 0), (99, 99)])
    assert (parsed.seccomp_filter, parsed.landlock_attr, parsed.source) == (
        b"\x01\x02",
        b"\x03",
        "x = 1\n# é\n",
    )


@pytest.mark.parametrize(("abi", "size"), [(0, 0), (1, 8), (3, 8), (4, 16), (5, 16), (6, 24), (7, 24)])
def test_landlock_attr_grows_with_the_abi(abi: int, size: int) -> None:
    assert len(landlock.ruleset_attr(abi)) == size
