"""Leases on work every bot process must see: taken or refused at once, renewed while the work runs (so a
live holder never loses one), released after it; a process that dies lets its leases expire."""

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

from bot.domain.errors import ServiceError
from bot.services.clock import Clock
from bot.storage import Database
from bot.storage import leases as lease_table
from bot.storage.leases import LeaseKind

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0  # how long a dead process's lease blocks its work


@dataclass(frozen=True, slots=True)
class Lease:
    """A kind of lease and its refusals: `taken` when its holder holds one already, `full` when `limit` of
    this kind are held."""

    kind: LeaseKind
    taken: type[ServiceError]
    limit: int | None = None
    full: type[ServiceError] | None = None


class Leases:
    """Leases of one process on the shared database."""

    def __init__(self, db: Database, clock: Clock, seconds: float = LEASE_SECONDS) -> None:
        self._db = db
        self._clock = clock
        self._seconds = seconds
        # SQLite runs a batch's writes side by side: one taking at a time keeps its count and insert together.
        self._taking = asyncio.Lock()

    async def check(self, lease: Lease, holder_id: int) -> None:
        """Raise what `held` would raise now, without taking anything (to refuse before work starts)."""
        mine, count = await lease_table.held(self._db, lease.kind, holder_id, self._clock())
        if mine:
            raise lease.taken
        if lease.full is not None and lease.limit is not None and count >= lease.limit:
            raise lease.full

    @asynccontextmanager
    async def held(self, lease: Lease, holder_id: int) -> AsyncIterator[None]:
        """Hold `holder_id`'s lease while the block runs, or raise the lease's refusal."""
        token = uuid.uuid4().hex  # this taking's own: no other can renew or release it
        async with self._taking:
            now = self._clock()
            outcome = await self._db.write(
                lambda conn: lease_table.take(
                    conn, lease.kind, holder_id, token, now + self._seconds, now=now, limit=lease.limit
                )
            )
        if outcome is None and lease.full is not None:
            raise lease.full
        if not outcome:
            raise lease.taken
        renewing = asyncio.create_task(
            self._renew(lease.kind, holder_id, token), name=f"hog-lease-{holder_id}"
        )
        try:
            yield
        finally:
            renewing.cancel()
            await asyncio.gather(renewing, return_exceptions=True)  # how it ended is no concern of the work
            await self._db.write(lambda conn: lease_table.release(conn, lease.kind, holder_id, token))

    async def _renew(self, kind: LeaseKind, holder_id: int, token: str) -> None:
        """Renew the lease a third of the way through each period; a renewal that fails (the database busy
        for a moment) is logged and tried again at the next, while the lease still runs."""
        while True:
            await asyncio.sleep(self._seconds / 3)
            until = self._clock() + self._seconds
            renew = partial(lease_table.renew, kind=kind, holder_id=holder_id, token=token, until=until)
            try:
                if not await self._db.write(renew):
                    log.warning("a %s lease of %s ran out before it was renewed", kind, holder_id)
                    return
            except Exception:
                log.exception("could not renew a %s lease of %s", kind, holder_id)
