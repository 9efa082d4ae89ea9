"""Matches and their turns, players and house-bot levels: what the game service hands out, frozen and
transport-agnostic (plain ints for user ids)."""

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from bot.domain.tokens import PressToken
from hogengine.game import State, TurnResult
from hogengine.house import HouseLevel

HOUSE_NAME = "Hog Bot"  # the house bot's one name, wherever it plays or is named


class MatchStatus(StrEnum):
    """Where a match is in its life; every status but PENDING and ACTIVE is final."""

    PENDING = "pending"  # a challenge waiting for the opponent
    ACTIVE = "active"  # being played
    FINISHED = "finished"  # someone reached the goal
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"  # a challenge nobody answered in time
    FORFEIT = "forfeit"  # a player gave up; the other wins
    TIMEOUT = "timeout"  # the player to move let the turn clock run out; the other wins

    @property
    def is_open(self) -> bool:
        return self in OPEN


OPEN = (MatchStatus.PENDING, MatchStatus.ACTIVE)  # still to be decided
PLAYED = (MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.TIMEOUT)  # a game was played to its end


@dataclass(frozen=True, slots=True)
class Player:
    """A person: their platform id and the name to show."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One stored turn (append-only): the engine's result, who played it (None for the house bot) and when."""

    match_id: int
    user_id: int | None
    played_at: float
    result: TurnResult


@dataclass(frozen=True, slots=True)
class Match:
    """A challenge or a game, as stored: players by seat, the live engine State and the clocks."""

    id: int
    rules: str
    goal: int
    status: MatchStatus
    guild_id: int | None  # the server it is played on (None for games stored before servers were)
    channel_id: int
    players: tuple[Player | None, Player | None]  # by seat; None is the house bot's seat
    bot_level: HouseLevel | None  # how well the house bot plays, stored by the level's value
    strategy_name: str | None  # the stored strategy the house bot plays (bot level "strategy")
    state: State
    seed_hash: str | None  # SHA-256 of the dice seed, published when the game starts
    secret_seed: str | None = field(repr=False)  # the dice seed in hex: shown as `seed` once over
    winner: int | None  # the winning seat once decided (goal, forfeit or timeout)
    challenge_expires_at: float | None  # while pending
    turn_deadline: float | None  # while a person is to move in an active game
    message_id: int | None
    rematch_votes: tuple[bool, bool]  # the house bot's seat votes from the start: it always wants one
    rematch_of: int | None
    created_at: float
    updated_at: float
    finished_at: float | None  # when it closed, whatever the way
    version: int  # bumped by every change; updates are conditional on it
    strategy_owner: str | None = None  # who uploaded the stored strategy the house bot plays, if known

    @property
    def seed(self) -> str | None:
        """The dice seed in hex, revealed only once the match is closed (players check the commitment)."""
        return None if self.status.is_open else self.secret_seed

    @property
    def challenger(self) -> Player | None:
        """Who issued the challenge (seat 0 of a challenge)."""
        return self.players[0]

    @property
    def opponent(self) -> Player | None:
        """Who was challenged (seat 1 of a challenge)."""
        return self.players[1]

    @property
    def bot_seat(self) -> int | None:
        if self.bot_level is None:
            return None
        return 0 if self.players[0] is None else 1

    @property
    def is_bot_turn(self) -> bool:
        return self.status is MatchStatus.ACTIVE and self.state.mover == self.bot_seat

    @property
    def player_to_move(self) -> Player | None:
        """The person to move in an active game (None when it is the bot's turn or the game is not on)."""
        if self.status is not MatchStatus.ACTIVE:
            return None
        return self.players[self.state.mover]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of this user in the match, or None if they are not playing in it."""
        for seat, player in enumerate(self.players):
            if player is not None and player.id == user_id:
                return seat
        return None

    def seat_name(self, seat: int) -> str:
        """What everyone calls a seat: the person's name, the stored strategy the house bot plays and whose
        it is ("Six Pack (alice's strategy)"), or the house bot and its level ("Hog Bot (easy)")."""
        player = self.players[seat]
        if player is not None:
            return player.name
        if self.strategy_name is not None:
            owner = f"{self.strategy_owner}'s strategy" if self.strategy_owner else "a stored strategy"
            return f"{self.strategy_name} ({owner})"
        return f"{HOUSE_NAME} ({self.bot_level.value})" if self.bot_level else HOUSE_NAME

    @property
    def seat_names(self) -> tuple[str, str]:
        """Both seats' names, seat 0 first."""
        return self.seat_name(0), self.seat_name(1)

    @property
    def winner_player(self) -> Player | None:
        return None if self.winner is None else self.players[self.winner]


@dataclass(frozen=True, slots=True)
class Played:
    """A turn just played: the match after it and the engine's full result (events for commentary)."""

    match: Match
    result: TurnResult


@dataclass(frozen=True, slots=True)
class Hint:
    """The solver's advice for the player to move: the best choice and each choice's win probability, in
    the state the advice is for (a choice's label depends on it)."""

    state: State
    best: int
    values: dict[int, float]
    win_probability: float


class Moment(IntEnum):
    """What a game's notice announces, in the order the moments about one turn come: a later one replaces an
    earlier one (stored by value, see `Notice`)."""

    TURN = 0  # the turn passed to a person
    HURRY = 1  # a person's turn is running out of time
    END = 2  # the game is over (or the challenge: declined, expired)
    REMATCH = 3  # one side wants a rematch
    REMATCHED = 4  # the rematch began: nothing left to say


@dataclass(frozen=True, slots=True)
class Notice:
    """How a game's notice changes now that its board shows the match: tell `person` of `moment` (None: tell
    nobody), record that the moment about turn `turn` was decided, and delete the live notice `stale`
    (through `stale_token`, the token it was posted through, while that works). `attempted`: a notice began
    to be posted through a token and was never recorded (a crash, a timeout): it may be in the channel."""

    person: Player | None
    moment: Moment
    turn: int
    stale: int | None
    stale_token: PressToken | None = None
    attempted: bool = False
