"""A finished tournament of a server's strategies and its places."""

from dataclasses import dataclass


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
class Pairing:
    """One pairing of a tournament, by the two places: each side's result, an exact average win rate
    (exact) or its games won (sampled)."""

    a_place: int
    b_place: int
    a_result: float
    b_result: float


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
    channel_id: int | None = None  # where it was started and its standings are shown (None: stored before)
    pairings: tuple[Pairing, ...] = ()  # every pairing (none for tournaments stored before they were kept)
