"""Whether the database answers, as its last uses found: each backend reports every use here, so an outage
is logged once when it begins (a WARNING) and once when it ends (an INFO), however many gestures meet it,
and the health check can say so meanwhile."""

import asyncio
import logging
import time
from typing import Any
from weakref import WeakSet

from bot.domain.errors import RecordsUnavailable

log = logging.getLogger(__name__)


class Outage:
    """The one database's reachability. An outage found by a write (a file locked by another program) ends
    only with a write that commits, as reads may still pass meanwhile; one found by a read ends with any
    answer. Failures before the database ever answered are the opener's to report, not an outage."""

    def __init__(self) -> None:
        self._answered = False
        self._since: float | None = None
        self._reason = ""
        self._found_by_write = False
        # The tasks that committed a write: discord.py runs each gesture in a task of its own (a context
        # variable would not do: a task inherits its creator's, and the gateway's creator ran migrations).
        self._saving: WeakSet[asyncio.Task[Any]] = WeakSet()

    @property
    def trouble(self) -> str | None:
        """One line for the health check while the database is out of reach; None while it answers."""
        if self._since is None:
            return None
        since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self._since))
        return f"the database cannot be reached (since {since}): {self._reason}"

    def answered(self, wrote: bool = False) -> None:
        """A use succeeded (`wrote`: a write committed, so the gesture under way has changed something)."""
        if wrote and (task := asyncio.current_task()) is not None:
            self._saving.add(task)
        self._answered = True
        if self._since is not None and (wrote or not self._found_by_write):
            log.info("the database answers again, after %.0f s out of reach", time.time() - self._since)
            self._since = None

    def failed(self, error: BaseException, wrote: bool = False) -> RecordsUnavailable:
        """A use (`wrote`: a write) failed because the database is out of reach: the refusal to raise,
        and the warning if the outage begins with it."""
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        if self._since is None and self._answered:
            log.warning("the database cannot be reached: %s; gestures are refused until it answers", reason)
            self._since, self._reason, self._found_by_write = time.time(), reason, wrote
        return RecordsUnavailable(reason, saved=asyncio.current_task() in self._saving)
