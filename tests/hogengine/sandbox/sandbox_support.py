"""Helpers shared by the sandbox tests: the fake bot host, and building blocks of hostile uploads."""

from __future__ import annotations

import socket
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hogengine.sandbox import Verdict

Evaluate = Callable[..., Verdict]
OK = "def final_strategy(score, opponent_score):\n    return 4\n"


@dataclass
class Host:
    """What the bot's machine holds that an upload must never touch, and the children spawned so far."""

    path: Path
    token: str
    port: int
    listener: socket.socket
    spawned: list[int] = field(default_factory=list)
    spawned_by_thread: dict[int, list[int]] = field(default_factory=dict)

    def snapshot(self) -> dict[str, tuple[bytes, int]]:
        """Every file under the host directory with its bytes and modification time."""
        return {
            str(path.relative_to(self.path)): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(self.path.rglob("*"))
            if path.is_file()
        }


def processes_in_sessions(leaders: list[int], patience: float = 5.0) -> list[str]:
    """Live processes whose session or process group is one of `leaders` (the children's own), once those
    that were just killed have had `patience` seconds to finish dying (SIGKILL is delivered at once, but a
    process on a loaded machine takes a moment to exit).

    Zombies are dead already; they wait for a PID 1 that, in some containers, never reaps them.
    """
    deadline = time.monotonic() + patience
    while (found := _in_sessions(leaders)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def _in_sessions(leaders: list[int]) -> list[str]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and (int(fields[2]) in leaders or int(fields[3]) in leaders):
            found.append(stat.parent.name)
    return found


def ctypes_of_harness(body: str) -> str:
    """An upload that borrows the harness's own ctypes module (C) at import, runs `body`, then is fine."""
    return "import sys\nC = sys.modules['__main__'].ctypes\n" + body + OK


def steal_job(body: str) -> str:
    """An upload whose final_strategy finds the harness's job (nonce, result fd) up the stack and runs
    `body` there."""
    return (
        "import os, sys\n"
        "def final_strategy(s, o):\n"
        "    frame = sys._getframe(1)\n"
        "    while 'job' not in frame.f_locals:\n"
        "        frame = frame.f_back\n"
        "    job = frame.f_locals['job']\n" + textwrap.indent(body, "    ")
    )
