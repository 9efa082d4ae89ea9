"""Ratings, stats and game histories: a player's record."""

from dataclasses import dataclass

from bot.domain.matches import MatchStatus, Player


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
