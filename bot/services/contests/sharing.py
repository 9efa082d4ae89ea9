"""How a contest's final shares the machine with the bot. Its process runs in the bot's own scheduling group
(the bot starts it in a process group of its own, not a session of its own: Linux schedules each session's
processes as one group, an autogroup, whose weight counts against the bot's whatever the priority of the
processes inside, so a final in a session of its own took a core shared with the bot as if it were a second
bot, and the turns waited for it). Within the bot's group it has the idle priority (SCHED_IDLE; the lowest
nice value where there is none): a turn takes its core back at once. A final that starts while people
play computes on one thread fewer than the cores, free to run on any of them: the scheduler then moves its
thread away from wherever the bot's threads wake (held to one core, even an idle-priority thread delayed
the turns that woke on that core: turn p99 1.8-2.2 ms beside it unpinned, 3.4-3.8 ms pinned). A final that
starts while the bot is quiet computes on every core, and is held off one of them whenever the bot becomes
busy, so the bot keeps a core that the final's memory traffic does not share."""

import asyncio
import contextlib
import os
import time
from pathlib import Path

BUSY = 0.1  # share of a core the bot process used over the last second: people are playing
EVERY = 1.0  # seconds between two looks
LOOK = 0.25  # seconds of the look at the bot before a final starts
NICENESS = 19  # the lowest priority, where the system has no idle one
LISTED = Path("/proc/self/task").is_dir()  # a process's threads can be listed (Linux)


def _tasks(pid: int) -> list[int]:
    """The threads of process `pid` where they can be listed (Linux: FileNotFoundError once it has ended),
    else the process alone."""
    if not LISTED:
        return [pid]
    return [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]


def _lowered(task: int) -> None:
    """The idle priority for one thread, or the lowest nice value where the system has none or refuses it."""
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(task, os.SCHED_IDLE, os.sched_param(0))
            return
        except PermissionError:
            pass
    os.setpriority(os.PRIO_PROCESS, task, NICENESS)


def _place(pid: int, cores: set[int]) -> None:
    """Every thread of process `pid` on these cores (its threads started later inherit its main thread's)."""
    for task in _tasks(pid):
        try:
            os.sched_setaffinity(task, cores)
        except (ProcessLookupError, PermissionError):  # a thread that ended meanwhile
            continue


async def threads_for_final() -> int:
    """How many threads a final about to start should compute on (its process's HOG_THREADS): one fewer
    than the cores while this process is busy (people playing, over the next LOOK seconds), else every
    core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    used = time.process_time()
    await asyncio.sleep(LOOK)
    return max(1, cores - 1) if time.process_time() - used > BUSY * LOOK else cores


def share(pid: int, threads: int) -> "asyncio.Task[None]":
    """Lower process `pid` (a final's, just started, computing on `threads` threads: the threads it starts
    later inherit this) to the idle priority; then, if it computes on every core (and there are two or
    more), until it ends (or the task returned is cancelled), every second: on all the cores while this
    process was quiet, off one while it was busy."""
    with contextlib.suppress(FileNotFoundError):  # it has ended already: nothing to share
        for task in _tasks(pid):
            with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
                _lowered(task)
    return asyncio.create_task(_follow(pid, threads), name="hog-final-sharing")


async def _follow(pid: int, threads: int) -> None:
    if not hasattr(os, "sched_setaffinity"):
        return
    every = os.sched_getaffinity(0)
    narrow = every - {min(every)}
    if not narrow or threads < len(every):  # one core, or a thread fewer than the cores: free to move
        return
    placed, used = every, time.process_time()
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
