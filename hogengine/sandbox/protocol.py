"""The two messages between parent and child: the job (parent to child) and the report (untrusted).

The report is parsed strictly: one exact shape per kind, bounded fields, canonical integers only.
Anything else means user code wrote to the result pipe itself, and the parser says so (None).
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from hogengine.sandbox import child
from hogengine.sandbox.verdict import SandboxUnavailable, Verdict, piece, rejected
from hogengine.text import readable

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
    "no_final_strategy": ("text",),
    "wrong_signature": ("text",),
    "exception": ("where", "position", "position", "line", "text", "text"),
    "illegal_value": ("position", "position", "text"),
    "too_much_memory": ("where", "position", "position"),
    "not_deterministic": ("position", "position", "value", "text"),
    "bad_team_name": ("text", "text"),
    "keyboard": ("where", "position", "position", "line"),
    "unavailable": ("text",),
    "course_unavailable": ("text",),
}
Field = int | str


@dataclass(frozen=True)
class Answers:
    """What a child answered: its values in order, and the file's TEAM_NAME made safe to show (or None)."""

    values: tuple[int, ...]
    team_name: str | None


Parsed = Answers | Verdict
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_IMPORTABLE = (
    "besides the course's dice, ucb and hog they can import only standard modules that compute, such as "
    "math, random, functools, itertools, collections, fractions and typing"
)
_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")
# What CPython 3.11 raises when its frame stack cannot grow: recursion (after raising the recursion
# limit) that ran out of memory. Later versions raise MemoryError; an upload faking it fools only itself.
_STACK_EXHAUSTED = ("SystemError", "error return without exception set")


@dataclass(frozen=True)
class Course:
    """The course's modules a child offers the upload: our stand-ins of `dice` and `ucb` (compiled, as
    `marshal` writes code), and the engine's course API of the rule set to load as `hog` for an upload that
    names it."""

    standins: tuple[tuple[str, bytes], ...] = ()
    hog_module: str = ""  # e.g. "hogengine.course.sp17"; empty: no hog
    hog_path: tuple[str, ...] = ()  # sys.path for importing it (the engine's and numpy's folders)


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
    course: Course = Course()

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
            " ".join(f"{name}={code.hex()}" for name, code in self.course.standins),
            " ".join(
                [self.course.hog_module, *(path.encode("utf-8").hex() for path in self.course.hog_path)]
            ),
        ]
        return "\n".join(head).encode("ascii") + b"\n" + self.source.encode("utf-8")

    @property
    def expected_values(self) -> int:
        """How many values a "table" report must carry."""
        return {"sweep": PAIRS, "record": PAIRS * self.tables}.get(self.mode, len(self.pairs))


@dataclass(frozen=True)
class Progress:
    """How far a child got, from the marks it writes before its report (a run killed for time has no
    report): whether the file loaded, and how many calls it answered, in steps of CALLS_PER_MARK."""

    loaded: bool
    calls: int


CALLS_PER_MARK = child.CALLS_PER_MARK
_MARKS = re.compile(rb"(?:(\%b)(%b*))?" % (child.LOADED_MARK, re.escape(child.CALLS_MARK)))


