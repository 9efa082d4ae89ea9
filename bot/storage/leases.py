"""Repository of leases: work one bot process holds for a while that every process must see (an upload
being checked, a server's tournament), each ending with its work or at its expiry."""

from enum import StrEnum

from bot.storage.database import Connection, Reader

# The lock key of taking a lease ("lease"): a count and an insert, together; and no taking while a holder
# stores its work's result (see `still_held`).
LEASES_LOCK = 0x6C65617365


class LeaseKind(StrEnum):
    UPLOAD = "upload"  # held by the uploader's id
    TOURNAMENT = "tournament"  # held by the server's id


async def take(
    conn: Connection,
    kind: LeaseKind,
    holder_id: int,
    token: str,
    until: float,
    *,
    now: float,
    limit: int | None,
) -> bool | None:
    """Take the lease until `until` under this taking's `token`: True if taken, False if its holder holds it
    already, None if `limit` leases of this kind are held (leases past their expiry are dropped first)."""
    await conn.lock(LEASES_LOCK)
    await conn.execute("DELETE FROM leases WHERE kind = ? AND expires_at <= ?", (kind.value, now))
    if limit is not None:
        held = await conn.fetch_one("SELECT COUNT(*) AS n FROM leases WHERE kind = ?", (kind.value,))
        if held is not None and held["n"] >= limit:
            return None
    taken = await conn.execute(
        "INSERT INTO leases (kind, holder_id, token, expires_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (kind, holder_id) DO NOTHING",
        (kind.value, holder_id, token, until),
    )
    return taken == 1


async def held(db: Reader, kind: LeaseKind, holder_id: int, now: float) -> tuple[bool, int]:
    """Whether `holder_id` holds its lease, and how many leases of this kind are held (live ones)."""
    rows = await db.fetch_all(
        "SELECT holder_id FROM leases WHERE kind = ? AND expires_at > ?", (kind.value, now)
    )
    return any(row["holder_id"] == holder_id for row in rows), len(rows)


async def renew(conn: Connection, kind: LeaseKind, holder_id: int, token: str, until: float) -> bool:
    """Keep this taking's lease until `until`; False if it is not held under `token` any more."""
    renewed = await conn.execute(
        "UPDATE leases SET expires_at = ? WHERE kind = ? AND holder_id = ? AND token = ?",
        (until, kind.value, holder_id, token),
    )
    return renewed == 1


async def still_held(conn: Connection, kind: LeaseKind, holder_id: int, token: str) -> bool:
    """Whether this taking still holds the lease (expired or not, no other has taken it), in the transaction
    that stores its work's result: no other taking can take the lease until that transaction ends."""
    await conn.lock(LEASES_LOCK)
    row = await conn.fetch_one(
        "SELECT 1 AS held FROM leases WHERE kind = ? AND holder_id = ? AND token = ?",
        (kind.value, holder_id, token),
    )
    return row is not None


async def release(conn: Connection, kind: LeaseKind, holder_id: int, token: str) -> None:
    """End this taking's lease (nothing, if another taking holds it now)."""
    await conn.execute(
        "DELETE FROM leases WHERE kind = ? AND holder_id = ? AND token = ?", (kind.value, holder_id, token)
    )
