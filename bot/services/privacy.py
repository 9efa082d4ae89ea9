"""Forget-me: delete a user's strategies and anonymise their records, so others' history stays whole."""

import secrets
import time

import aiosqlite

from bot.services.contest_errors import StillPlaying
from bot.services.contest_models import Forgotten
from bot.services.store import Clock
from bot.storage import Database, strategy_repo
from bot.storage import privacy_repo as repo

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
        if await repo.open_match_ids(self._db, user_id):
            raise StillPlaying("Finish or forfeit your open games and challenges first.")
        anonymous = -1 - secrets.randbelow(2**62)  # platform ids are positive: never a real user's
        now = self._clock()

        async def work(conn: aiosqlite.Connection) -> Forgotten:
            ids = await strategy_repo.owned_ids(conn, user_id)
            deleted = await strategy_repo.delete_strategies(conn, ids, renamed=DELETED_STRATEGY)
            matches = await repo.anonymise(conn, user_id, anonymous, FORGOTTEN_NAME, now)
            return Forgotten(deleted, matches)

        return await self._db.write(work)