def split_progress(raw: bytes) -> tuple[Progress, bytes] | None:
    """The progress marks at the start of what a child wrote, and the report after them (maybe none);
    None if what comes before the report is not marks alone."""
    marks = _MARKS.match(raw)
    assert marks is not None  # the pattern matches the empty string
    rest = raw[marks.end() :]
    if rest and not rest.startswith(child.MAGIC.encode("ascii") + b" "):
        return None
    return Progress(marks.group(1) is not None, len(marks.group(2) or b"") * CALLS_PER_MARK), rest


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
    token looked up once, in one pass at C speed), with the name the file gives itself exactly as written
    (a verdict if it is one line of nothing visible)."""
    legal = {str(value).encode("ascii"): value for value in job.legal}
    tokens = csv.split(b",")
    if not _TEAM.fullmatch(team) or len(tokens) != job.expected_values or not legal.keys() >= set(tokens):
        return None
    values = tuple(map(legal.__getitem__, tokens))
    if team == b"x":
        return Answers(values, None)
    name = bytes.fromhex(team[1:].decode("ascii")).decode("utf-8", "replace")
    if len(name) > child.TEAM_NAME_LIMIT or _CONTROL.search(name):
        return None
    if not readable(name):
        return rejected(
            "bad_team_name", "The team name has no visible characters: give it one people can read."
        )
    return Answers(values, name)


def _rejection(kind: str, fields: list[Field], legal: range) -> Verdict:
    """The user-facing verdict for a failure the child reported (fields already type-checked): where the
    student can fix it, one sentence that says how."""
    if kind == "unavailable":
        raise SandboxUnavailable(f"the seccomp filter could not be installed: {piece(str(fields[0]))}")
    if kind == "course_unavailable":
        return rejected(
            "crashed",
            f"The course's hog module could not be loaded for this check ({piece(str(fields[0]), 80)}): "
            "that is the bot's fault, not your file's; please tell whoever runs it.",
        )
    if kind == "syntax_error":
        line, message = fields
        place = f"at line {line}" if line else "in the file"
        return rejected(
            kind,
            f"Python cannot read the file: {piece(str(message))} {place}; fix that line and upload again.",
        )
    if kind == "no_final_strategy":
        return _no_final_strategy(str(fields[0]))
    if kind == "wrong_signature":
        return rejected(
            kind,
            "final_strategy must be a function taking two arguments (score, opponent_score): "
            f"{piece(str(fields[0]))}.",
        )
    if kind == "exception":
        return _exception(fields)
    if kind == "keyboard":
        where, score, opponent, number = fields
        at = f" at line {number}" if number else ""
        return rejected(
            kind,
            f"{_who(where, score, opponent)} reads from the keyboard{at} {_when(where, score, opponent)}: "
            "strategies cannot use input(), so take the question out.",
        )
    if kind == "bad_team_name":
        variable, value = fields
        return rejected(
            kind,
            f"{piece(str(variable), 20)} must be one line of 1 to {child.TEAM_NAME_LIMIT} characters, "
            f"not {piece(str(value), 80)}.",
        )
    if kind == "illegal_value":
        score, opponent, value = fields
        return rejected(
            kind,
            f"final_strategy returned {piece(str(value), 80)} at ({score}, {opponent}): "
            f"it must return {choices_text(legal)}.",
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


def choices_text(legal: range, label: Callable[[int], str] | None = None) -> str:
    """The choices a strategy may return, in words: "0 to 10", or "0 to 10 (or -1)" where -1 is a move,
    which `label` names if given ("0 to 10 (or -1 for Pork Chop)")."""
    low, high = max(legal.start, 0), legal.stop - 1
    extra = ", ".join(
        f"{value} for {label(value)}" if label else str(value) for value in range(legal.start, low)
    )
    return f"{low} to {high}" + (f" (or {extra})" if extra else "")


def _no_final_strategy(found: str) -> Verdict:
    """No final_strategy: what the file does define, and the likeliest misspelling of it."""
    names = [name for name in found.split(", ") if name]
    if not names:
        return rejected(
            "no_final_strategy",
            "The file defines no functions at all: add def final_strategy(score, opponent_score) "
            "returning how many dice to roll.",
        )
    close = difflib.get_close_matches("final_strategy", [name.lower() for name in names], n=1, cutoff=0.7)
    guess = next((name for name in names if close and name.lower() == close[0]), None)
    shown = piece(", ".join(names), 120)
    if guess is not None:
        return rejected(
            "no_final_strategy",
            f"The file defines no final_strategy, but it defines {piece(guess, 60)}: name it final_strategy "
            "(Python tells capitals apart).",
        )
    return rejected(
        "no_final_strategy",
        f"The file defines no final_strategy (it defines {shown}): add def final_strategy(score, "
        "opponent_score) returning how many dice to roll.",
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
    missing = _MISSING_MODULE.fullmatch(str(message))
    if name == "ModuleNotFoundError" and missing:
        return rejected("exception", _unavailable_module(who, missing.group(1), at))
    detail = piece(str(message))
    text = f"{who} raised {piece(str(name), 60)}{at} {when}"
    return rejected("exception", text + (f": {detail}" if detail else "."))


def _unavailable_module(who: str, module: str, at: str) -> str:
    """Why an import failed, and what to do: a standard module outside the allowlist, or a library or a
    file of the student's own (a strategy is one file)."""
    shown = piece(module, 60)
    opening = f"{who} imports {shown}{at}, which strategies cannot use: {_IMPORTABLE}"
    if module.split(".", maxsplit=1)[0] in sys.stdlib_module_names:
        return opening + "."
    return f"{opening}; if {shown} is a file of yours, copy what the strategy needs from it into this file."


def _who(where: Field, score: Field, opponent: Field) -> str:
    return "final_strategy" if where == "call" and score != -1 and opponent != -1 else "The file"


def _when(where: Field, score: Field, opponent: Field) -> str:
    if _who(where, score, opponent) == "The file":
        return "while loading"
    return f"for (score {score}, opponent {opponent})"
