"""A recorded game for the viewer: re-played by the engine as `hog replay` re-plays it, valued by the
exact solver as the bot's analysis values a match, with the bot's win-probability chart and a verdict on
its dice."""

import base64
from collections.abc import Sequence
from typing import Any

from bot.web.payloads import board, turns
from hogengine.analysis import Move, analyse
from hogengine.cli.replay import NAMES
from hogengine.dice import commitment
from hogengine.game import State, TurnResult, choice_label
from hogengine.replay import GameRecord
from hogengine.solver import Solution


def verdict(record: GameRecord) -> str:
    """What the record proves about its dice (it re-played, so every roll it gives is the seed's)."""
    if record.seed is None:
        return "The record reveals no dice seed, so its rolls cannot be checked."
    return (
        f"Fair dice: every roll is the one the revealed seed gives, and the seed's SHA-256 is "
        f"{commitment(record.seed)}, the commitment to compare with the one shown before the first roll."
    )


def _move(move: Move, state: State) -> dict[str, Any]:
    """A choice against the perfect player's: each one's chance to win for the mover, and the cost."""
    return {
        "label": choice_label(state, move.choice),
        "chance": move.value,
        "best_label": choice_label(state, move.best),
        "best_chance": move.best_value,
        "cost": move.cost,
    }


def viewed(record: GameRecord, results: Sequence[TurnResult], solution: Solution) -> dict[str, Any]:
    """The viewer's whole game: the board before every turn and at the end, each turn as played with its
    cost, player 0's chance to win at every step, the chart of it, each side's accuracy and the verdict."""
    # matplotlib loads only when a record is viewed: loaded, it adds about half a second to every stop.
    from bot.images import win_probability_chart  # noqa: PLC0415

    names = record.players or NAMES
    analysis = analyse(record.start, results, solution)
    mistakes = [move.turn for move in analysis.players[0].mistakes]  # player 0's, as the chart's line is
    chart = win_probability_chart(analysis.series, names, 0, mistakes)
    end = results[-1].after if results else record.start
    played = turns(results, names)
    return {
        "rules": record.start.ruleset.title,
        "goal": record.start.goal,
        "names": list(names),
        "verdict": verdict(record),
        "chart": {"src": "data:image/png;base64," + base64.b64encode(chart.png).decode(), "alt": chart.alt},
        "steps": [
            {
                "board": board(result.before, names),
                "turn": turn,
                "move": _move(move, result.before),
                "chance": chance,
            }
            for result, turn, move, chance in zip(
                results, played, analysis.moves, analysis.series, strict=False
            )
        ],
        "end": {"board": board(end, names), "chance": analysis.series[-1]},
        "players": [
            {
                "name": names[summary.player],
                "moves": summary.moves,
                "accuracy": summary.accuracy,
                "lost": summary.expected_loss,
            }
            for summary in analysis.players
        ],
    }
