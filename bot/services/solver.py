"""The exact solver as the services use it: each (rule set, goal) solved in a worker thread, one at a time,
the few used last kept in memory, and every solution kept on disk so a restart reads it back instead of
solving again. The course strategy's tables, the house's other long computation, are made on a worker
thread too."""

import asyncio
from collections import OrderedDict
from pathlib import Path

from hogengine.house import course_table
from hogengine.rules import get_rules
from hogengine.solver import Solution, load_or_solve

Key = tuple[str, int]
# Solutions kept in memory: the four rule sets at the usual goal (pig-fest's is about 30 MB, its solve
# needs hundreds while it runs); any other is read back from disk, or solved, when asked for again.
KEPT = 4


class Solver:
    """Solutions by (rule set, goal), the KEPT used last kept in memory. Solves (and reads from disk) run one
    at a time: concurrent first requests for one wait for a single solve, and no two solves hold their
    working memory at once however many different ones are asked for."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir  # None: solved in this process only
        self._kept: OrderedDict[Key, Solution] = OrderedDict()
        self._solving = asyncio.Lock()
        self._coursed: set[str] = set()  # rule sets whose course table the engine has made
        self._coursing = asyncio.Lock()

    async def solution(self, rules: str, goal: int) -> Solution:
        """Optimal play for these rules and goal: at once if it is kept, else read from the disk cache or
        solved (seconds for Pig Fest) after any solve already running."""
        key = (get_rules(rules).id, goal)
        if key not in self._kept:
            async with self._solving:
                if key not in self._kept:
                    self._kept[key] = await asyncio.to_thread(load_or_solve, *key, self.cache_dir)
                    while len(self._kept) > KEPT:
                        self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return self._kept[key]

    def ready(self, rules: str, goal: int) -> bool:
        """Whether the solution for these rules and goal is in memory (asking for it then never waits)."""
        return (get_rules(rules).id, goal) in self._kept

    async def course(self, rules: str) -> None:
        """Have the engine make the course strategy's table for these rules (kept by `course_table`) on a
        worker thread, once: it asks the course's function 10,000 times, a third of a second every game
        would otherwise wait through at the first course move of each rule set."""
        made = get_rules(rules).id
        if made not in self._coursed:
            async with self._coursing:
                if made not in self._coursed:
                    await asyncio.to_thread(course_table, made)
                    self._coursed.add(made)
