"""How one person's uploads are rationed: a cooldown after every run that made the sandbox work, and free
tries for mistakes fixed at once (one upload of theirs checked at a time is a lease: see leases.py)."""

from bot.domain.errors import OnCooldown
from bot.domain.matches import Player
from bot.services.clock import Clock
from bot.storage import Database
from bot.storage import cooldowns as cooldown_table

# Refusals a person can fix at once (the file does not parse, imports what it cannot, raises or returns a
# value it may not, has no final_strategy of two arguments or no proper TEAM_NAME, is not UTF-8): a run
# ending this way within QUICK_CPU_SECONDS does not start the cooldown ...
QUICK_FIXES = frozenset(
    {
        "syntax_error",
        "no_final_strategy",
        "wrong_signature",
        "bad_team_name",
        "not_utf8",
        "exception",
        "illegal_value",
    }
)
QUICK_CPU_SECONDS = 1.0
# ... unless it is the FREE_TRIES-th such run within one cooldown period: the sandbox is no syntax checker.
FREE_TRIES = 5


class Cooldowns:
    """Per person, in the database, so every bot process sees them: when their cooldown started, and their
    recent quick refusals."""

    def __init__(self, db: Database, cooldown_seconds: float, clock: Clock) -> None:
        self._db = db
        self._cooldown = cooldown_seconds
        self._clock = clock

    async def check(self, user_id: int) -> None:
        """OnCooldown, saying when it ends, while the person's cooldown runs."""
        charged, _ = await cooldown_table.cooldown(self._db, user_id)
        if charged is not None and self._clock() < charged + self._cooldown:
            raise OnCooldown(charged + self._cooldown)

    async def charge(self, person: Player) -> float | None:
        """Start the person's cooldown now (the sandbox finished a run for them, or a table was accepted);
        when it ends, in Unix seconds (None: there is no cooldown)."""
        now = self._clock()
        await self._db.write(lambda conn: cooldown_table.save_cooldown(conn, person, now, [], now))
        return now + self._cooldown if self._cooldown > 0 else None

    async def refused(self, person: Player, kind: str, cpu_seconds: float | None) -> float | None:
        """Account for a refusal: free without a sandbox run (`cpu_seconds` None), a counted free try for a
        quick mistake, the cooldown for anything else; when the cooldown it started ends (None: none)."""
        if cpu_seconds is None:
            return None
        if kind not in QUICK_FIXES or cpu_seconds >= QUICK_CPU_SECONDS:
            return await self.charge(person)
        now = self._clock()
        charged, earlier = await cooldown_table.cooldown(self._db, person.id)
        tries = [at for at in earlier if now - at < self._cooldown] + [now]
        if len(tries) >= FREE_TRIES:
            return await self.charge(person)
        await self._db.write(lambda conn: cooldown_table.save_cooldown(conn, person, charged, tries, now))
        return None
