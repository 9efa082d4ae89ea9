"""Domain objects of strategies, tournaments, ratings, stats and analysis: frozen and transport-agnostic."""

from dataclasses import dataclass, field

from bot.services.models import Match, MatchStatus, Player
from hogengine.analysis import Analysis
from hogengine.game import State
from hogengine.strategies import Table


@dataclass(frozen=True, slots=True)
class Matchup:
    """The exact win rate of a strategy against one reference opponent, per seat and on average."""

    opponent: str  # "always_roll(4)", ..., "perfect" (the perfect player; see figures.PERFECT)
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


@dataclass(frozen=True, slots=True)
class Ticket:
    """An upload admitted before its file is downloaded: who, where, and the checked kind, name and rules."""

    guild_id: int
    owner: Player
    filename: str
    kind: str  # "py" or "json"
    name: str
    rules: str


@dataclass(frozen=True, slots=True)
class Upload:
    """An accepted upload: the stored strategy, the version it replaced and an identical table, if any."""

    strategy: StoredStrategy
    replaced: StoredStrategy | None
    duplicate_of: StoredStrategy | None  # an active strategy of this server with the very same table


@dataclass(frozen=True, slots=True)
class Standing:
    """One place of a tournament (the strategy id is None once the strategy was deleted)."""

    place: int
    name: str
    owner_id: int | None
    owner_name: str | None  # None once the owner was forgotten
    strategy_id: int | None
    points: float  # match points (exact) or games won (sampled)
    tiebreak: float  # the exact win rate that breaks ties


@dataclass(frozen=True, slots=True)
class Tournament:
    """A finished tournament of a server's strategies under one rule set, and its standings."""

    id: int
    guild_id: int
    rules: str
    goal: int
    format: str  # "exact" or "sampled"
    seed: str | None  # a sampled tournament's dice: `hog tournament --format sampled --seed` replays them
    started_by: int | None
    created_at: float
    finished_at: float
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's openskill rating under one rule set; `score` (mu - 3 sigma) is what ranks them."""

    player: Player
    rules: str
    mu: float
    sigma: float
    games: int

    @property
    def score(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one rated game moved a player's rating score."""

    match_id: int
    rules: str
    before: float
    after: float
    at: float


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's record over every played game (against people and the bot)."""

    player: Player
    games: int
    wins: int
    bot_games: int
    favourite_dice: int | None  # the number of dice they roll most often (0: Free Bacon)
    pork_chops: int
    longest_pig_fest_streak: int
    ratings: tuple[Rating, ...]
    rating_history: tuple[RatingChange, ...]  # oldest first


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One played game from a player's side."""

    match_id: int
    rules: str
    goal: int
    status: MatchStatus
    seat: int
    opponent: str  # a name, "the house bot (easy)" or "strategy 'name'"
    won: bool
    scores: tuple[int, int]  # by seat
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A played match and its analysis; `names` are by seat, for the win-probability chart, and `states`
    the full state before each turn (what a choice did depends on it)."""

    match: Match
    names: tuple[str, str]
    analysis: Analysis
    states: tuple[State, ...]


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forget-me did."""

    strategies_deleted: int
    matches_anonymised: int
