"""Floor 2: the game service. Transport-agnostic and async; speaks domain objects and domain errors.

Adapters use only what is exported here:

    service = await GameService.open(Settings(), clock=time.time)
    match = await service.challenge(channel_id, Player(alice_id, "alice"), Player(bob_id, "bob"))
    match = await service.accept(match.id, bob_id)                  # status "active"
    played = await service.play(match.id, alice_id, match.state.turn, choice)  # button: (id, turn, choice)
    if played.match.is_bot_turn: await service.bot_turn(match.id)

Seats: in a challenge the challenger is seat 0 (moves first); against the bot the person is seat 0;
a rematch swaps the seats. Every error raised is a HogError whose str() is safe to show the user;
StaleAction is a double or late press and can be answered silently or with "already played".
"""

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
from bot.services.games import GameService
from bot.services.models import BotLevel, Hint, Match, MatchStatus, Played, Player, TurnRecord
from bot.services.store import Clock

__all__ = [
    "AlreadyPlaying",
    "BotLevel",
    "CannotChallenge",
    "ChallengeClosed",
    "Clock",
    "GameService",
    "Hint",
    "HogError",
    "IllegalChoice",
    "Match",
    "MatchNotFound",
    "MatchOver",
    "MatchStatus",
    "NotYourGame",
    "NotYourTurn",
    "Played",
    "Player",
    "RematchUnavailable",
    "ServiceError",
    "StaleAction",
    "TurnRecord",
]
