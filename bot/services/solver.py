"""The exact solver as the services use it: each (rule set, goal) solved once per process, in a worker
thread, and kept on disk so a restart reads it back instead of solving again."""

import asyncio
from pathlib import Path

from bot.services.keyed_locks import KeyedLocks
from hogengine.rules import get_rules
from hogengine.solver import Solution, solve

Key = tuple[str, int]


class Solver:
    """Solutions by (rule set, goal); concurrent first requests for one wait for a single solve."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir  # None: solved in this process only
        self._solved: dict[Key, Solution] = {}
        self._locks = KeyedLocks()

    async def solution(self, rules: str, goal: int) -> Solution:
        """Optimal play for these rules and goal: the first call solves or reads the disk cache (seconds
        for Pig Fest), later ones return at once."""
        key = (get_rules(rules).id, goal)
        found = self._solved.get(key)
        if found is not None:
            return found
        async with self._locks(key):
            found = self._solved.get(key)
            if found is None:
                found = await asyncio.to_thread(solve, key[0], goal, self.cache_dir)
                self._solved[key] = found
        return found
