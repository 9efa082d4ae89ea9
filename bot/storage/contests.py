"""Repository of contests, their entries and members, and the practice pairs; writes take a transaction's
connection. Every change of a contest's entries takes CONTESTS_LOCK first, so the one-entry-per-person
checks and the close never interleave (across processes on PostgreSQL too)."""

from collections.abc import Iterable, Sequence

from bot.domain.contests import Contest, ContestStatus, Entry, Member, Result
from bot.domain.shards import Shards
from bot.storage.database import Connection, Reader, Record
from bot.storage.sql import in_shards, marks

CONTESTS_LOCK = 0x636F6E74  # "cont"
_OPEN = f"status = '{ContestStatus.OPEN.value}'"


def _contest(row: Record) -> Contest:
    return Contest(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        rules=row["rules"],
        format=row["format"],
        title=row["title"],
        opened_by=row["opened_by"],
        opened_at=row["opened_at"],
        closes_at=row["closes_at"],
        status=ContestStatus(row["status"]),
        seed=row["seed"],
        closed_at=row["closed_at"],
        posted=bool(row["posted"]),
    )


_CONTEST_COLUMNS = (
    "id, guild_id, channel_id, rules, format, title, opened_by, opened_at, closes_at, status, seed,"
    " closed_at, posted"
)


async def _contests(db: Reader, where: str, params: Sequence[object] = ()) -> list[Contest]:
    rows = await db.fetch_all(f"SELECT {_CONTEST_COLUMNS} FROM contests WHERE {where}", params)
    return [_contest(row) for row in rows]


async def insert_contest(conn: Connection, contest: Contest) -> int:
    """A new open contest (its `id` is not read: the next free one is given); returns its id. The caller
    holds CONTESTS_LOCK and checked that none is open for the server and rule set."""
    row = await conn.fetch_one("SELECT COALESCE(MAX(id), 0) + 1 AS id FROM contests")
    contest_id = int(row["id"]) if row is not None else 1
    await conn.insert(
        "contests",
        {
            "id": contest_id,
            "guild_id": contest.guild_id,
            "channel_id": contest.channel_id,
            "rules": contest.rules,
            "format": contest.format,
            "title": contest.title,
            "opened_by": contest.opened_by,
            "opened_at": contest.opened_at,
            "closes_at": contest.closes_at,
            "status": contest.status.value,
        },
    )
    return contest_id


async def get_contest(db: Reader, contest_id: int) -> Contest | None:
    return next(iter(await _contests(db, "id = ?", (contest_id,))), None)


async def open_contests(db: Reader, guild_id: int, rules: str | None = None) -> list[Contest]:
    """A server's open contests (of one rule set, if given), by rule set."""
    if rules is None:
        return await _contests(db, f"guild_id = ? AND {_OPEN} ORDER BY rules", (guild_id,))
    return await _contests(db, f"guild_id = ? AND rules = ? AND {_OPEN}", (guild_id, rules))


async def latest_contest(db: Reader, guild_id: int, rules: str | None = None) -> Contest | None:
    """A server's most recent contest, open or closed (of one rule set, if given)."""
    where, params = "guild_id = ?", [guild_id]
    if rules is not None:
        where, params = where + " AND rules = ?", [guild_id, rules]  # type: ignore[list-item]
    return next(iter(await _contests(db, f"{where} ORDER BY id DESC", params)), None)


async def latest_closed(db: Reader, guild_id: int, rules: str | None = None) -> Contest | None:
    """A server's most recently closed contest (of one rule set, if given)."""
    closed = f"guild_id = ? AND status = '{ContestStatus.CLOSED.value}'"
    if rules is None:
        found = await _contests(db, f"{closed} ORDER BY closed_at DESC, id DESC", (guild_id,))
    else:
        found = await _contests(
            db, f"{closed} AND rules = ? ORDER BY closed_at DESC, id DESC", (guild_id, rules)
        )
    return next(iter(found), None)


