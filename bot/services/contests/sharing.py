"""How a contest's final shares the machine with the bot: its process computes at the lowest priority on
every core while the bot is quiet, and on all but one while the bot itself is busy (people playing), so the
bot's event loop keeps a core to itself. On two cores, a final computing on both doubled the turns' latency
p99 even at the lowest priority (caches and memory are shared); on one it left it as it was."""

import asyncio
import os
import time
from pathlib import Path

BUSY = 0.1  # share of a core the bot process used over the last second: people are playing
EVERY = 1.0  # seconds between two looks


def _place(pid: int, cores: set[int]) -> None:
    """Every thread of process `pid` on these cores (its threads started later inherit its main thread's)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), cores)
        except (ProcessLookupError, PermissionError):  # a thread that ended meanwhile
            continue


async def share(pid: int) -> None:
    """Keep process `pid` (a final's) off one core while this process is busy, on all of them while it is
    quiet, until it ends (or this is cancelled); nothing where affinities cannot be set or there is one
    core."""
    if not hasattr(os, "sched_setaffinity"):
        return
    every = os.sched_getaffinity(0)
    if len(every) < 2:
        return
    narrow, placed = every - {min(every)}, every
    used = time.process_time()
    try:
        while True:
            await asyncio.sleep(EVERY)
            now = time.process_time()
            wanted = narrow if now - used > BUSY * EVERY else every
            used = now
            if wanted != placed:
                _place(pid, wanted)
                placed = wanted
    except FileNotFoundError:  # the process ended
        return
