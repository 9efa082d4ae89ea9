"""Configuration from the environment (and `.env`), read once at start-up.

Every setting is `HOG_<NAME>` (e.g. `HOG_DATABASE_PATH`), except the token, which is the conventional
`DISCORD_TOKEN` (`HOG_DISCORD_TOKEN` is accepted too). The token is optional so `make run` can print
how to get one instead of crashing.
"""

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, AliasChoices, BeforeValidator, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

# The levels the logs know, in any case ("info" is INFO).
LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"], BeforeValidator(lambda v: str(v).upper())
]


def postgresql_url(url: str) -> str:
    """The URL if it names a PostgreSQL database, else ValueError saying what one looks like."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres") or not (parts.hostname or "host=" in parts.query):
        raise ValueError("should be a URL like postgresql://user:password@host:5432/database")
    return url


PostgresqlUrl = Annotated[str, AfterValidator(postgresql_url)]


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
    dev_guild_id: int | None = None  # commands sync instantly to this guild while developing
    connect_attempts: int = Field(default=5, ge=1)  # tries to reach Discord at start before giving up
    connect_retry_seconds: float = Field(default=2.0, ge=0)  # the first pause between tries; doubles
    turn_timeout_seconds: float = Field(default=300.0, gt=0)
    challenge_timeout_seconds: float = Field(default=600.0, gt=0)
    bot_move_delay_seconds: float = Field(default=1.5, ge=0)
    upload_cooldown_seconds: float = Field(default=60.0, ge=0)  # per person, after a run in the sandbox
    upload_workers: int = Field(default=2, ge=1)  # uploads checked at once (threads, each a sandbox)
    upload_max_waiting: int = Field(default=8, ge=1)  # uploads checked or queued; more are turned away
    upload_time_limit_seconds: float = Field(default=10.0, gt=0, le=600)  # CPU seconds per upload
    strategies_per_person: int = Field(default=3, ge=1)  # kept per server and rule set by one person
    log_level: LogLevel = "INFO"
    heartbeat_path: Path | None = None  # the health check's heartbeat file; default: beside the database
    solver_cache_path: Path | None = (
        None  # solved rule sets kept across restarts; default: beside the database
    )

    @property
    def heartbeat_file(self) -> Path:
        """Where the connected bot records that it is alive (`python -m bot --health` reads it)."""
        return self.heartbeat_path or self.database_path.parent / "hogbot.heartbeat"

    @property
    def solver_cache_dir(self) -> Path:
        """Where solved rule sets are kept, so a restarted bot reads them instead of solving again."""
        return self.solver_cache_path or self.database_path.parent / "solver-cache"
