"""A contest's final computed in a process of its own (`python -m bot.services.contests.final_child`): the
bot's event loop then never waits for the final's Python work, as it would for a worker thread of its own
process holding the interpreter's lock (and a thread of lowered priority holds it longest, on a busy
machine). The bot gives it the idle priority as it starts it, so the bot's games go first (sharing.py); it
dies with the bot.

stdin: one JSON line {"rules", "goal", "seed", "entries": [[name, tables], ...]} (an entry that answers at
random has its recorded tables, the others one), then every table's 10,000 choices as bytes, in that
order. stdout: one JSON line of the standings' rows [[name, wins, losses], ...] in their order, then the
final's record as stored (see record.py). A failure: a traceback on stderr and a non-zero status."""

import asyncio
import ctypes
import json
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import Iterator
from typing import Any, BinaryIO

import numpy as np

from bot.services.contests.record import stored_record
from bot.services.tournaments.playing import play
from bot.storage.strategies import table_bytes
from hogengine.cli.specs import Entry
from hogengine.game import MAX_GOAL
from hogengine.strategies import Table

PR_SET_PDEATHSIG = 1
TABLE_BYTES = MAX_GOAL * MAX_GOAL


def dies_with_parent() -> None:
    """Linux: be killed when the process that started this one ends (a bot killed with -9 leaves no final
    computing on); elsewhere the closed stdin ends a child that has not read its job yet."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _pieces(header: dict[str, object], entries: list[tuple[str, list[Table]]]) -> Iterator[bytes]:
    """The job, piece by piece: the header's line, then each table in the order it lists them."""
    yield json.dumps(header).encode() + b"\n"
    for _, tables in entries:
        yield from map(table_bytes, tables)


async def exchanged(
    child: Process, header: dict[str, object], entries: list[tuple[str, list[Table]]]
) -> tuple[bytes, bytes]:
    """What a final's process writes (its output, its errors) once it has ended, sent its job as it reads it,
    a pipe's worth at a time: the bot's event loop never gathers the tables into one copy nor stops long
    for them while people play."""
    if child.stdin is None or child.stdout is None or child.stderr is None:
        raise ValueError("A final's process is started with pipes for its input, output and errors.")
    stdin = child.stdin

    async def feed() -> None:
        try:
            for piece in _pieces(header, entries):
                stdin.write(piece)
                await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):  # it failed early: its errors say why
            pass
        finally:
            stdin.close()

    _, out, err = await asyncio.gather(feed(), child.stdout.read(), child.stderr.read())
    await child.wait()
    return out, err


def _read(source: BinaryIO) -> tuple[dict[str, Any], list[Entry]]:
    header = json.loads(source.readline())
    entries = []
    for name, count in header["entries"]:
        data = source.read(count * TABLE_BYTES)
        tables = [
            np.frombuffer(data, np.int8, TABLE_BYTES, n * TABLE_BYTES).reshape(MAX_GOAL, MAX_GOAL)
            for n in range(count)
        ]
        entries.append(Entry(name, tables[0], tuple(tables) if count > 1 else ()))
    return header, entries


def main() -> int:
    dies_with_parent()
    header, entries = _read(sys.stdin.buffer)
    rules, goal, seed = str(header["rules"]), int(header["goal"]), header["seed"]
    played = [(entry.name, entry.table) for entry in entries]
    recorded = {entry.name: entry.tables for entry in entries if entry.tables}
    standings = play(rules, seed, played, recorded, goal=goal)
    rows = [[row.name, row.wins, row.losses] for row in standings.rows]
    out = sys.stdout.buffer
    out.write(json.dumps(rows).encode() + b"\n")
    out.write(stored_record(rules, goal, seed, entries, standings).encode())
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
