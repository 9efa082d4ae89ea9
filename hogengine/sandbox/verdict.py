"""The sandbox's answer: a verdict whose reason is one short sentence safe to post in Discord."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

Table = tuple[tuple[int, ...], ...]

# Longest piece of upload-controlled text (an exception message, a type name) put into a reason.
_PIECE_LIMIT = 150
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+")
_SPACES = re.compile(r"\s+")


class SandboxUnavailable(Exception):  # noqa: N818 -- the public name
    """The mandatory seccomp layer cannot be set up on this host: uploads must be refused, never run."""


@dataclass(frozen=True)
class Verdict:
    """What one evaluation found: the table if accepted, else a `kind` code and a plain reason."""

    accepted: bool
    reason: str | None
    kind: str
    table: Table | None
    cpu_seconds: float

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (the table as nested lists) for the CLI's `--json` and for storage."""
        return {
            "accepted": self.accepted,
            "kind": self.kind,
            "reason": self.reason,
            "table": None if self.table is None else [list(row) for row in self.table],
            "cpu_seconds": round(self.cpu_seconds, 4),
        }


def accepted(table: Table, cpu_seconds: float) -> Verdict:
    """The verdict for an upload that passed every check."""
    return Verdict(True, None, "accepted", table, cpu_seconds)


def rejected(kind: str, reason: str, cpu_seconds: float = 0.0) -> Verdict:
    """A rejection; `reason` is built from fixed templates and pieces already passed through `piece`."""
    return Verdict(False, _scrub(reason), kind, None, cpu_seconds)


def piece(text: str, limit: int = _PIECE_LIMIT) -> str:
    """Make upload-controlled text fit in a reason: one line, no control characters, no mentions, short."""
    text = _SPACES.sub(" ", _CONTROL.sub(" ", text)).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    # A zero-width space after "@" (and inside "<#") stops Discord from turning text into a mention.
    return text.replace("@", "@\u200b").replace("<#", "<\u200b#")


def _scrub(reason: str) -> str:
    """Defence in depth: blank out harness paths and this process's environment values if they appear.

    The child never sees either (empty environment, no file access), so this only matters if a
    future change breaks isolation.
    """
    secrets = {value for value in os.environ.values() if len(value) >= 8}
    secrets.update({sys.prefix, sys.base_prefix, sys.executable, str(Path(__file__).resolve().parent)})
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and secret in reason:
            reason = reason.replace(secret, "…")
    return reason
