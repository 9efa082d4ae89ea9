"""A contest final's record as stored: the text `hog tournament --replay` plays again (the rules, format and
seed, every entry's tables as played, the results), zlib-compressed as it is written, then base64 (portable
text in both dialects)."""

import base64
import zlib
from collections.abc import Iterable, Sequence

from hogengine.cli.specs import Entry
from hogengine.cli.tournament_record import Record, record_chunks, results
from hogengine.rules import get_rules
from hogengine.solver import Standings


def packed(chunks: Iterable[str]) -> str:
    """A record as stored, from the pieces of its text."""
    squeeze = zlib.compressobj(1)  # level 1: a tenth of the time of 6, for a sixth more bytes
    parts = [squeeze.compress(chunk.encode()) for chunk in chunks]
    parts.append(squeeze.flush())
    return base64.b64encode(b"".join(parts)).decode("ascii")


def unpacked(stored: str) -> str:
    return zlib.decompress(base64.b64decode(stored)).decode()


def stored_record(
    rules: str, goal: int, seed: str | None, entries: Sequence[Entry], standings: Standings
) -> str:
    """The record of a final played so (its format: sampled with a seed, else exact), as stored."""
    fmt = "exact" if seed is None else "sampled"
    return packed(record_chunks(Record(get_rules(rules), goal, fmt, seed, list(entries), results(standings))))
