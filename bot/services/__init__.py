"""Floor 2: the services. Transport-agnostic and async; speak domain objects and domain errors.

Adapters use only what is exported here:

    services = await Services.open(Settings(), clock=time.time)
    service = services.games
    match = await service.challenge(channel_id, Player(alice_id, "alice"), Player(bob_id, "bob"))
    match = await service.accept(match.id, bob_id)                  # status "active"
    played = await service.play(match.id, alice_id, match.state.turn, choice)  # button: (id, turn, choice)
    if played.match.is_bot_turn: await service.bot_turn(match.id)

Seats: in a challenge the challenger is seat 0 (moves first); against the bot the person is seat 0;
a rematch swaps the seats. `Services` holds every service (games, strategies, contests, ratings,
analysis, privacy) on one database. Every error raised is a HogError whose str() is safe to
show the user; StaleAction is a double or late press and can be answered silently or with "already played".
"""

from bot.services.contest_models import (
    HistoryEntry,
    MatchAnalysis,
    Rating,
    Standing,
    Stats,
    StoredStrategy,
    Tournament,
    Upload,
)
from bot.services.contests import FORMATS
from bot.services.errors import (
    AlreadyPlaying,
    CannotChallenge,
    ChallengeClosed,
    HogError,
    IllegalChoice,
    MatchNotFound,
    MatchOver,
    NotYourGame,
    NotYourTurn,
    RematchUnavailable,
    ServiceError,
    StaleAction,
)
from bot.services.figures import PERFECT, SCORE_ONLY
from bot.services.games import GameService
from bot.services.hub import Services
from bot.services.models import HOUSE_LEVELS, BotLevel, Hint, Match, MatchStatus, Played, Player, TurnRecord
from bot.services.store import Clock
from bot.services.strategies import MAX_NAME, choice_labels

__all__ = [
    "FORMATS",
    "HOUSE_LEVELS",
    "MAX_NAME",
    "PERFECT",
    "SCORE_ONLY",
    "AlreadyPlaying",
    "BotLevel",
    "CannotChallenge",
    "ChallengeClosed",
    "Clock",
    "GameService",
    "Hint",
    "HistoryEntry",
    "HogError",
    "IllegalChoice",
    "Match",
    "MatchAnalysis",
    "MatchNotFound",
    "MatchOver",
    "MatchStatus",
    "NotYourGame",
    "NotYourTurn",
    "Played",
    "Player",
    "Rating",
    "RematchUnavailable",
    "ServiceError",
    "Services",
    "StaleAction",
    "Standing",
    "Stats",
    "StoredStrategy",
    "Tournament",
    "TurnRecord",
    "Upload",
    "choice_labels",
]
