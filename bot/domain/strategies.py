"""Strategies people upload: one stored version, the upload it came from, its exact figures."""

from dataclasses import dataclass, field

from bot.domain.matches import Player
from hogengine.strategies import Table


@dataclass(frozen=True, slots=True)
class Matchup:
    """The exact win rate of a strategy against one reference opponent, per seat and on average."""

    opponent: str  # "always_roll(4)", ..., "perfect" (hogengine.solver.PERFECT), "best-table" (BEST_TABLE)
    first: float  # moving first
    second: float  # moving second
    average: float


@dataclass(frozen=True, slots=True)
class StoredStrategy:
    """One version of an uploaded strategy; `table` is loaded only where it is needed."""

    id: int
    guild_id: int
    owner: Player
    name: str
    team_name: str | None  # the file's TEAM_NAME, safe to show (escape Markdown where it is shown)
    rules: str
    source_kind: str  # "py" or "json"
    source_hash: str  # SHA-256 of the uploaded bytes
    table_hash: str  # SHA-256 of the 10,000 int8 choices: equal tables, equal hashes
    active: bool  # False once replaced by a newer upload of the same name
    figures: tuple[Matchup, ...]
    cpu_seconds: float | None  # the sandbox's CPU time (None for a JSON table)
    created_at: float
    replaced_at: float | None
    table: Table | None = field(default=None, compare=False)
    # A random strategy's tables recorded at its check, `table` first (read with it); none if deterministic.
    tables: tuple[Table, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Ticket:
    """An upload admitted before its file is downloaded: who, where, and the checked kind, name and rules."""

    guild_id: int
    owner: Player
    filename: str
    kind: str  # "py" or "json"
    name: str
    named: bool  # the uploader gave the name (else it is made from the file's TEAM_NAME or name)
    rules: str


@dataclass(frozen=True, slots=True)
class Upload:
    """An accepted upload: the stored strategy, the version it replaced and an identical table, if any, and
    when its owner may upload again."""

    strategy: StoredStrategy
    replaced: StoredStrategy | None
    duplicate_of: StoredStrategy | None  # an active strategy of this server with the very same table
    retry_at: float | None = None  # Unix seconds; None: at once


@dataclass(frozen=True, slots=True)
class BotStrategy:
    """The stored strategy a house-bot game plays: its id (None once deleted), name, and the copy of its
    table the game keeps."""

    strategy_id: int | None
    name: str
    table: Table = field(compare=False)
