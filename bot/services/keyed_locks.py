"""Locks by key (a match id, a channel): made on first use, gone once nobody holds or awaits
them, so a long-running bot keeps no lock per game it ever saw."""

import asyncio
import weakref
from collections.abc import Hashable


class KeyedLocks:
    """One asyncio.Lock per key, alive while anyone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
