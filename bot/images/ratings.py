"""A player's rating after each rated game, one line per rule set."""

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from bot.images.picture import Picture, as_written, to_png


def rating_history_chart(history: Mapping[str, Sequence[float]], name: str) -> Picture:
    """`history` maps a rule set to the rating score (mu - 3 sigma) before the first rated game and after
    each one."""
    figure = Figure(figsize=(6.4, 3.2))
    axes = figure.add_subplot()
    for rules, scores in history.items():
        axes.plot(range(len(scores)), scores, marker="o", markersize=3, label=rules[:32])
    axes.set_xlabel("rated games")
    axes.set_ylabel("rating (mu - 3 sigma)")
    axes.set_title(as_written(f"{name[:40]}'s rating"))
    if history:
        axes.legend(loc="upper left")
    latest = "; ".join(
        f"{rules[:32]}: {scores[0]:.1f} to {scores[-1]:.1f} over {len(scores) - 1} games"
        for rules, scores in history.items()
        if scores
    )
    alt = f"Rating history of {name[:40]}: {latest or 'no rated games'}."
    return to_png(figure, "ratings.png", alt)
