"""Floor 2: the services. Transport-agnostic and async; speak domain objects and domain errors.

Adapters use only what is exported here:

    services = await Services.open(Settings().services, clock=time.time)
    service = services.games
    match = await service.challenge(channel_id, Player(alice_id, "alice"), Player(bob_id, "bob"))
    match = await service.accept(match.id, bob_id)                  # status "active"
    played = await service.play(match.id, alice_id, match.state.turn, choice)  # button: (id, turn, choice)
    if played.match.is_bot_turn: await service.bot_turn(match.id)

Seats: in a challenge the challenger is seat 0 (moves first); against the bot the person is seat 0;
a rematch swaps the seats. `Services` holds every service (games, strategies, tournaments, ratings,
analysis, privacy) on one database. Every error raised is a HogError whose str() is safe to
show the user; StaleAction is a double or late press and can be answered silently or with "already played".
"""

from bot.domain.analysis import MatchAnalysis
from bot.domain.errors import (
    AlreadyPlaying,
    CannotChallenge,
    ChallengeClosed,
    MatchNotFound,
    MatchOver,
    NotYourGame,
    NotYourTurn,
    RematchUnavailable,
    ServiceError,
    StaleAction,
)
from bot.domain.matches import Hint, Match, MatchStatus, Moment, Notice, Played, Player, TurnRecord
from bot.domain.ratings import HistoryEntry, Rating, Stats
from bot.domain.strategies import StoredStrategy, Upload
from bot.domain.tournaments import Standing, Tournament
from bot.services.application import Services
from bot.services.clock import Clock
from bot.services.games.service import GameService
from bot.services.strategies.service import MAX_NAME, choice_labels
from bot.services.tournaments.service import FORMATS
from hogengine.errors import HogError, IllegalChoice
from hogengine.house import HOUSE_LEVELS, HouseLevel

__all__ = [
    "FORMATS",
    "HOUSE_LEVELS",
    "MAX_NAME",
    "AlreadyPlaying",
    "CannotChallenge",
    "ChallengeClosed",
    "Clock",
    "GameService",
    "Hint",
    "HistoryEntry",
    "HogError",
    "HouseLevel",
    "IllegalChoice",
    "Match",
    "MatchAnalysis",
    "MatchNotFound",
    "MatchOver",
    "MatchStatus",
    "Moment",
    "NotYourGame",
    "NotYourTurn",
    "Notice",
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
