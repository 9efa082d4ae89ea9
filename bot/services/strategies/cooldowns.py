"""How one person's uploads are rationed: a cooldown after every run that made the sandbox work, a few free
tries for mistakes fixed at once, and one upload of theirs checked at a time."""

from collections.abc import Iterator
from contextlib import contextmanager

from bot.domain.errors import OnCooldown, PreviousUploadPending
from bot.services.clock import Clock

# Refusals a person can fix at once (the file does not parse, has no final_strategy of two arguments or no
# proper TEAM_NAME, is not UTF-8): a run ending this way within QUICK_CPU_SECONDS does not start the
# cooldown ...
QUICK_FIXES = frozenset({"syntax_error", "no_final_strategy", "wrong_signature", "bad_team_name", "not_utf8"})
QUICK_CPU_SECONDS = 1.0
# ... unless it is the FREE_TRIES-th such run within one cooldown period: the sandbox is no syntax checker.
FREE_TRIES = 3


class Cooldowns:
    """Per person: when their cooldown started, their recent quick refusals, and whether one is checked."""

    def __init__(self, cooldown_seconds: float, clock: Clock) -> None:
        self._cooldown = cooldown_seconds
        self._clock = clock
        self._charged: dict[int, float] = {}
        self._tries: dict[int, list[float]] = {}
        self._checking: set[int] = set()

    def check(self, user_id: int) -> None:
        """OnCooldown while the person's cooldown runs, UploadsBusy while an upload of theirs is checked."""
        last = self._charged.get(user_id)
        waited = None if last is None else self._clock() - last
        if waited is not None and waited < self._cooldown:
            raise OnCooldown(self._cooldown - waited)
        if user_id in self._checking:
            raise PreviousUploadPending

    @contextmanager
    def checking(self, user_id: int) -> Iterator[None]:
        """While one upload of this person is checked (after `check` passes)."""
        self.check(user_id)
        self._checking.add(user_id)
        try:
            yield
        finally:
            self._checking.discard(user_id)

    def charge(self, user_id: int) -> None:
        """Start the person's cooldown now: the sandbox finished a run for them, or a table was accepted."""
        self._charged[user_id] = self._clock()
        self._tries.pop(user_id, None)

    def refused(self, user_id: int, kind: str, cpu_seconds: float | None) -> None:
        """Account for a refusal: free without a sandbox run (`cpu_seconds` None), a counted free try for a
        quick mistake, the cooldown for anything else."""
        if cpu_seconds is None:
            return
        if kind not in QUICK_FIXES or cpu_seconds >= QUICK_CPU_SECONDS:
            self.charge(user_id)
            return
        now = self._clock()
        tries = [at for at in self._tries.get(user_id, []) if now - at < self._cooldown] + [now]
        self._tries[user_id] = tries
        if len(tries) >= FREE_TRIES:
            self.charge(user_id)
