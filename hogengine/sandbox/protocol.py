"""The two messages between parent and child: the job (parent to child) and the report (untrusted).

The report is parsed strictly: one exact shape per kind, bounded fields, canonical integers only.
Anything else means user code wrote to the result pipe itself, and the parser says so (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hogengine.sandbox import child
from hogengine.sandbox.verdict import SandboxUnavailable, Verdict, piece, rejected

MEMORY_BYTES = 256 * 2**20  # RLIMIT_AS of the child
MEMORY_MB = MEMORY_BYTES // 2**20
OPEN_FILES = 16  # RLIMIT_NOFILE of the child (the harness opens files only while importing)
PAIRS = 100 * 100

_POSITION = re.compile(rb"-1|[0-9]|[1-9][0-9]")  # a score, or -1 for "while loading"
_LINE = re.compile(rb"0|[1-9][0-9]{0,6}")
_VALUE = re.compile(rb"-?(?:0|[1-9][0-9]{0,2})")
# "x" and the hex of at most child.TEXT_LIMIT characters of UTF-8 (4 bytes each at most).
_TEXT = re.compile(rb"x(?:[0-9a-f]{2}){0,%d}" % (4 * child.TEXT_LIMIT))
_TEAM = re.compile(rb"x(?:[0-9a-f]{2}){0,%d}" % (4 * child.TEAM_NAME_LIMIT))
_WHERE = re.compile(rb"load|call")
_FIELDS = {"position": _POSITION, "line": _LINE, "value": _VALUE, "text": _TEXT, "where": _WHERE}
# The fields of each kind of report but "table" (one comma-separated field), as child.py writes them.
_SHAPES = {
    "syntax_error": ("line", "text"),
    "no_final_strategy": (),
    "wrong_signature": ("text",),
    "exception": ("where", "position", "position", "line", "text", "text"),
    "illegal_value": ("position", "position", "text"),
    "too_much_memory": ("where", "position", "position"),
    "not_deterministic": ("position", "position", "value", "text"),
    "bad_team_name": ("text",),
    "unavailable": ("text",),
}
Field = int | str


@dataclass(frozen=True)
class Answers:
    """What a child answered: its values in order, and the file's TEAM_NAME made safe to show (or None)."""

    values: tuple[int, ...]
    team_name: str | None


Parsed = Answers | Verdict
_IMPORTABLE = ", ".join(child.ALLOWED_MODULES[:-1]) + " and " + child.ALLOWED_MODULES[-1]
# What CPython 3.11 raises when its frame stack cannot grow: recursion (after raising the recursion
# limit) that ran out of memory. Later versions raise MemoryError; an upload faking it fools only itself.
_STACK_EXHAUSTED = ("SystemError", "error return without exception set")


@dataclass(frozen=True)
class Job:
    """Everything one child needs but its nonce and result fd, which runner.Child supplies."""

    legal: range
    cpu_seconds: int
    mode: str  # "sweep" (all pairs, then re-call `pairs`), "sample" (only `pairs`), "record" (see `tables`)
    pairs: tuple[int, ...]  # score * 100 + opponent
    seccomp_filter: bytes
    landlock_attr: bytes
    source: str
    tables: int = 1  # how many times over "record" calls all pairs ("sweep" calls them once)

    def encode(self, nonce: str, result_fd: int) -> bytes:
        """The bytes for the child's stdin, in the order child.Job reads them."""
        head = [
            nonce,
            str(result_fd),
            f"{self.legal.start} {self.legal.stop}",
            f"{self.cpu_seconds} {MEMORY_BYTES} {OPEN_FILES}",
            self.mode,
            str(self.tables),
            " ".join(map(str, self.pairs)),
            self.seccomp_filter.hex(),
            self.landlock_attr.hex(),
        ]
        return "\n".join(head).encode("ascii") + b"\n" + self.source.encode("utf-8")

    @property
    def expected_values(self) -> int:
        """How many values a "table" report must carry."""
        return {"sweep": PAIRS, "record": PAIRS * self.tables}.get(self.mode, len(self.pairs))


