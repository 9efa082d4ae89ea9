"""Repository of the games' press tokens (`press_tokens`): at most one per game and reach, each read only
while usable and deleted once past it (`forget_expired`), so no secret outlives its use."""

from bot.domain.tokens import PressToken, PressTokens, Reach
from bot.storage.database import Connection, Reader, Record


def token_from(row: Record, prefix: str = "") -> PressToken | None:
    """The token of a row's columns (`prefix`ed, as a join names them), or None if it has none."""
    secret = row[f"{prefix}token"]
    if secret is None:
        return None
    return PressToken(
        secret, row[f"{prefix}message_id"], bool(row[f"{prefix}original"]), row[f"{prefix}usable_until"]
    )


async def tokens_of(db: Reader, match_id: int, now: float) -> PressTokens:
    """The game's press tokens usable at `now`."""
    rows = await db.fetch_all(
        "SELECT reaches, token, message_id, original, usable_until FROM press_tokens"
        " WHERE match_id = ? AND usable_until > ?",
        (match_id, now),
    )
    found = {Reach(row["reaches"]): token_from(row) for row in rows}
    return PressTokens(found.get(Reach.BOARD), found.get(Reach.NOTICE))


async def set_token(conn: Connection, match_id: int, reach: Reach, token: PressToken | None) -> None:
    """Keep `token` as what reaches the game's board or notice (None: nothing does any more)."""
    if token is None:
        await conn.execute(
            "DELETE FROM press_tokens WHERE match_id = ? AND reaches = ?", (match_id, reach.value)
        )
        return
    await conn.execute(
        "INSERT INTO press_tokens (match_id, reaches, token, message_id, original, usable_until)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, reaches) DO UPDATE SET token = excluded.token,"
        " message_id = excluded.message_id, original = excluded.original,"
        " usable_until = excluded.usable_until",
        (match_id, reach.value, token.secret, token.message_id, int(token.original), token.usable_until),
    )


async def forget_expired(conn: Connection, now: float) -> int:
    """Delete every token no longer usable at `now`; how many."""
    return await conn.execute("DELETE FROM press_tokens WHERE usable_until <= ?", (now,))
