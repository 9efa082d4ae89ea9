"""Leases on work every bot process must see: taken or refused at once, renewed while the work runs,
released after it; a process that dies lets its leases expire. A live holder can lose its lease too: stalled
past its expiry (a long pause of its process or its database), another process may take it while its work
runs on. So the work stores its result only if its taking still holds the lease, checked in the storing
transaction (`Taking.confirm`): at most one holder's result is ever stored. Expiry is read on each
process's own clock: processes on several machines need synchronised clocks, or one running ahead takes
leases from live holders (whose work is then refused)."""

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

from bot.domain.errors import RecordsUnavailable, ServiceError
from bot.services.clock import Clock
from bot.storage import Connection, Database
from bot.storage import leases as lease_table
from bot.storage.leases import LeaseKind

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0  # how long a dead process's lease blocks its work


@dataclass(frozen=True, slots=True)
class Lease:
    """A kind of lease and its refusals: `taken` when its holder holds one already, `lost` when the work's
    lease went to another before its result was stored, `full` when `limit` of this kind are held."""

    kind: LeaseKind
    taken: type[ServiceError]
    lost: type[ServiceError]
    limit: int | None = None
    full: type[ServiceError] | None = None


@dataclass(frozen=True, slots=True)
class Taking:
    """One taking of a lease, as `held` yields it: the lease, its holder and this taking's own token."""

    lease: Lease
    holder_id: int
    token: str

    async def confirm(self, conn: Connection) -> None:
        """Raise the lease's `lost` refusal unless this taking still holds it; the work calls it in the
        transaction that stores its result, so a holder that lost its lease stores nothing."""
        if not await lease_table.still_held(conn, self.lease.kind, self.holder_id, self.token):
            raise self.lease.lost


class Leases:
    """Leases of one process on the shared database."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        seconds: float = LEASE_SECONDS,
        pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._db = db
        self._clock = clock
        self._seconds = seconds
        self._pause = pause  # between renewals (a test passes its own, which moves its clock)

    async def check(self, lease: Lease, holder_id: int) -> None:
        """Raise what `held` would raise now, without taking anything (to refuse before work starts)."""
        mine, count = await lease_table.held(self._db, lease.kind, holder_id, self._clock())
        if mine:
            raise lease.taken
        if lease.full is not None and lease.limit is not None and count >= lease.limit:
            raise lease.full

    @asynccontextmanager
    async def held(self, lease: Lease, holder_id: int) -> AsyncIterator[Taking]:
        """Hold `holder_id`'s lease while the block runs, or raise the lease's refusal; the block stores its
        result in a transaction that calls the taking's `confirm` first."""
        token = uuid.uuid4().hex  # this taking's own: no other can renew, release or confirm it
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
            yield Taking(lease, holder_id, token)
        finally:
            renewing.cancel()
            await asyncio.gather(renewing, return_exceptions=True)  # how it ended is no concern of the work
            await self._db.write(lambda conn: lease_table.release(conn, lease.kind, holder_id, token))

    async def _renew(self, kind: LeaseKind, holder_id: int, token: str) -> None:
        """Renew the lease a third of the way through each period; a renewal that fails (the database busy
        for a moment) is logged and tried again at the next, while the lease still runs. A lease found gone
        stays gone: its work's result will be refused (see `Taking.confirm`)."""
        while True:
            await self._pause(self._seconds / 3)
            until = self._clock() + self._seconds
            renew = partial(lease_table.renew, kind=kind, holder_id=holder_id, token=token, until=until)
            try:
                if not await self._db.write(renew):
                    log.warning("a %s lease of %s ran out before it was renewed", kind, holder_id)
                    return
            except RecordsUnavailable:
                pass  # the outage is logged once, as it begins
            except Exception:
                log.exception("could not renew a %s lease of %s", kind, holder_id)