def parse_report(raw: bytes, nonce: str, job: Job) -> Parsed | None:
    """The values or the rejection the child reported; None if the report is not exactly well formed.

    Raises SandboxUnavailable when the child says the seccomp filter could not be installed.
    """
    lines = raw.split(b"\n")
    if len(lines) != 4 or lines[0] != f"{child.MAGIC} {nonce}".encode() or lines[2:] != [b"END", b""]:
        return None
    kind, _, rest = lines[1].partition(b" ")
    if kind == b"table":
        team, _, csv = rest.partition(b" ")
        return _answers(team, csv, job)
    shape = _SHAPES.get(kind.decode("ascii", "replace"))
    words = rest.split(b" ") if rest else []
    if shape is None or len(words) != len(shape):
        return None
    fields: list[Field] = []
    for word, field in zip(words, shape, strict=True):
        if not _FIELDS[field].fullmatch(word):
            return None
        if field == "text":
            fields.append(bytes.fromhex(word[1:].decode("ascii")).decode("utf-8", "replace"))
        else:
            fields.append(word.decode("ascii") if field == "where" else int(word))
    return _rejection(kind.decode("ascii"), fields, job.legal)


def _answers(team: bytes, csv: bytes, job: Job) -> Parsed | None:
    """The reported values if each is the canonical spelling of a legal choice, and there are enough (each
    token looked up once, in one pass at C speed), with the TEAM_NAME made safe to show (a verdict if
    nothing visible is left of it)."""
    legal = {str(value).encode("ascii"): value for value in job.legal}
    tokens = csv.split(b",")
    if not _TEAM.fullmatch(team) or len(tokens) != job.expected_values or not legal.keys() >= set(tokens):
        return None
    values = tuple(map(legal.__getitem__, tokens))
    if team == b"x":
        return Answers(values, None)
    name = bytes.fromhex(team[1:].decode("ascii")).decode("utf-8", "replace")
    if len(name) > child.TEAM_NAME_LIMIT:
        return None
    shown = piece(name, child.TEAM_NAME_LIMIT)
    if not shown:
        return rejected("bad_team_name", "TEAM_NAME has no visible characters.")
    return Answers(values, shown)


def _rejection(kind: str, fields: list[Field], legal: range) -> Verdict:
    """The user-facing verdict for a failure the child reported (fields already type-checked)."""
    if kind == "unavailable":
        raise SandboxUnavailable(f"the seccomp filter could not be installed: {piece(str(fields[0]))}")
    if kind == "syntax_error":
        line, message = fields
        opening = f"Syntax error at line {line}" if line else "The file could not be compiled"
        return rejected(kind, f"{opening}: {piece(str(message))}.")
    if kind == "no_final_strategy":
        return rejected(kind, "The file does not define final_strategy.")
    if kind == "wrong_signature":
        return rejected(
            kind,
            "final_strategy must be a function taking two arguments (score, opponent_score): "
            f"{piece(str(fields[0]))}.",
        )
    if kind == "exception":
        return _exception(fields)
    if kind == "bad_team_name":
        return rejected(
            kind,
            f"TEAM_NAME must be a string of 1 to {child.TEAM_NAME_LIMIT} characters, not "
            f"{piece(str(fields[0]), 80)}.",
        )
    if kind == "illegal_value":
        score, opponent, shown = fields
        return rejected(
            kind,
            f"final_strategy returned {piece(str(shown), 80)} for (score {score}, opponent {opponent}); "
            f"it must return an int from {legal.start} to {legal.stop - 1}.",
        )
    if kind == "too_much_memory":
        where, score, opponent = fields
        return rejected(
            kind,
            f"{_who(where, score, opponent)} used more than {MEMORY_MB} MB of memory "
            f"{_when(where, score, opponent)}.",
        )
    score, opponent, first, again = fields  # not_deterministic
    return rejected(
        kind,
        f"final_strategy is not deterministic: for (score {score}, opponent {opponent}) it returned "
        f"{first}, then {piece(str(again), 80)}. It must depend only on the two scores.",
    )


def _exception(fields: list[Field]) -> Verdict:
    """The verdict for an exception the upload did not catch, with a hint for the puzzling ones."""
    where, score, opponent, line, name, message = fields
    who, when = _who(where, score, opponent), _when(where, score, opponent)
    at = f" at line {line}" if line else ""
    if (name, message) == _STACK_EXHAUSTED:
        return rejected(
            "too_much_memory",
            f"{who} recursed too deeply{at} {when}: its calls used more than {MEMORY_MB} MB.",
        )
    detail = piece(str(message))
    if name == "ModuleNotFoundError":
        detail = f"{detail} (strategies can import {_IMPORTABLE})".lstrip()
    text = f"{who} raised {piece(str(name), 60)}{at} {when}"
    return rejected("exception", text + (f": {detail}" if detail else "."))


def _who(where: Field, score: Field, opponent: Field) -> str:
    return "final_strategy" if where == "call" and score != -1 and opponent != -1 else "The file"


def _when(where: Field, score: Field, opponent: Field) -> str:
    if _who(where, score, opponent) == "The file":
        return "while loading"
    return f"for (score {score}, opponent {opponent})"
