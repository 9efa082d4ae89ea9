"""What floor 2 is opened with: plain dataclasses that floor 3 fills from its pydantic Settings."""

from dataclasses import dataclass
from pathlib import Path

from bot.domain.shards import Shards


@dataclass(frozen=True, slots=True)
class Timeouts:
    """How long a challenge waits for its answer, and a person for their turn (the house bot has no clock)."""

    challenge_seconds: float
    turn_seconds: float


@dataclass(frozen=True, slots=True)
class UploadLimits:
    """How uploads are rationed: a cooldown per user, the pool's threads, how many may wait, CPU time, and
    how many strategies one person keeps (the settings hold the defaults)."""

    cooldown_seconds: float
    workers: int
    waiting: int  # uploads being checked or waiting for a thread; more are refused as busy
    time_limit: float  # CPU seconds the sandbox allows one upload
    per_person: int  # active strategies one person may keep per server and rule set


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """Where the records and the solver cache live, how play is timed and uploads rationed, and the shards
    whose games this process tends (None: every shard)."""

    database_path: Path
    database_url: str | None
    solver_cache_dir: Path
    timeouts: Timeouts
    upload_limits: UploadLimits
    shards: Shards | None
