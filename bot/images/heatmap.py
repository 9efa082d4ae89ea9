"""A 100x100 strategy table as a heatmap: one colour per choice, with a legend."""

from collections import Counter
from collections.abc import Sequence

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from bot.images.picture import Picture, as_written, to_png

# Choices -1 (Pork Chop / Ham Hijinks) and 0 (Free Bacon) stand out; 1..10 dice run along viridis.
_SPECIAL = {-1: "#000000", 0: "#f28e2b"}
_DICE = colormaps["viridis"]


def _colour(choice: int) -> tuple[float, float, float, float] | str:
    return _SPECIAL.get(choice) or _DICE((choice - 1) / 9)


def strategy_heatmap(table: Sequence[Sequence[int]], title: str, labels: dict[int, str]) -> Picture:
    """Choices of a strategy by (score, opponent score); `labels` names each legal choice."""
    grid = np.asarray(table, dtype=np.int64)
    choices = sorted(labels)
    colours = ListedColormap([_colour(c) for c in choices])
    norm = BoundaryNorm([c - 0.5 for c in choices] + [choices[-1] + 0.5], colours.N)
    figure = Figure(figsize=(6.4, 5.4))
    axes = figure.add_subplot()
    image = axes.imshow(grid, origin="lower", cmap=colours, norm=norm, interpolation="nearest")
    axes.set_xlabel("opponent score")
    axes.set_ylabel("your score")
    axes.set_title(as_written(title[:80]))
    bar = figure.colorbar(image, ax=axes, ticks=choices)
    bar.ax.set_yticklabels([labels[c] for c in choices])
    counts = Counter(int(v) for v in grid.flat)
    common = ", ".join(f"{labels.get(c, c)} in {n} cells" for c, n in counts.most_common(3))
    alt = f"Heatmap of the strategy '{title[:60]}' over 100 by 100 score pairs. Most common: {common}."
    return to_png(figure, "strategy.png", alt)
