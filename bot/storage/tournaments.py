"""Repository of tournaments and their standings: plain SQL; writes take an open transaction's connection."""

from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from bot.storage.db import Database, Row
from bot.storage.sql import insert_row


async def insert_tournament(
    conn: aiosqlite.Connection, values: Mapping[str, Any], standings: Sequence[Mapping[str, Any]]
) -> int:
    """A finished tournament and its standings (rows without the tournament id); returns its id."""
    tournament_id = await insert_row(conn, "tournaments", values)
    for standing in standings:
        await insert_row(conn, "tournament_standings", {"tournament_id": tournament_id, **standing})
    return tournament_id


async def get_tournament(db: Database, tournament_id: int) -> Row | None:
    return await db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))


async def latest_tournament(db: Database, guild_id: int, rules: str | None = None) -> Row | None:
    """A server's most recent tournament (under one rule set, if given)."""
    if rules is None:
        return await db.fetch_one(
            "SELECT * FROM tournaments WHERE guild_id = ? ORDER BY id DESC", (guild_id,)
        )
    return await db.fetch_one(
        "SELECT * FROM tournaments WHERE guild_id = ? AND rules = ? ORDER BY id DESC", (guild_id, rules)
    )


async def standings(db: Database, tournament_id: int) -> list[Row]:
    """A tournament's places in order, with each owner's name (None once they were forgotten)."""
    return await db.fetch_all(
        "SELECT s.*, p.name AS owner_name FROM tournament_standings s"
        " LEFT JOIN players p ON p.id = s.owner_id WHERE s.tournament_id = ? ORDER BY s.place",
        (tournament_id,),
    )
