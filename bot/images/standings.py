"""Tournament standings as a picture of what the text cannot show at a glance: every place's tie-break win
rate as a bar against the 50% line, so the gaps between places (and the places past the text's) show."""

from collections.abc import Sequence
from typing import NamedTuple

from matplotlib.figure import Figure

from bot.images.picture import INK, MUTED, SERIES, SMALL, Picture, as_written, card, percents, styled, to_png
from hogengine.text import counted

MAX_CELL = 28  # characters a name shows; a longer name is cut with an ellipsis
ROW_INCHES = 0.22  # the height of one place's bar with its gap
MAX_PLACES = 40  # places drawn at most (twice the text's): more would make names too small to read


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
