"""The sandbox's answer: a verdict whose reason is one short sentence safe to post in Discord."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hogengine.text import visible

Table = tuple[tuple[int, ...], ...]

# Longest piece of upload-controlled text (an exception message, a type name) put into a reason.
_PIECE_LIMIT = 150
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
_SPACES = re.compile(r"\s+")
# Discord markup that could ping, link a channel or command, mask a link's target or fence a code
# block; a zero-width space inside each disarms it.
_MARKUP = {"@": "@\u200b", "<#": "<\u200b#", "</": "<\u200b/", "](": "]\u200b(", "`": "`\u200b"}
_MARKUP_PATTERN = re.compile("|".join(map(re.escape, _MARKUP)))


class SandboxUnavailable(Exception):  # noqa: N818 -- the public name
    """The mandatory seccomp layer cannot be set up on this host: uploads must be refused, never run."""


class EvaluationStopped(Exception):  # noqa: N818 -- the public name
    """The caller stopped the run (it is shutting down): the children were killed, and there is no verdict."""


@dataclass(frozen=True)
class Verdict:
    """What one evaluation found: the table if accepted, else a `kind` code and a plain reason; the file's
    TEAM_NAME, safe to show; and for a strategy that answers at random, the tables recorded of it."""

    accepted: bool
    reason: str | None
    kind: str
    table: Table | None
    cpu_seconds: float
    team_name: str | None = None
    tables: tuple[Table, ...] = ()  # a random strategy's recorded tables, `table` first; else none

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (tables as nested lists) for the CLI's `--json` and for storage."""
        return {
            "accepted": self.accepted,
            "kind": self.kind,
            "reason": self.reason,
            "team_name": self.team_name,
            "table": None if self.table is None else [list(row) for row in self.table],
            "tables": [[list(row) for row in table] for table in self.tables] or None,
            "cpu_seconds": round(self.cpu_seconds, 4),
        }


def accepted(
    table: Table, cpu_seconds: float, team_name: str | None = None, tables: tuple[Table, ...] = ()
) -> Verdict:
    """The verdict for an upload that passed every check (a random one with its recorded `tables`)."""
    return Verdict(True, None, "accepted", table, cpu_seconds, team_name, tables)


def rejected(kind: str, reason: str, cpu_seconds: float = 0.0) -> Verdict:
    """A rejection; `reason` is built from fixed templates and pieces already passed through `piece`."""
    return Verdict(False, reason, kind, None, cpu_seconds)


def piece(text: str, limit: int = _PIECE_LIMIT) -> str:
    """Make upload-controlled text fit in a reason: one short line of visible characters that cannot
    mention anyone, mask a link, close or open a code block, or hide text in invisible characters."""
    text = "".join(char for char in text if visible(char))
    text = _SPACES.sub(" ", _CONTROL.sub(" ", text)).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return _MARKUP_PATTERN.sub(lambda found: _MARKUP[found.group()], text)
