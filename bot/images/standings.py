"""Tournament standings as a picture of what the text cannot show: who beat whom (the results matrix, each
pairing a cell coloured by the row's result against the column), or, for a tournament stored before its
pairings were kept, every place's tie-break win rate as a bar against the 50% line."""

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from bot.images.picture import (
    CARD,
    GRID,
    INK,
    MUTED,
    SERIES,
    SMALL,
    Picture,
    as_written,
    card,
    percents,
    styled,
    to_png,
)
from hogengine.text import counted

MAX_CELL = 28  # characters a name shows; a longer name is cut with an ellipsis
ROW_INCHES = 0.22  # the height of one place's bar with its gap
MAX_PLACES = 40  # places drawn at most (twice the text's): more would make names too small to read


# Lost, even, won: Discord's red, the card's grid grey and Discord's green-blue, told apart without red-green
# sight (a loss is warm and dark, a win cool and light).
# Nobody plays themselves: the diagonal is the card.
RESULTS = LinearSegmentedColormap.from_list("results", ["#f23f43", GRID, "#36c5f0"]).with_extremes(bad=CARD)
NUMBERED = 12  # entries at most whose cells carry their number; more would make it too small to read


class Versus(NamedTuple):
    """One pairing by the two places (1-based), and each side's result as a share of a win (0-1)."""

    a_place: int
    b_place: int
    a_share: float
    b_share: float


class Place(NamedTuple):
    """One place of the standings: its rank, the strategy's name, its wins and its tie-break rate (0-1)."""

    place: int
    name: str
    wins: float
    rate: float


def fitted(text: str, limit: int = MAX_CELL) -> str:
    """The text, cut to `limit` characters with an ellipsis when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def standings_figure(title: str, places: Sequence[Place], measure: str) -> Figure:
    """The first MAX_PLACES places as bars of their tie-break rate (`measure` says what the rate is), best
    at the top, each labelled with its rank and name and its wins at the bar's end."""
    shown, more = places[:MAX_PLACES], len(places) - MAX_PLACES
    figure = card(1.1 + ROW_INCHES * max(len(shown), 2))
    below = f"tie-break: {measure}" + (f"\n… and {counted(more, 'more place')} not drawn" if more > 0 else "")
    axes = styled(figure.add_subplot(), fitted(title, 60), below)
    ranks = range(len(shown))
    axes.barh(ranks, [100 * p.rate for p in shown], height=0.7, color=SERIES[0])
    axes.axvline(50, color=MUTED, linewidth=0.8, linestyle="--", zorder=0.5)  # behind the bars
    axes.set_yticks(list(ranks), [as_written(f"{p.place}. {fitted(p.name)}") for p in shown], fontsize=SMALL)
    axes.set_ylim(max(len(shown), 1) - 0.5, -0.5)  # the first place at the top
    axes.set_xlim(0, 118)  # room for the wins past the best bar
    percents(axes, "x")
    axes.grid(axis="y", visible=False)
    axes.tick_params(axis="y", length=0)
    for rank, place in zip(ranks, shown, strict=True):  # match points and games won are whole
        axes.text(
            100 * place.rate + 1.5,
            rank,
            counted(round(place.wins), "win"),
            va="center",
            color=INK,
            fontsize=SMALL,
        )
    return figure


def standings_chart(title: str, places: Sequence[Place], measure: str) -> Picture:
    """The standings picture with alt text naming the leader."""
    leader = f" {places[0].name} leads with {100 * places[0].rate:.1f}%." if places else ""
    alt = f"Standings chart '{title[:60]}' with {counted(len(places), 'entry', 'entries')}.{leader}"
    return to_png(standings_figure(title, places, measure), "standings.png", alt)


def results_figure(title: str, names: Sequence[str], pairings: Sequence[Versus], measure: str) -> Figure:
    """The first MAX_PLACES places against each other: row i's share of the pairing with column j (`measure`
    says what the share is), red for a loss through grey to blue for a win; numbered when few."""
    count = min(len(names), MAX_PLACES)
    shares = np.full((count, count), np.nan)
    for pairing in pairings:
        a, b = pairing.a_place - 1, pairing.b_place - 1
        if a < count and b < count:
            shares[a, b], shares[b, a] = pairing.a_share, pairing.b_share
    figure = card(1.6 + 0.16 * max(count, 8))
    more = len(names) - count
    below = f"… and {counted(more, 'more place')} not drawn" if more > 0 else ""
    axes = styled(figure.add_subplot(), fitted(title, 60), below)
    axes.grid(visible=False)
    image = axes.imshow(np.ma.masked_invalid(shares), cmap=RESULTS, vmin=0, vmax=1, aspect="equal")
    rows = [as_written(f"{place}. {fitted(name, 20)}") for place, name in enumerate(names[:count], start=1)]
    axes.set_yticks(range(count), rows, fontsize=SMALL)
    axes.set_xticks(range(count), [str(place) for place in range(1, count + 1)], fontsize=SMALL)
    axes.xaxis.set_ticks_position("top")
    axes.tick_params(length=0)
    if count <= NUMBERED:
        for (row, column), share in np.ndenumerate(shares):
            if not np.isnan(share):
                axes.text(column, row, f"{100 * share:.0f}", ha="center", va="center", color=INK, fontsize=8)
    bar = figure.colorbar(image, ax=axes, shrink=0.8, ticks=[0, 0.5, 1])
    bar.ax.set_yticklabels(["0%", "50%", "100%"], color=INK, fontsize=SMALL)
    bar.set_label(measure, color=INK, fontsize=SMALL)
    bar.outline.set_visible(False)
    bar.ax.tick_params(colors=MUTED)
    return figure


def results_matrix(title: str, names: Sequence[str], pairings: Sequence[Versus], measure: str) -> Picture:
    """The results matrix with alt text naming the most lopsided win, for people who cannot see it."""
    best = max(pairings, key=lambda p: max(p.a_share, p.b_share), default=None)
    said = ""
    if best is not None:
        (winner, loser), share = (
            ((best.a_place, best.b_place), best.a_share)
            if best.a_share >= best.b_share
            else ((best.b_place, best.a_place), best.b_share)
        )
        said = f" The widest margin: {names[winner - 1]} over {names[loser - 1]}, {100 * share:.1f}%."
    alt = f"Results matrix '{title[:60]}' of {counted(len(names), 'entry', 'entries')}: {measure}.{said}"
    return to_png(results_figure(title, names, pairings, measure), "standings.png", alt)
