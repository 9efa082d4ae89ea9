"""How the seats, a played turn, the board's status and a game's end read, for `hog play`, `hog replay` and
the page of `hog gui` alike."""

from hogengine.commentary import with_names
from hogengine.game import State, TurnResult, dice_in_words, dice_words


def seat_names(opponent: str | None = None, theirs: int = 1) -> tuple[str, str]:
    """How the seats are called ("Player N", as the engine's events say): with an `opponent` program in
    seat `theirs`, marked with its name and the other seat "(you)"."""
    seats = [f"Player {seat}" for seat in (0, 1)]
    if opponent is not None:
        seats[theirs] += f" ({opponent})"
        seats[1 - theirs] += " (you)"
    return seats[0], seats[1]


def turn_lines(result: TurnResult, names: tuple[str, str]) -> list[str]:
    """What happened: the dice, each rule that fired, the points and the score."""
    name = names[result.player]
    lines = []
    if result.dice:
        rolls = " ".join(map(str, result.outcomes))
        lines.append(f"{name} rolls {dice_words(result.dice, result.sides)}: {rolls}")
    lines += [f"  * {with_names(event.describe(), names)}" for event in result.events]
    score0, score1 = result.after.scores
    lines.append(f"{name} scores {result.points}. Score: {score0} to {score1}.")
    return lines


def final_line(state: State, names: tuple[str, str]) -> str:
    """Who won and by what score, or where an unfinished game stands."""
    score0, score1 = state.scores
    if state.over:
        return f"{names[state.winner or 0]} wins, {score0} to {score1}."
    return f"The game is not over: {score0} to {score1}, {names[state.mover]} to move."


def status_line(state: State, names: tuple[str, str]) -> str:
    """A board's status: who won and by what score once the game is over, else who moves with which dice
    and the rules that set them."""
    if state.over:
        return final_line(state, names)
    return f"{names[state.mover]} to move with {dice_in_words(state)}."
