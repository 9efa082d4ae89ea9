"""How a played turn and a game's end read in the terminal, for `hog play` and `hog replay` alike."""

from hogengine.game import State, TurnResult, dice_words


def turn_lines(result: TurnResult, names: tuple[str, str]) -> list[str]:
    """What happened: the dice, each rule that fired, the points and the score."""
    name = names[result.player]
    lines = []
    if result.dice:
        rolls = " ".join(map(str, result.outcomes))
        lines.append(f"{name} rolls {dice_words(result.dice, result.sides)}: {rolls}")
    lines += [f"  * {event.describe()}" for event in result.events]
    score0, score1 = result.after.scores
    lines.append(f"{name} scores {result.points}. Score: {score0} to {score1}.")
    return lines


def final_line(state: State, names: tuple[str, str]) -> str:
    """Who won and by what score, or where an unfinished game stands."""
    score0, score1 = state.scores
    if state.over:
        return f"{names[state.winner or 0]} wins, {score0} to {score1}."
    return f"The game is not over: {score0} to {score1}, {names[state.mover]} to move."