async def due(db: Reader, now: float, shards: Shards | None) -> list[Contest]:
    """The open contests of these shards' servers whose close time has come, soonest first."""
    return await _contests(db, f"{_OPEN} AND closes_at <= ?{in_shards(shards)} ORDER BY closes_at", (now,))


async def unposted(db: Reader, shards: Shards | None) -> list[Contest]:
    """The closed contests of these shards' servers whose results were stored but never posted."""
    closed = f"status = '{ContestStatus.CLOSED.value}' AND posted = 0"
    return await _contests(db, f"{closed}{in_shards(shards)} ORDER BY id")


async def set_closes_at(conn: Connection, contest_id: int, when: float) -> bool:
    """Move an open contest's close time; False if it is not open any more."""
    return (
        await conn.execute(f"UPDATE contests SET closes_at = ? WHERE id = ? AND {_OPEN}", (when, contest_id))
        == 1
    )


async def set_posted(conn: Connection, contest_id: int) -> None:
    await conn.execute("UPDATE contests SET posted = 1 WHERE id = ?", (contest_id,))


async def record(db: Reader, contest_id: int) -> str | None:
    """The stored record of a closed contest's final tournament (compressed, as stored)."""
    row = await db.fetch_one("SELECT record FROM contests WHERE id = ?", (contest_id,))
    return None if row is None else row["record"]


# Entries and members.


def _result(row: Record) -> Result | None:
    if row["number"] is None or row["place"] is None:
        return None
    return Result(row["number"], row["place"], row["wins"], row["losses"], row["tiebreak"], row["baseline"])


async def entries(db: Reader, contest_id: int, person_id: int | None = None) -> list[Entry]:
    """A contest's entries with their members and names (of one person's entry, if given), by place once
    closed, else in the order they were made."""
    where, params = "e.contest_id = ?", [contest_id]
    if person_id is not None:
        where += (
            " AND e.lead_id = (SELECT lead_id FROM contest_members WHERE contest_id = ? AND player_id = ?)"
        )
        params += [contest_id, person_id]
    rows = await db.fetch_all(
        f"SELECT e.* FROM contest_entries e WHERE {where} ORDER BY e.place, e.lead_id", params
    )
    members = await db.fetch_all(
        "SELECT m.lead_id, m.player_id, p.name FROM contest_members m"
        " LEFT JOIN players p ON p.id = m.player_id WHERE m.contest_id = ?"
        " ORDER BY m.lead_id, m.player_id <> m.lead_id, m.player_id",
        (contest_id,),
    )
    by_lead: dict[int, list[Member]] = {}
    for member in members:
        by_lead.setdefault(member["lead_id"], []).append(Member(member["player_id"], member["name"]))
    return [
        Entry(
            row["contest_id"],
            row["lead_id"],
            tuple(by_lead.get(row["lead_id"], ())),
            row["owner_id"],
            row["strategy_name"],
            row["team_name"],
            _result(row),
        )
        for row in rows
    ]


async def add_entry(conn: Connection, contest_id: int, lead_id: int, members: Iterable[int]) -> None:
    """A new entry made by `lead_id`, without a strategy yet, and its members."""
    await conn.insert("contest_entries", {"contest_id": contest_id, "lead_id": lead_id})
    await conn.execute_many(
        "INSERT INTO contest_members (contest_id, player_id, lead_id) VALUES (?, ?, ?)",
        [(contest_id, member, lead_id) for member in members],
    )


async def add_member(conn: Connection, contest_id: int, lead_id: int, person_id: int) -> None:
    await conn.insert(
        "contest_members", {"contest_id": contest_id, "player_id": person_id, "lead_id": lead_id}
    )


async def set_strategy(
    conn: Connection, contest_id: int, lead_id: int, owner_id: int | None, name: str | None
) -> None:
    """Name the entry's strategy (by its owner and name; None: none)."""
    await conn.execute(
        "UPDATE contest_entries SET owner_id = ?, strategy_name = ? WHERE contest_id = ? AND lead_id = ?",
        (owner_id, name, contest_id, lead_id),
    )


