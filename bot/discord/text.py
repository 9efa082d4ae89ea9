"""The board's words: the recent turns in one line each (names as the course's commentary writes them, see
hogengine.commentary), the bar of a score, names as Discord shows them, and how much room text takes on a
phone."""

import re
import textwrap
from collections.abc import Sequence

from discord.utils import escape_markdown, escape_mentions

from hogengine.commentary import with_names
from hogengine.game import TurnResult
from hogengine.text import counted

MOST_RECENT = 8  # turns listed at most: a chain of extra turns must not fill a phone's screen
DIE = "🎲"
# A phone at 360 px shows about PHONE_WIDTH characters on a line of an embed; a board takes PHONE_LINES lines
# at most, so the buttons under it stay in sight.
PHONE_WIDTH = 38
PHONE_LINES = 14
_MARKUP = re.compile(r"\*\*|__|`|\\(?=[^\w\s])")  # bold, underline, code, and Markdown's escapes
_TIMESTAMP = re.compile(r"<t:\d+:R>")  # Discord draws it as "in 5 minutes", "2 hours ago"
_WIDE = re.compile("[\U0001f000-\U0001ffff]")  # emoji: about two letters wide


def shown_name(name: str) -> str:
    """A name people chose (a strategy's, a TEAM_NAME, a display name) as Discord shows it: as written, and
    never read as Markdown or as a mention."""
    return escape_mentions(escape_markdown(name))


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


def fitted(lines: Sequence[str], room: int) -> list[str]:
    """The lines in at most `room` lines on a phone (see `phone_lines`): the first (the mover's own turn) and
    the latest stay; the oldest of those between give way to a line saying how many; if even that is too
    long, the latest lines that fit."""
    first, rest = list(lines[:1]), list(lines[1:])
    for dropped in range(len(rest)):
        skipped = [f"… {counted(dropped, 'earlier turn')}"] if dropped else []
        shown = [*first, *skipped, *rest[dropped:]]
        if phone_lines("\n".join(shown)) <= room:
            return shown
    shown = list(lines)
    while shown and phone_lines("\n".join(shown)) > room:
        shown.pop(0)
    return shown


def progress(score: int, goal: int, cells: int = 10) -> str:
    """A bar of `cells` cells filled as far as the score goes towards the goal."""
    filled = min(cells, score * cells // goal)
    return "█" * filled + "░" * (cells - filled)


def phone_lines(text: str) -> int:
    """How many lines `text` (embed Markdown) takes on a phone: each line word-wrapped at PHONE_WIDTH
    characters as drawn (no markup, a timestamp as its longest words, an emoji as two letters)."""
    count = 0
    for line in text.splitlines() or [""]:
        drawn = _WIDE.sub("ww", _TIMESTAMP.sub("in 59 minutes", _MARKUP.sub("", line)))
        count += max(1, len(textwrap.wrap(drawn, PHONE_WIDTH, break_on_hyphens=False)))
    return count
