"""Repository of contests, their entries and members, their partner invitations, and the practice pairs;
writes take a transaction's connection.
Every change of a contest's entries takes CONTESTS_LOCK first, so the one-entry-per-person
checks and the close never interleave (across processes on PostgreSQL too)."""

from collections.abc import Iterable, Sequence

from bot.domain.contests import (
    Contest,
    ContestStatus,
    Entry,
    Invitation,
    InvitationKey,
    InvitationState,
    Member,
    Result,
)
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
        ping_role_id=row["ping_role_id"],
        reminded=row["reminded"],
        results_message_id=row["results_message_id"],
    )


_CONTEST_COLUMNS = (
    "id, guild_id, channel_id, rules, format, title, opened_by, opened_at, closes_at, status, seed,"
    " closed_at, posted, ping_role_id, reminded, results_message_id"
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
            "ping_role_id": contest.ping_role_id,
            "reminded": contest.reminded,
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


async def set_posted(conn: Connection, contest_id: int, message_id: int | None) -> None:
    """Record that the contest's results were posted (as message `message_id`; None: they cannot be)."""
    await conn.execute(
        "UPDATE contests SET posted = 1, results_message_id = ? WHERE id = ?", (message_id, contest_id)
    )


async def reminding(db: Reader, now: float, within: float, shards: Shards | None) -> list[Contest]:
    """The open contests of these shards' servers closing within `within` seconds of `now` with a reminder
    still to send (one later than the latest sent), soonest first."""
    return await _contests(
        db,
        f"{_OPEN} AND (reminded IS NULL OR reminded > 1) AND closes_at > ? AND closes_at <= ?"
        f"{in_shards(shards)} ORDER BY closes_at",
        (now, now + within),
    )


async def claim_reminder(conn: Connection, contest_id: int, hours: int) -> bool:
    """Record that the reminder `hours` before the contest's close is sent (with every earlier one), unless
    it or a later one was already; whether this call recorded it (then its caller sends it)."""
    claimed = await conn.execute(
        f"UPDATE contests SET reminded = ? WHERE id = ? AND {_OPEN} AND (reminded IS NULL OR reminded > ?)",
        (hours, contest_id, hours),
    )
    return claimed == 1


async def unclaim_reminder(conn: Connection, contest_id: int, hours: int, before: int | None) -> None:
    """Undo `claim_reminder` (its message could not be sent): `before` is what was recorded before it."""
    await conn.execute(
        "UPDATE contests SET reminded = ? WHERE id = ? AND reminded = ?", (before, contest_id, hours)
    )


async def record(db: Reader, contest_id: int) -> str | None:
    """The stored record of a closed contest's final tournament (compressed, as stored)."""
    row = await db.fetch_one("SELECT record FROM contests WHERE id = ?", (contest_id,))
    return None if row is None else row["record"]


# Entries and members.


def _result(row: Record) -> Result | None:
    if row["number"] is None or row["place"] is None:
        return None
    return Result(row["number"], row["place"], row["wins"], row["losses"], row["baseline"])


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
            row["entered_at"],
        )
        for row in rows
    ]


