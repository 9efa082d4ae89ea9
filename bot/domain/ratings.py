"""Ratings, stats and game histories: a player's record."""

from dataclasses import dataclass

from bot.domain.matches import MatchStatus, Player

# The public rating is openskill's ordinal (mu - 3 sigma) times RATING_SCALE, rounded and never below 0: a
# newcomer (mu 25, sigma 25/3) starts at 0, and the strongest regulars of a server reach about 1,000-2,000.
RATING_SCALE = 50
# Below this sigma (about a dozen rated games) a rating is steady; above it, it is still settling.
SETTLED_SIGMA = 6.0


def shown_rating(mu: float, sigma: float) -> int:
    """The one number players see for an openskill rating: whole, familiar in size, never negative."""
    return max(0, round((mu - 3 * sigma) * RATING_SCALE))


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's openskill rating under one rule set, with their rated games won (`wins`) and played."""

    player: Player
    rules: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def score(self) -> int:
        """The rating players see (see shown_rating)."""
        return shown_rating(self.mu, self.sigma)

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def settled(self) -> bool:
        """Whether enough games were played for the rating to be steady."""
        return self.sigma < SETTLED_SIGMA


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one rated game moved a player's rating, as players see it (shown_rating)."""

    match_id: int
    rules: str
    before: int
    after: int
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
    opponent: str  # as Match.seat_name says it: "bob", "Hog Bot (easy)", "Six Pack (alice's strategy)"
    won: bool
    scores: tuple[int, int]  # by seat
    finished_at: float | None
