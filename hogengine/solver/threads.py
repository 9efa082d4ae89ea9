"""The threads the solver works on: as many as the cores this process may use, at most two. Its numpy
operations and its compiled sweep let go of the interpreter while they run, so two threads build a model,
or sweep blocks, nearly twice as fast as one."""

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


# Threads at once: the cores this process may use, at most two.
THREADS = min(2, _cores())


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
