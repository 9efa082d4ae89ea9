"""What the page is sent: boards, turns, games and hints as JSON objects, in the engine's own words (rule
text, hidden parts, dice and their reasons, button labels, events, the course's commentary)."""

from collections.abc import Mapping, Sequence
from typing import Any

from bot.web.games import Game
from hogengine.analysis import coaching, judge, player_summary, summary
from hogengine.cli.turns import status_line
from hogengine.commentary import game_commentary
from hogengine.game import State, TurnResult, choice_label, dice_for, legal_choices, turn_number
from hogengine.rules import RULE_SETS, RuleSet
from hogengine.solver import Solution


def rule_set(rules: RuleSet) -> dict[str, Any]:
    """A rule set for the new-game form: its id, its title and its rules for players."""
    return {"id": rules.id, "title": rules.title, "text": rules.explain()}


def rule_sets() -> list[dict[str, Any]]:
    return [rule_set(rules) for rules in RULE_SETS]


def board(state: State, names: tuple[str, str]) -> dict[str, Any]:
    """The board before a move: scores, every hidden part, who moves with which dice and why (or who won),
    and a button for each legal choice (labelled as on the Discord board, with the dice it rolls now)."""
    rules = state.ruleset
    return {
        "turn": state.turn,
        "goal": state.goal,
        "mover": state.mover,
        "over": state.over,
        "winner": state.winner,
        "players": [
            {
                "name": names[seat],
                "score": state.scores[seat],
                "hidden": list(rules.describe_hidden(state, seat)),
            }
            for seat in (0, 1)
        ],
        "shared": list(rules.describe_hidden(state, None)),
        "status": status_line(state, names),
        "choices": [] if state.over else [_choice(state, choice) for choice in legal_choices(state)],
    }


def _choice(state: State, choice: int) -> dict[str, Any]:
    count, sides = dice_for(state, choice)
    return {"choice": choice, "label": choice_label(state, choice), "dice": count, "sides": sides}


def turns(results: Sequence[TurnResult], names: tuple[str, str]) -> list[dict[str, Any]]:
    """Every turn: what was chosen and rolled, its points, each rule that fired and the commentary after."""
    said = game_commentary(results)
    return [_turn(result, names, lines) for result, lines in zip(results, said, strict=True)]


def _turn(result: TurnResult, names: tuple[str, str], said: Sequence[str]) -> dict[str, Any]:
    return {
        "turn": result.before.turn,
        "number": turn_number(result.before.turn),  # as people count turns, from 1
        "name": names[result.player],
        "label": choice_label(result.before, result.choice),
        "dice": result.dice,
        "sides": result.sides,
        "rolls": list(result.outcomes),
        "points": result.points,
        "events": [event.describe() for event in result.events],
        "scores": list(result.after.scores),
        "commentary": list(said),
    }


def game(played: Game) -> dict[str, Any]:
    """A game as the page draws it, with whether the person at the screen may move now; the seed and the
    record `hog replay` takes appear once it is over."""
    state = played.state
    return {
        "id": played.id,
        "rules": rule_set(state.ruleset),
        "commitment": played.commitment,
        "your_turn": played.your_turn,
        "board": board(state, played.names),
        "turns": turns(played.results, played.names),
        "seed": played.seed.hex() if state.over else None,
        "record": played.record() if state.over else None,
    }


def hint(state: State, solution: Solution) -> dict[str, Any]:
    """Each legal choice's exact chance to win for the player to move, and the best of them."""
    best, chance = solution.best_choice(state), solution.win_probability(state)
    return chances(state, best, chance, solution.choice_values(state))


def chances(state: State, best: int, chance: float, values: Mapping[int, float]) -> dict[str, Any]:
    """A hint as the pages draw it: the turn it is for, the best choice, the chance to win now, and each
    choice's chance (the bot's `Hint` gives them too)."""
    return {
        "turn": state.turn,
        "best": best,
        "chance": chance,
        "choices": [
            {"choice": choice, "label": choice_label(state, choice), "chance": value}
            for choice, value in values.items()
        ],
    }


def coach(played: Game, solution: Solution) -> dict[str, Any]:
    """What the coach says to the people at the screen (the person against the house, or both friends), each
    line marked with its turn and, between friends, whom it is for: a line on every choice that gave away
    winning chance against perfect play and that the other side has answered since, and once the game is
    over a line summing up each one's game."""
    results, names = played.results, played.names
    people = (0,) if played.house is not None else (0, 1)

    def to(seat: int, text: str) -> str:
        return text if len(people) == 1 else f"{names[seat]}: {text}"

    lines = [
        {"turn": said.turn, "text": to(said.player, said.text)}
        for said in coaching(solution, results, people)
    ]
    ended = played.state.over
    moves = [judge(solution, result) for result in results] if ended else []
    return {
        "lines": lines,
        "summary": [to(seat, summary(player_summary(seat, moves), moves)) for seat in people]
        if ended
        else [],
    }
