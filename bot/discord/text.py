"""The board's words: the recent turns in one line each (names as the course's commentary writes them, see
hogengine.commentary), the bar of a score."""

from collections.abc import Sequence

from hogengine.commentary import with_names
from hogengine.game import TurnResult
from hogengine.text import counted

MOST_RECENT = 8  # turns listed at most: a chain of extra turns must not fill a phone's screen
DIE = "🎲"


def turn_line(turn: TurnResult, label: str, seats: tuple[str, str]) -> str:
    """One turn in one line: who, the dice as faces (or the choice without dice), the points, what fired.
    "**alice** 🎲 3 1 1 2 1 → +1, Pig Out"."""
    if turn.dice:
        four = " (four-sided)" if turn.sides == 4 else ""
        what = f"{DIE} {' '.join(str(outcome) for outcome in turn.outcomes)}{four}"
    else:
        what = label
    said = [with_names(event.brief(), seats) for event in turn.events]
    scored = [f"+{turn.points}"] if turn.points or turn.dice or not any(said) else []
    return f"**{seats[turn.player]}** {what} → {', '.join([*scored, *filter(None, said)])}"


def recent(turns: Sequence[TurnResult], mover: int) -> list[TurnResult]:
    """The turns since the side to move last moved, its own last turn included: each side sees the other's
    turns, and its own roll stays on the board until it moves again (the most recent MOST_RECENT)."""
    start = len(turns)
    while start > 0 and turns[start - 1].player != mover:  # the other side's turns since
        start -= 1
    while start > 0 and turns[start - 1].player == mover:  # the mover's own last turn(s)
        start -= 1
    return list(turns[start:])[-MOST_RECENT:]


def fitted(lines: Sequence[str], limit: int) -> str:
    """The lines joined within `limit` characters (an embed field holds 1,024): the first (the mover's own
    turn) and the latest stay; the oldest of those between give way to a line saying how many."""
    first, rest = list(lines[:1]), list(lines[1:])
    dropped = 0

    def joined() -> str:
        skipped = [f"… {counted(dropped, 'earlier turn')}"] if dropped else []
        return "\n".join([*first, *skipped, *rest])

    while len(joined()) > limit and len(rest) > 1:
        rest.pop(0)
        dropped += 1
    return joined()[:limit]


def progress(score: int, goal: int, cells: int = 10) -> str:
    """A bar of `cells` cells filled as far as the score goes towards the goal."""
    filled = min(cells, score * cells // goal)
    return "█" * filled + "░" * (cells - filled)
