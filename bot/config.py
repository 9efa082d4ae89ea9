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

from bot.activity.settings import ActivitySettings
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


def words(text: object) -> tuple[str, ...]:
    """A list written as words apart (spaces or commas): `https://a.example https://b.example`."""
    if isinstance(text, tuple | list):
        return tuple(str(word) for word in text)
    return tuple(str(text).replace(",", " ").split())


# A list of origins or host names as written (`https://a.example https://b.example`); NoDecode: never JSON.
Words = Annotated[tuple[str, ...], BeforeValidator(words)]


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
    # The Activity (docs/activity.md): served only when the application's client id and secret are set.
    activity_client_id: int | None = None  # the application's id (Developer Portal -> OAuth2)
    activity_client_secret: SecretStr | None = Field(
        default=None,
        validate_default=True,  # checked even unset: the id alone is a setting half made
    )  # its client secret: exchanges sign-in codes
    activity_host: str = "127.0.0.1"  # the address the Activity server listens on
    activity_port: int = Field(default=8090, ge=1, le=65535)
    activity_origins: Annotated[Words | None, NoDecode] = None  # default: https://<client id>.discordsays.com
    activity_hosts: Annotated[Words | None, NoDecode] = None  # Host names accepted; default: any
    activity_frame_ancestors: Annotated[Words | None, NoDecode] = None  # default: Discord's clients
    activity_token_seconds: float = Field(default=900.0, gt=0, le=86_400)  # a page's sign-in lasts this long

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

    @field_validator("activity_client_secret")
    @classmethod
    def _with_its_client(cls, secret: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if "activity_client_id" not in info.data:  # HOG_ACTIVITY_CLIENT_ID is not valid: its own line says so
            return secret
        if (secret is None) != (info.data["activity_client_id"] is None):
            raise ValueError("goes with HOG_ACTIVITY_CLIENT_ID: set both to serve the Activity, or neither")
        return secret

    @property
    def activity(self) -> ActivitySettings | None:
        """What the Activity server is opened with, if it is to be served (its client id and secret set)."""
        if self.activity_client_id is None or self.activity_client_secret is None:
            return None
        return ActivitySettings.of(
            client_id=self.activity_client_id,
            client_secret=self.activity_client_secret.get_secret_value(),
            host=self.activity_host,
            port=self.activity_port,
            origins=self.activity_origins,
            hosts=self.activity_hosts,
            frame_ancestors=self.activity_frame_ancestors,
            token_seconds=self.activity_token_seconds,
        )

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
