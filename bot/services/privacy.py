"""Forget-me: delete a user's strategies and anonymise their records, so others' history stays whole."""

import secrets
import time

from bot.domain.errors import StillPlaying
from bot.domain.privacy import Forgotten
from bot.services.clock import Clock
from bot.storage import Connection, Database
from bot.storage import privacy as privacy_tables
from bot.storage import strategies as strategy_table

FORGOTTEN_NAME = "a forgotten player"
DELETED_STRATEGY = "a deleted strategy"


class PrivacyService:
    """Erases what identifies a user; their games stay, played by an anonymous player."""

    def __init__(self, db: Database, clock: Clock = time.time) -> None:
        self._db = db
        self._clock = clock

    async def forget(self, user_id: int) -> Forgotten:
        """Delete every strategy of the user (history included) and move their matches, turns and rating
        history to a fresh anonymous player; their ratings go. StillPlaying while they have an open game."""
        if await privacy_tables.open_match_ids(self._db, user_id):
            raise StillPlaying
        anonymous = -1 - secrets.randbelow(2**62)  # platform ids are positive: never a real user's
        now = self._clock()

        async def work(conn: Connection) -> Forgotten:
            ids = await strategy_table.owned_ids(conn, user_id)
            deleted = await strategy_table.delete_strategies(conn, ids, renamed=DELETED_STRATEGY)
            matches = await privacy_tables.anonymise(conn, user_id, anonymous, FORGOTTEN_NAME, now)
            return Forgotten(deleted, matches)

        return await self._db.write(work)