async def remove_entry(conn: Connection, contest_id: int, lead_id: int) -> None:
    """An entry and its members, gone."""
    await conn.execute(
        "DELETE FROM contest_members WHERE contest_id = ? AND lead_id = ?", (contest_id, lead_id)
    )
    await conn.execute(
        "DELETE FROM contest_entries WHERE contest_id = ? AND lead_id = ?", (contest_id, lead_id)
    )


async def rekey_entry(conn: Connection, contest_id: int, lead_id: int, new_lead: int) -> None:
    """The entry made by `lead_id` is now `new_lead`'s (its maker left it): copied under the new key, its
    members moved, the old row dropped, so its maker may enter again."""
    await conn.execute(
        "INSERT INTO contest_entries (contest_id, lead_id, owner_id, strategy_name)"
        " SELECT contest_id, ?, owner_id, strategy_name FROM contest_entries"
        " WHERE contest_id = ? AND lead_id = ?",
        (new_lead, contest_id, lead_id),
    )
    await conn.execute(
        "UPDATE contest_members SET lead_id = ? WHERE contest_id = ? AND lead_id = ?",
        (new_lead, contest_id, lead_id),
    )
    await conn.execute(
        "DELETE FROM contest_entries WHERE contest_id = ? AND lead_id = ?", (contest_id, lead_id)
    )


async def remove_member(conn: Connection, contest_id: int, person_id: int) -> None:
    await conn.execute(
        "DELETE FROM contest_members WHERE contest_id = ? AND player_id = ?", (contest_id, person_id)
    )


async def close(
    conn: Connection,
    contest_id: int,
    *,
    closed_at: float,
    seed: str | None,
    stored_record: str,
    results: Sequence[tuple[int, Result, int, str | None]],
) -> bool:
    """Close an open contest with its final results, each (lead id, result, the frozen strategy version's
    id, its team name), and its record; entries without a result (no strategy at the close) are dropped.
    False if it was closed already (nothing changes)."""
    closed = await conn.execute(
        f"UPDATE contests SET status = '{ContestStatus.CLOSED.value}', closed_at = ?, seed = ?, record = ?"
        f" WHERE id = ? AND {_OPEN}",
        (closed_at, seed, stored_record, contest_id),
    )
    if closed != 1:
        return False
    await conn.execute_many(
        "UPDATE contest_entries SET number = ?, place = ?, wins = ?, losses = ?, tiebreak = ?, baseline = ?,"
        " strategy_id = ?, team_name = ? WHERE contest_id = ? AND lead_id = ?",
        [
            (r.number, r.place, r.wins, r.losses, r.tiebreak, r.baseline, strategy_id, team, contest_id, lead)
            for lead, r, strategy_id, team in results
        ],
    )
    kept = [lead for lead, *_ in results]
    gone = f" AND lead_id NOT IN ({marks(kept)})" if kept else ""
    await conn.execute(f"DELETE FROM contest_members WHERE contest_id = ?{gone}", (contest_id, *kept))
    await conn.execute(f"DELETE FROM contest_entries WHERE contest_id = ?{gone}", (contest_id, *kept))
    return True


# Practice pairs.


async def known_pairs(db: Reader, rules: str, table_hash: str) -> dict[str, float]:
    """The stored exact win rates of the table of this hash against every table it met, by the other's
    hash (a pair is kept once, its first hash below the second, with the first one's rate)."""
    rows = await db.fetch_all(
        "SELECT a_hash, b_hash, rate FROM contest_pairs WHERE rules = ? AND a_hash = ?"
        " UNION ALL SELECT a_hash, b_hash, 1 - rate AS rate FROM contest_pairs"
        " WHERE rules = ? AND b_hash = ?",
        (rules, table_hash, rules, table_hash),
    )
    return {row["b_hash"] if row["a_hash"] == table_hash else row["a_hash"]: row["rate"] for row in rows}


async def add_pairs(conn: Connection, rules: str, rates: dict[tuple[str, str], float]) -> None:
    await conn.execute_many(
        "INSERT INTO contest_pairs (rules, a_hash, b_hash, rate) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [(rules, a, b, rate) for (a, b), rate in rates.items()],
    )
