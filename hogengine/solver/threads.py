"""The threads the solver works on: as many as the cores this process may use, at most two (or HOG_THREADS,
where a process that shares the machine is told to use fewer). Its numpy operations and its compiled sweep
let go of the interpreter while they run, so two threads build a model, or sweep blocks, nearly twice as
fast as one."""

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def _cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (`taskset`, a
    container's cpuset), so a process held to one core does not work on two threads competing for it."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


THREADS_VARIABLE = "HOG_THREADS"


def _told() -> int | None:
    """HOG_THREADS, a whole number of at least 1, where it is set (else None: the cores decide)."""
    text = os.environ.get(THREADS_VARIABLE, "")
    return int(text) if text.isdigit() and int(text) >= 1 else None


# Threads at once: the cores this process may use, at most two, and at most HOG_THREADS.
THREADS = min(2, _cores(), _told() or 2)


def in_order(work: Callable[[Item], Result], items: Iterable[Item], name: str) -> Iterator[Result]:
    """`work(item)` for every item, THREADS at a time (on this thread alone when there is one), the
    results in the items' order. When the caller stops early (an error, Ctrl-C), items not yet begun are
    dropped, not worked through."""
    listed = list(items)
    if THREADS < 2 or len(listed) < 2:
        yield from map(work, listed)
        return
    pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix=name)
    try:
        yield from pool.map(work, listed)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
