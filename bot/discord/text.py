"""The board's words: player names, the last turn and the dice in play."""

import re

from bot.services import Match
from hogengine.game import TurnResult

BOT_NAME = "Hog Bot"
_PLAYER = re.compile(r"Player ([01])")


def names(match: Match) -> tuple[str, str]:
    """How each seat is called on the board: the person's name, or the house bot and its level (or the
    stored strategy it plays)."""
    level = match.bot_level.value if match.bot_level else ""
    if match.strategy_name is not None:
        level = f"strategy {match.strategy_name}"
    seats = [player.name if player else f"{BOT_NAME} ({level})" for player in match.players]
    return seats[0], seats[1]


def with_names(text: str, seats: tuple[str, str]) -> str:
    """The engine says "Player 0" and "Player 1"; the board says who they are."""
    return _PLAYER.sub(lambda found: seats[int(found[1])], text)


def last_turn(turn: TurnResult, label: str, seats: tuple[str, str]) -> list[str]:
    """The last turn in words: what was chosen and rolled, then every rule that fired."""
    who = seats[turn.player]
    if turn.dice:
        rolls = " · ".join(str(outcome) for outcome in turn.outcomes)
        head = f"**{who}** rolled {turn.dice} {turn.sides}-sided dice: {rolls} → **{turn.points}**"
    else:
        head = f"**{who}** chose {label} → **{turn.points}**"
    return [head, *(f"• {with_names(event.describe(), seats)}" for event in turn.events)]


def progress(score: int, goal: int, cells: int = 10) -> str:
    """A bar of `cells` cells filled as far as the score goes towards the goal."""
    filled = min(cells, score * cells // goal)
    return "█" * filled + "░" * (cells - filled)
