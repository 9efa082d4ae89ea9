"""Repository of Activity instances: where each runs, the match it shows, and who waits at it for a friend.
Every change bumps the row's version and is conditional on the version read (see 0016_activity_instances)."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.domain.matches import Player
from bot.storage.database import Connection, Reader
from bot.storage.sql import assignments, marks

# Instances nobody changed for this long are dropped when a new one is recorded: an instance lives while
# people are in it, and a game's turns are minutes apart (a table shows its game as long as it lives).
KEPT_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class TableRow:
    """An instance's row: the match it shows by id, its host with their name."""

    instance_id: str
    guild_id: int
    channel_id: int
    match_id: int | None
    host: Player | None
    rules: str | None
    goal: int | None
    version: int


@dataclass(frozen=True, slots=True)
class Stamp:
    """What tells whether an instance's page is up to date: its version, its match's, and the turn clock
    (a board shown starts the clock without a version of its own)."""

    version: int
    match_id: int | None
    match_version: int | None
    deadline: float | None


def _row(row: Any) -> TableRow:
    host = None if row["host_id"] is None else Player(row["host_id"], row["host_name"])
    return TableRow(
        row["instance_id"],
        row["guild_id"],
        row["channel_id"],
        row["match_id"],
        host,
        row["rules"],
        row["goal"],
        row["version"],
    )


async def get(db: Reader, instance_id: str) -> TableRow | None:
    row = await db.fetch_one(
        "SELECT a.*, p.name AS host_name FROM activity_instances a"
        " LEFT JOIN players p ON p.id = a.host_id WHERE a.instance_id = ?",
        (instance_id,),
    )
    return None if row is None else _row(row)


async def add(conn: Connection, instance_id: str, guild_id: int, channel_id: int, now: float) -> None:
    """Record a new instance (nothing if it is recorded), dropping those left alone past KEPT_SECONDS."""
    await conn.execute(
        "DELETE FROM activity_instances WHERE updated_at < ? AND instance_id <> ?",
        (now - KEPT_SECONDS, instance_id),
    )
    await conn.execute(
        "INSERT INTO activity_instances (instance_id, guild_id, channel_id, version, created_at, updated_at)"
        " VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT (instance_id) DO NOTHING",
        (instance_id, guild_id, channel_id, now, now),
    )


async def change(conn: Connection, read: TableRow, now: float, **values: Any) -> bool:
    """Set these columns (match_id, host_id, rules, goal) if the row still has the version read; whether
    it had."""
    assigned, params = assignments(values | {"updated_at": now})
    changed = await conn.execute(
        f"UPDATE activity_instances SET {assigned}, version = version + 1"
        " WHERE instance_id = ? AND version = ?",
        [*params, read.instance_id, read.version],
    )
    return changed == 1


async def stamps(db: Reader, instance_ids: Iterable[str]) -> dict[str, Stamp]:
    """The stamps of these instances (those recorded), in one query."""
    ids = list(instance_ids)
    if not ids:
        return {}
    rows = await db.fetch_all(
        "SELECT a.instance_id, a.version, a.match_id, m.version AS match_version, m.turn_deadline"
        " FROM activity_instances a LEFT JOIN matches m ON m.id = a.match_id"
        f" WHERE a.instance_id IN ({marks(ids)})",
        ids,
    )
    return {
        row["instance_id"]: Stamp(row["version"], row["match_id"], row["match_version"], row["turn_deadline"])
        for row in rows
    }
