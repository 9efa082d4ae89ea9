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
    ("name", "shown"),
    [
        ("Bacon Bits", "Bacon Bits"),
        ("Les Cochons 🐷", "Les Cochons 🐷"),
        ("@everyone [win](https://evil.example)", "@\u200beveryone [win]\u200b(https://evil.example)"),
        ("two\nlines\u202e", "two lines"),
        ("x" * 80, "x" * 80),
    ],
)
def test_a_team_name_is_reported_safe_to_show(name: str, shown: str) -> None:
    table = ",".join(["4"] * 10_000)
    assert protocol.parse_report(report(f"table {text(name)} {table}"), NONCE, SWEEP) == protocol.Answers(
        (4,) * 10_000, shown
    )


def test_a_team_name_of_nothing_visible_is_refused_and_a_forged_long_one_is_malformed() -> None:
    table = ",".join(["4"] * 10_000)
    invisible = text("\u200b\u3164")
    verdict = protocol.parse_report(report(f"table {invisible} {table}"), NONCE, SWEEP)
    assert isinstance(verdict, Verdict) and verdict.kind == "bad_team_name"
    assert verdict.reason == "TEAM_NAME has no visible characters."
    assert protocol.parse_report(report(f"table {text('x' * 81)} {table}"), NONCE, SWEEP) is None
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
            "Syntax error at line 3: invalid syntax.",
        ),
        ("no_final_strategy", "no_final_strategy", "The file does not define final_strategy."),
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
            "The file raised ModuleNotFoundError at line 1 while loading: No module named 'numpy' "
            "(strategies can import math, functools, itertools, operator, collections, random, bisect "
            "and heapq)",
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
            "final_strategy returned None for (score 0, opponent 99); it must return an int from 0 to 10.",
        ),
        (
            "too_much_memory call 1 2",
            "too_much_memory",
            "final_strategy used more than 256 MB of memory for (score 1, opponent 2).",
        ),
        (
            "bad_team_name " + text("3"),
            "bad_team_name",
            "TEAM_NAME must be a string of 1 to 80 characters, not 3.",
        ),
        (
            "bad_team_name " + text("a string of 10000 characters"),
            "bad_team_name",
            "TEAM_NAME must be a string of 1 to 80 characters, not a string of 10000 characters.",
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
