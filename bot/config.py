"""Configuration from the environment (and `.env`), read once at start-up.

Every setting is `HOG_<NAME>` (e.g. `HOG_DATABASE_PATH`), except the token, which is the conventional
`DISCORD_TOKEN` (`HOG_DISCORD_TOKEN` is accepted too). The token is optional so `make run` can print
how to get one instead of crashing.
"""

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    AliasChoices,
    BeforeValidator,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.domain.settings import ServiceSettings, Timeouts, UploadLimits
from bot.domain.shards import Shards

# The levels the logs know, in any case ("info" is INFO).
LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"], BeforeValidator(lambda v: str(v).upper())
]


def postgresql_url(url: str) -> str:
    """The URL if it names a PostgreSQL database, else ValueError saying what one looks like."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres") or not (parts.hostname or "host=" in parts.query):
        raise ValueError("should be a URL like postgresql://user:password@host:5432/database")
    if parts.netloc.count("@") > 1:  # the driver would read the host from the password
        raise ValueError("has an @ in the user or password: percent-encode it as %40")
    try:
        parts.port  # noqa: B018 (read to check it: 0 to 65535)
    except ValueError:
        raise ValueError(
            "has a port that is not a number from 0 to 65535 (or an @ / : ? # in the user or password:"
            " percent-encode them, e.g. @ as %40)"
        ) from None
    return url


PostgresqlUrl = Annotated[str, AfterValidator(postgresql_url)]


MAX_SHARD_ID = 65_535  # far beyond any bot's shard count, and a set of ids a process can hold


def shard_ids(text: str) -> frozenset[int]:
    """Shard ids written as a list of numbers and ranges, `0-3` or `0,2` or `0-1,5`; ValueError if not."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()) or (dash and int(last) < int(first)):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3 (write e.g. 0-3 or 0,2)")
        if int(last if dash else first) > MAX_SHARD_ID:
            raise ValueError(f"{part!r} goes past shard {MAX_SHARD_ID}")
        ids.update(range(int(first), int(last if dash else first) + 1))
    return frozenset(ids)


# Shard ids as written (`0-3`, `0,2`); the field is marked NoDecode, so pydantic-settings never reads JSON.
ShardIds = Annotated[
    frozenset[int], BeforeValidator(lambda v: v if isinstance(v, frozenset) else shard_ids(str(v)))
]


class Settings(BaseSettings):
    """Everything the bot can be told from outside; defaults suit a local run."""

    model_config = SettingsConfigDict(
        env_prefix="HOG_",
        env_file=".env",
        env_ignore_empty=True,  # `HOG_DEV_GUILD_ID=` in .env means unset, not "not a valid integer"
        extra="ignore",
        frozen=True,
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "HOG_DISCORD_TOKEN")
    )
    database_path: Path = Path("./data/hog.sqlite3")  # the embedded SQLite file, unless a URL is set
    database_url: PostgresqlUrl | None = None  # PostgreSQL instead, for several bot processes
    shard_count: int | None = Field(default=None, ge=1)  # unset: as many as Discord recommends
    shard_ids: Annotated[ShardIds | None, NoDecode] = (
        None  # the shards this process runs (e.g. 0-3): unset, every shard
    )
    dev_guild_id: int | None = None  # commands sync instantly to this guild while developing
    connect_attempts: int = Field(default=5, ge=1)  # tries to reach Discord at start before giving up
    connect_retry_seconds: float = Field(default=2.0, ge=0)  # the first pause between tries; doubles
    turn_timeout_seconds: float = Field(default=300.0, gt=0)
    challenge_timeout_seconds: float = Field(default=600.0, gt=0)
    bot_move_delay_seconds: float = Field(default=1.5, ge=0)
    shutdown_grace_seconds: float = Field(default=5.0, ge=0)  # for work under way at SIGTERM to finish
    upload_cooldown_seconds: float = Field(default=60.0, ge=0)  # per person, after a run in the sandbox
    upload_workers: int = Field(default=2, ge=1)  # uploads checked at once (threads, each a sandbox)
    upload_max_waiting: int = Field(default=8, ge=1)  # uploads checked or queued; more are turned away
    upload_time_limit_seconds: float = Field(default=10.0, gt=0, le=600)  # CPU seconds per upload
    strategies_per_person: int = Field(default=3, ge=1)  # kept per server and rule set by one person
    # Requests a second Discord allows the bot's token in all, every process together (its global rate
    # limit: 50 unless Discord raised it for the bot); each process keeps to its shards' share of it.
    global_rate_limit: float = Field(default=50.0, gt=0)
    # Answer through each press's own interaction (free of the global limit for 15 minutes): its turn
    # notice a follow-up, the house's move an edit through it. False: by the channel as before (to measure).
    answer_through_presses: bool = True
    log_level: LogLevel = "INFO"
    heartbeat_path: Path | None = None  # the health check's heartbeat file; default: beside the database
    solver_cache_path: Path | None = (
        None  # solved rule sets kept across restarts; default: beside the database
    )

    @field_validator("shard_ids")
    @classmethod
    def _within_the_count(cls, ids: frozenset[int] | None, info: ValidationInfo) -> frozenset[int] | None:
        if "shard_count" not in info.data:  # HOG_SHARD_COUNT is not valid itself: its own line says so
            return ids
        count = info.data["shard_count"]
        if ids is not None and count is None:
            raise ValueError("needs HOG_SHARD_COUNT, the number of shards of every process together")
        if ids is not None and count is not None and max(ids) >= count:
            raise ValueError(f"shard {max(ids)} is outside 0-{count - 1} (HOG_SHARD_COUNT is {count})")
        return ids

    @property
    def shards(self) -> Shards | None:
        """The shards of this process when it runs only some (their matches are its to tend); None: all."""
        return (
            None
            if self.shard_ids is None or self.shard_count is None
            else Shards(self.shard_count, self.shard_ids)
        )

    @property
    def rate_share(self) -> float:
        """This process's share of Discord's global rate limit: as many parts as the shards it runs."""
        if self.shard_ids is None or self.shard_count is None:
            return self.global_rate_limit
        return self.global_rate_limit * len(self.shard_ids) / self.shard_count

    @property
    def heartbeat_file(self) -> Path:
        """Where the connected bot records that it is alive (`python -m bot --health` reads it)."""
        return self.heartbeat_path or self.database_path.parent / "hogbot.heartbeat"

    @property
    def solver_cache_dir(self) -> Path:
        """Where solved rule sets are kept, so a restarted bot reads them instead of solving again."""
        return self.solver_cache_path or self.database_path.parent / "solver-cache"

    @property
    def services(self) -> ServiceSettings:
        """What floor 2 takes from these settings (the services never see this pydantic class)."""
        return ServiceSettings(
            database_path=self.database_path,
            database_url=self.database_url,
            solver_cache_dir=self.solver_cache_dir,
            timeouts=Timeouts(self.challenge_timeout_seconds, self.turn_timeout_seconds),
            upload_limits=UploadLimits(
                cooldown_seconds=self.upload_cooldown_seconds,
                workers=self.upload_workers,
                waiting=self.upload_max_waiting,
                time_limit=self.upload_time_limit_seconds,
                per_person=self.strategies_per_person,
            ),
            shards=self.shards,
        )
