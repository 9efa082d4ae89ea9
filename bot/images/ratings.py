"""A player's rating after each rated game, one line per rule set."""

from collections.abc import Mapping, Sequence

from bot.images.picture import SERIES, SMALL, Picture, card, legend_style, styled, to_png, whole_ticks
from hogengine.text import counted


def rating_history_chart(history: Mapping[str, Sequence[float]], name: str) -> Picture:
    """`history` maps a rule set to the rating players see (whole, never negative) before the first rated
    game and after each one."""
    figure = card(2.9)
    axes = styled(figure.add_subplot(), f"{name[:40]}'s rating", "rated games", "rating")
    for colour, (rules, scores) in zip(SERIES * len(history), history.items(), strict=False):
        axes.plot(
            range(len(scores)),
            scores,
            marker="o",
            markersize=3.5,
            linewidth=2,
            color=colour,
            label=rules[:32],
        )
    whole_ticks(axes)
    if history:
        legend = figure.legend(loc="outside lower right", fontsize=SMALL, ncols=min(len(history), 3))
        legend_style(legend)  # below the data, never over a line
    latest = "; ".join(
        f"{rules[:32]}: {scores[0]:,.0f} to {scores[-1]:,.0f} over {counted(len(scores) - 1, 'game')}"
        for rules, scores in history.items()
        if scores
    )
    alt = f"Rating history of {name[:40]}: {latest or 'no rated games'}."
    return to_png(figure, "ratings.png", alt)
