"""Course staff and what students link for them on a server: the staff role a manager sets (its members run
the staff commands as managers do), and each student's course id, linked once privately and shown only in
staff exports."""

import re
import time

from bot.domain.errors import BadCourseId
from bot.domain.matches import Player
from bot.services.clock import Clock
from bot.storage import Connection, Database
from bot.storage import course as course_table
from bot.storage import players as player_table

MAX_COURSE_ID = 64
_COURSE_ID = re.compile(rf"[\w.@+-]{{1,{MAX_COURSE_ID}}}")


class CourseStaff:
    """A server's staff role and its students' course ids."""

    def __init__(self, db: Database, clock: Clock = time.time) -> None:
        self._db = db
        self._clock = clock

    async def role(self, guild_id: int) -> int | None:
        """The server's staff role (None: only members with Manage Server are staff)."""
        return await course_table.staff_role(self._db, guild_id)

    async def set_role(self, guild_id: int, role_id: int | None, manager: Player) -> None:
        """Make `role_id` the server's staff role (None: none). The caller checked that `manager` may."""
        now = self._clock()
        await self._db.write(
            lambda conn: course_table.set_staff_role(conn, guild_id, role_id, manager.id, now)
        )

    async def link(self, guild_id: int, person: Player, course_id: str) -> str:
        """Link the person's course id on this server (replacing the one before); the id as stored
        (BadCourseId unless it is one word of letters, digits and . _ - @ +)."""
        typed = course_id.strip()
        if not _COURSE_ID.fullmatch(typed):
            raise BadCourseId(MAX_COURSE_ID)
        now = self._clock()

        async def work(conn: Connection) -> None:
            await player_table.upsert_players(conn, [person], now)
            await course_table.link(conn, guild_id, person.id, typed, now)

        await self._db.write(work)
        return typed

    async def linked(self, guild_id: int, person_id: int) -> str | None:
        """The course id the person linked on this server, if any."""
        return (await course_table.course_ids(self._db, guild_id, [person_id])).get(person_id)
