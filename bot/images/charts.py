"""How one player's chance of winning moved over a game, turn by turn, with their mistakes marked."""

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from bot.images.picture import (
    MISTAKE,
    MUTED,
    SERIES,
    SMALL,
    Picture,
    card,
    legend_style,
    percents,
    styled,
    to_png,
)
from hogengine.text import counted


def win_probability_chart(
    player0_chances: Sequence[float], names: tuple[str, str], seat: int = 0, mistakes: Sequence[int] = ()
) -> Picture:
    """One line: `seat`'s exact chance of winning at the start of each turn and at the end, from player 0's
    series; `mistakes` are the turns (0-based, as the analysis counts them) where that seat's choice was a
    mistake, marked where the choice was made."""
    chances = [100 * (p if seat == 0 else 1 - p) for p in player0_chances]
    end = len(chances)  # turn n is drawn from n to n + 1; the game's end at len(chances)
    name = names[seat][:32]
    figure = card(2.9)
    axes = styled(figure.add_subplot(), f"{name}'s chance to win", "turn")
    axes.axhline(50, color=MUTED, linewidth=0.8, linestyle="--")
    axes.plot(range(1, end + 1), chances, drawstyle="steps-post", color=SERIES[0], linewidth=2)
    marked = sorted(turn for turn in set(mistakes) if 0 <= turn < end - 1)
    if marked:
        axes.plot(
            [turn + 1 for turn in marked],
            [chances[turn] for turn in marked],
            linestyle="none",
            marker="o",
            markersize=7,
            color=MISTAKE,
            markeredgecolor="white",
            markeredgewidth=0.8,
            label="mistake",
        )
        legend_style(figure.legend(loc="outside lower right", fontsize=SMALL))  # below, never over the line
    axes.set_ylim(0, 100)
    percents(axes)
    axes.set_xlim(1, max(end, 2))
    _turn_ticks(axes, end)
    alt = (
        f"{name}'s chance to win over {counted(end - 1, 'turn')}: it ranged from {min(chances):.0f}% to "
        f"{max(chances):.0f}% and ended at {chances[-1]:.0f}%; {_mistakes(marked)}."
        if chances
        else "Chance-to-win chart of a game with no turns."
    )
    return to_png(figure, "win-probability.png", alt)


def _turn_ticks(axes: Axes, end: int) -> None:
    """Whole turn numbers, and "end" where the game ended: no tick at 2.5 turns, none at a turn not played."""
    ticks = [int(t) for t in MaxNLocator(nbins=7, integer=True).tick_values(1, end) if 1 <= t < end]
    spacing = ticks[1] - ticks[0] if len(ticks) > 1 else 1
    kept = [tick for tick in ticks if end - tick >= 0.75 * spacing]  # room for the word "end"
    axes.set_xticks([*kept, end], [*map(str, kept), "end"])


def _mistakes(turns: Sequence[int]) -> str:
    """The marked mistakes as the alt text says them, turns counted from 1 as the analysis text counts."""
    if not turns:
        return "no mistakes"
    which = ", ".join(str(turn + 1) for turn in turns)
    return f"{counted(len(turns), 'mistake')} marked, on {'turn' if len(turns) == 1 else 'turns'} {which}"
