"""How one person's uploads are rationed: under each rule set, an upload whose check kept the sandbox busy
(SANDBOX_SECONDS of CPU or more, whatever its verdict) starts a cooldown for that rule set; quick checks
start none, so a class fixing its files one mistake at a time is never held back. (One upload of theirs
checked at a time is a lease: see leases.py.)"""

from bot.domain.errors import OnCooldown
from bot.domain.matches import Player
from bot.services.clock import Clock
from bot.storage import Database
from bot.storage import cooldowns as cooldown_table
from hogengine.rules import RuleSet

SANDBOX_SECONDS = 1.0  # CPU time of a check (its full run of the file) from which it costs a cooldown


class Cooldowns:
    """Per person and rule set, in the database, so every bot process sees them."""

    def __init__(self, db: Database, cooldown_seconds: float, clock: Clock) -> None:
        self._db = db
        self._cooldown = cooldown_seconds
        self._clock = clock

    async def check(self, user_id: int, rules: RuleSet) -> None:
        """OnCooldown, saying why and when it ends, while the person's cooldown under `rules` runs."""
        found = await cooldown_table.cooldown(self._db, user_id, rules.id)
        if found is not None and self._clock() < found[0] + self._cooldown:
            charged, cpu_seconds = found
            raise OnCooldown(charged + self._cooldown, rules.name, cpu_seconds)

    async def charge(self, person: Player, rules: RuleSet, cpu_seconds: float | None) -> float | None:
        """Account for a finished check: one that kept the sandbox busy starts the person's cooldown under
        `rules` now. When that cooldown ends, in Unix seconds (None: there is none)."""
        if cpu_seconds is None or cpu_seconds < SANDBOX_SECONDS or self._cooldown <= 0:
            return None
        now = self._clock()
        await self._db.write(
            lambda conn: cooldown_table.save_cooldown(conn, person, rules.id, now, cpu_seconds)
        )
        return now + self._cooldown
