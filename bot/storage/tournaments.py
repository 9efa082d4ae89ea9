"""Repository of tournaments and their standings, with their mapper; writes take a transaction's
connection."""

from bot.domain.shards import Shards
from bot.domain.tournaments import Pairing, Standing, Tournament
from bot.storage.database import Connection, Reader, Record
from bot.storage.sql import in_shards


def _standing(row: Record) -> Standing:
    return Standing(
        row["place"],
        row["name"],
        row["owner_id"],
        row["owner_name"],
        row["strategy_id"],
        row["points"],
        row["tiebreak"],
    )


async def _with_standings(db: Reader, row: Record | None) -> Tournament | None:
    """The tournament of a row, with its places in order and each owner's name (None once forgotten)."""
    if row is None:
        return None
    standings = await db.fetch_all(
        "SELECT s.*, p.name AS owner_name FROM tournament_standings s"
        " LEFT JOIN players p ON p.id = s.owner_id WHERE s.tournament_id = ? ORDER BY s.place",
        (row["id"],),
    )
    pairings = await db.fetch_all(
        "SELECT * FROM tournament_results WHERE tournament_id = ? ORDER BY a_place, b_place", (row["id"],)
    )
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        rules=row["rules"],
        goal=row["goal"],
        format=row["format"],
        seed=row["seed"],
        started_by=row["started_by"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        standings=tuple(map(_standing, standings)),
        channel_id=row["channel_id"],
        pairings=tuple(Pairing(p["a_place"], p["b_place"], p["a_result"], p["b_result"]) for p in pairings),
    )


async def insert_tournament(conn: Connection, tournament: Tournament) -> int:
    """A finished tournament, its standings and pairings (its `id` is not read), not shown yet; returns its
    id."""
    tournament_id = await conn.insert_id(
        "tournaments",
        {
            "guild_id": tournament.guild_id,
            "rules": tournament.rules,
            "goal": tournament.goal,
            "format": tournament.format,
            "seed": tournament.seed,
            "started_by": tournament.started_by,
            "created_at": tournament.created_at,
            "finished_at": tournament.finished_at,
            "channel_id": tournament.channel_id,
        },
    )
    for standing in tournament.standings:
        await conn.insert(
            "tournament_standings",
            {
                "tournament_id": tournament_id,
                "place": standing.place,
                "strategy_id": standing.strategy_id,
                "owner_id": standing.owner_id,
                "name": standing.name,
                "points": standing.points,
                "tiebreak": standing.tiebreak,
            },
        )
    await conn.execute_many(
        "INSERT INTO tournament_results (tournament_id, a_place, b_place, a_result, b_result)"
        " VALUES (?, ?, ?, ?, ?)",
        [(tournament_id, p.a_place, p.b_place, p.a_result, p.b_result) for p in tournament.pairings],
    )
    return tournament_id


async def get_tournament(db: Reader, tournament_id: int) -> Tournament | None:
    return await _with_standings(
        db, await db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    )


async def latest_tournament(db: Reader, guild_id: int, rules: str | None = None) -> Tournament | None:
    """A server's most recent tournament (under one rule set, if given)."""
    if rules is None:
        row = await db.fetch_one("SELECT * FROM tournaments WHERE guild_id = ? ORDER BY id DESC", (guild_id,))
    else:
        row = await db.fetch_one(
            "SELECT * FROM tournaments WHERE guild_id = ? AND rules = ? ORDER BY id DESC", (guild_id, rules)
        )
    return await _with_standings(db, row)


async def set_shown(conn: Connection, tournament_id: int) -> None:
    """Record that the tournament's standings were shown."""
    await conn.execute("UPDATE tournaments SET shown = 1 WHERE id = ?", (tournament_id,))


async def unshown(db: Reader, shards: Shards | None) -> list[Tournament]:
    """The tournaments stored but never shown that have a channel to show them in, of the servers of these
    shards, oldest first (the partial index `tournaments_unshown` keeps this cheap)."""
    rows = await db.fetch_all(
        f"SELECT * FROM tournaments WHERE shown = 0 AND channel_id IS NOT NULL{in_shards(shards)} ORDER BY id"
    )
    return [tournament for row in rows if (tournament := await _with_standings(db, row)) is not None]
