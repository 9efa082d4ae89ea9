"""What the Activity's pages are sent: the table of an instance, with its game drawn as `hog gui` draws
one (bot/web/payloads: the engine's words for the board, the dice and the turns), the same for everyone
in the instance. Ids are strings: Discord's ids do not fit in a JavaScript number."""

from collections.abc import Sequence
from typing import Any

from bot.domain.activities import Table
from bot.domain.matches import Hint, Match, MatchStatus, Player
from bot.web import payloads
from hogengine.cli.turns import final_line
from hogengine.commentary import for_people, with_names
from hogengine.game import MAX_GOAL, TurnResult, new_game
from hogengine.house import HOUSE_LEVELS
from hogengine.replay import to_record
from hogengine.rules import DEFAULT_RULES, get_rules

# How a game that did not end at the dice ended, said as the board says it.
ENDINGS = {
    MatchStatus.FORFEIT: "{loser} gave up: {winner} wins.",
    MatchStatus.TIMEOUT: "{loser} ran out of time: {winner} wins.",
}
CALLED_OFF = "This game was called off."


def setup(client_id: int, parents: Sequence[str]) -> dict[str, Any]:
    """What the page needs before signing in: the application it signs in for, who may be its parent
    frame, and what a new game may be (rule sets, the house's levels, the highest goal)."""
    return {
        "client_id": str(client_id),
        "parents": list(parents),
        "rules": payloads.rule_sets(),
        "default": DEFAULT_RULES,
        "levels": [{"id": level.value, "description": level.description} for level in HOUSE_LEVELS],
        "max_goal": MAX_GOAL,
    }


def person(player: Player | None) -> dict[str, str] | None:
    return None if player is None else {"id": str(player.id), "name": player.name}


def table(shown: Table, results: Sequence[TurnResult], now: float) -> dict[str, Any]:
    """An instance's table: who waits at it for a friend (and for which game), and its game, if any.
    `stamp` orders what a page receives: a table's version, then its game's."""
    match = shown.match
    waiting = None
    if shown.host is not None and shown.rules is not None:
        waiting = {"rules": payloads.rule_set(get_rules(shown.rules)), "goal": shown.goal}
    return {
        "stamp": [shown.version, 0 if match is None else match.version],
        "host": person(shown.host),
        "waiting": waiting,
        "match": None if match is None else game(match, results),
        "now": now,
    }


def game(match: Match, results: Sequence[TurnResult]) -> dict[str, Any]:
    """A game as the pages draw it: the board, every turn, whose seat is whose, the clock, and how it
    ended (with the seed and the record `hog replay` checks once it is over)."""
    names = match.seat_names
    board = payloads.board(match.state, names)
    live = match.status is MatchStatus.ACTIVE
    if not live:
        board |= {"over": True, "winner": match.winner, "choices": [], "status": ending(match, names)}
    seed = match.seed
    start = new_game(match.rules, match.goal)
    record = None if seed is None else to_record(start, results, bytes.fromhex(seed))
    return {
        "id": match.id,
        "status": match.status.value,
        "rules": payloads.rule_set(match.state.ruleset),
        "commitment": match.seed_hash,
        "seats": [person(player) for player in match.players],
        "house_to_move": match.is_bot_turn,
        "board": board,
        "turns": [named(turn, names) for turn in payloads.turns(results, names)],
        "deadline": match.turn_deadline if live else None,
        "rematch": list(match.rematch_votes),
        "seed": seed,
        "record": record,
    }


def named(turn: dict[str, Any], names: tuple[str, str]) -> dict[str, Any]:
    """A turn as `hog gui` draws it, its events and commentary saying who (as the board says them)."""
    return turn | {
        "events": [with_names(line, names) for line in turn["events"]],
        "commentary": [for_people(line, names) for line in turn["commentary"]],
    }


def ending(match: Match, names: tuple[str, str]) -> str:
    """How a closed game ended: who won at the dice and by what score, who gave up or ran out of time."""
    if match.status is MatchStatus.FINISHED:
        return final_line(match.state, names)
    winner = match.winner
    if winner is None or match.status not in ENDINGS:
        return CALLED_OFF
    return ENDINGS[match.status].format(winner=names[winner], loser=names[1 - winner])


def hint(given: Hint) -> dict[str, Any]:
    """The solver's advice for the person to move, as `hog gui` shows a hint."""
    return payloads.chances(given.state, given.best, given.win_probability, given.values)