async def add_entry(
    conn: Connection, contest_id: int, lead_id: int, members: Iterable[int], now: float
) -> None:
    """A new entry made by `lead_id` at `now`, without a strategy yet, and its members."""
    await conn.insert("contest_entries", {"contest_id": contest_id, "lead_id": lead_id, "entered_at": now})
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
        "INSERT INTO contest_entries (contest_id, lead_id, owner_id, strategy_name, entered_at)"
        " SELECT contest_id, ?, owner_id, strategy_name, entered_at FROM contest_entries"
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
    id, its team name), and its record; entries without a result (no strategy at the close) are dropped,
    and its open invitations are void. False if it was closed already (nothing changes)."""
    closed = await conn.execute(
        f"UPDATE contests SET status = '{ContestStatus.CLOSED.value}', closed_at = ?, seed = ?, record = ?"
        f" WHERE id = ? AND {_OPEN}",
        (closed_at, seed, stored_record, contest_id),
    )
    if closed != 1:
        return False
    await conn.execute_many(
        "UPDATE contest_entries SET number = ?, place = ?, wins = ?, losses = ?, baseline = ?,"
        " strategy_id = ?, team_name = ? WHERE contest_id = ? AND lead_id = ?",
        [
            (r.number, r.place, r.wins, r.losses, r.baseline, strategy_id, team, contest_id, lead)
            for lead, r, strategy_id, team in results
        ],
    )
    await void_invitations(conn, contest_id)
    kept = [lead for lead, *_ in results]
    gone = f" AND lead_id NOT IN ({marks(kept)})" if kept else ""
    await conn.execute(f"DELETE FROM contest_members WHERE contest_id = ?{gone}", (contest_id, *kept))
    await conn.execute(f"DELETE FROM contest_entries WHERE contest_id = ?{gone}", (contest_id, *kept))
    return True


# Partner invitations.

_INVITATION = (
    "SELECT i.*, a.name AS inviter_name, b.name AS invitee_name FROM contest_invitations i"
    " LEFT JOIN players a ON a.id = i.inviter_id LEFT JOIN players b ON b.id = i.invitee_id"
)


def _invitation(row: Record) -> Invitation:
    return Invitation(
        contest_id=row["contest_id"],
        inviter=Member(row["inviter_id"], row["inviter_name"]),
        invitee=Member(row["invitee_id"], row["invitee_name"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        state=InvitationState(row["state"]),
        shown=bool(row["shown"]),
        to_tell=bool(row["to_tell"]),
    )


_KEY = "contest_id = ? AND inviter_id = ? AND invitee_id = ?"


async def invite(conn: Connection, key: InvitationKey, guild_id: int, channel_id: int, now: float) -> None:
    """A new open invitation (replacing an earlier one between the same two, answered or not), whose
    message is not known yet; both people are recorded already."""
    await conn.execute(f"DELETE FROM contest_invitations WHERE {_KEY}", key)
    await conn.insert(
        "contest_invitations",
        {**key._asdict(), "guild_id": guild_id, "channel_id": channel_id, "created_at": now},
    )


async def set_invitation_message(conn: Connection, key: InvitationKey, message_id: int) -> None:
    await conn.execute(f"UPDATE contest_invitations SET message_id = ? WHERE {_KEY}", (message_id, *key))


async def invitation(db: Reader, key: InvitationKey) -> Invitation | None:
    row = await db.fetch_one(
        f"{_INVITATION} WHERE i.contest_id = ? AND i.inviter_id = ? AND i.invitee_id = ?", key
    )
    return None if row is None else _invitation(row)


async def answer_invitation(conn: Connection, key: InvitationKey, accepted: bool, now: float) -> bool:
    """Record the invitee's answer to an open invitation, its message to show it and its inviter to be told;
    False if it was not open (nothing changes)."""
    state = InvitationState.ACCEPTED if accepted else InvitationState.DECLINED
    answered = await conn.execute(
        "UPDATE contest_invitations SET state = ?, answered_at = ?, shown = 0, to_tell = 1"
        f" WHERE {_KEY} AND state = '{InvitationState.OPEN}'",
        (state.value, now, *key),
    )
    return answered == 1


async def void_invitations(conn: Connection, contest_id: int, people: Sequence[int] | None = None) -> None:
    """Void the contest's open invitations (of which either side is one of `people`, if given): their
    messages are to lose their buttons."""
    among_people = ""
    if people is not None:
        among_people = f" AND (inviter_id IN ({marks(people)}) OR invitee_id IN ({marks(people)}))"
    await conn.execute(
        f"UPDATE contest_invitations SET state = '{InvitationState.VOID}', shown = 0"
        f" WHERE contest_id = ? AND state = '{InvitationState.OPEN}'{among_people}",
        (contest_id, *(people or ()), *(people or ())),
    )


async def lagging_invitations(db: Reader, shards: Shards | None) -> list[Invitation]:
    """The invitations of these shards' servers whose message still shows buttons it should not, or whose
    inviter is still to be told the answer (the partial index `contest_invitations_lagging` keeps this
    cheap)."""
    rows = await db.fetch_all(
        f"{_INVITATION} WHERE (i.shown = 0 OR i.to_tell = 1){in_shards(shards, 'i.guild_id')}"
        " ORDER BY i.answered_at, i.created_at"
    )
    return [_invitation(row) for row in rows]


async def set_invitation_shown(conn: Connection, key: InvitationKey) -> None:
    await conn.execute(f"UPDATE contest_invitations SET shown = 1 WHERE {_KEY}", key)


async def claim_telling(conn: Connection, key: InvitationKey) -> bool:
    """Take the telling of an invitation's answer to its inviter (whoever takes it tells, once)."""
    claimed = await conn.execute(
        f"UPDATE contest_invitations SET to_tell = 0 WHERE {_KEY} AND to_tell = 1", key
    )
    return claimed == 1


async def wants_notices(db: Reader, player_id: int) -> bool:
    """Whether the person wants messages that mention them (`/hog notices`; on until they turn it off)."""
    row = await db.fetch_one("SELECT turn_notices FROM players WHERE id = ?", (player_id,))
    return row is None or bool(row["turn_notices"])


# Practice pairs.


async def known_rates(db: Reader, rules: str, hashes: Sequence[str]) -> dict[tuple[str, str], float]:
    """The stored exact win rates of every pair of tables met before of which either is one of these, by
    the pair as it is kept: its first hash below the second, with the first one's rate."""
    if not hashes:
        return {}
    rows = await db.fetch_all(
        "SELECT a_hash, b_hash, rate FROM contest_pairs"
        f" WHERE rules = ? AND a_hash IN ({marks(hashes)}) UNION SELECT a_hash, b_hash, rate"
        f" FROM contest_pairs WHERE rules = ? AND b_hash IN ({marks(hashes)})",
        (rules, *hashes, rules, *hashes),
    )
    return {(row["a_hash"], row["b_hash"]): row["rate"] for row in rows}


async def add_pairs(conn: Connection, rules: str, rates: dict[tuple[str, str], float]) -> None:
    await conn.execute_many(
        "INSERT INTO contest_pairs (rules, a_hash, b_hash, rate) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [(rules, a, b, rate) for (a, b), rate in rates.items()],
    )
