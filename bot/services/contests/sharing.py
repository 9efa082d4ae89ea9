"""How a contest's final shares the machine with the bot. Its process runs in the bot's own scheduling group
(the bot starts it in a process group of its own, not a session of its own: Linux schedules each session's
processes as one group, an autogroup, whose weight counts against the bot's whatever the priority of the
processes inside, so a final in a session of its own took a core shared with the bot as if it were a second
bot, and the turns waited for it). Within the bot's group it has the idle priority (SCHED_IDLE; the lowest
nice value where there is none): a turn takes its core back at once. It computes on every core while the
bot is quiet, and on all but one while the bot is busy (people playing), so the bot keeps a core that its
group is not charged for (there, other programs' work never goes before the bot's on the final's account)
and that the final's memory traffic does not share."""

import asyncio
import contextlib
import os
import time
from pathlib import Path

BUSY = 0.1  # share of a core the bot process used over the last second: people are playing
EVERY = 1.0  # seconds between two looks
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


def share(pid: int) -> "asyncio.Task[None]":
    """Lower process `pid` (a final's, just started: the threads it starts later inherit this) to the idle
    priority; then, where there are two cores or more, until it ends (or the task returned is cancelled),
    every second: on all the cores while this process was quiet, off one while it was busy. (It starts on
    all of them: it counts the cores it may use as it starts, to choose how many threads to compute on.)"""
    with contextlib.suppress(FileNotFoundError):  # it has ended already: nothing to share
        for task in _tasks(pid):
            with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
                _lowered(task)
    return asyncio.create_task(_follow(pid), name="hog-final-sharing")


async def _follow(pid: int) -> None:
    if not hasattr(os, "sched_setaffinity"):
        return
    every = os.sched_getaffinity(0)
    narrow = every - {min(every)}
    if not narrow:  # one core
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
