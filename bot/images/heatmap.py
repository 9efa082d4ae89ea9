"""A 100x100 strategy table as a heat map: one distinct colour per choice, each named in a legend."""

from collections import Counter
from collections.abc import Sequence

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch

from bot.images.picture import MUTED, SMALL, Picture, card, legend_style, styled, to_png

# A qualitative palette fixed per choice (Roll 4 is blue in every picture), so that neighbouring counts
# (4, 5, 6) are different hues rather than shades of one; Free Bacon is orange, the -1 choice near-white.
CHOICE_COLOURS = {
    -1: "#f5f5f5",
    0: "#f28e2b",
    1: "#9c755f",
    2: "#bab0ac",
    3: "#76b7b2",
    4: "#4e79a7",
    5: "#edc948",
    6: "#e15759",
    7: "#59a14f",
    8: "#b07aa1",
    9: "#ff9da7",
    10: "#000000",
}


def strategy_heatmap(table: Sequence[Sequence[int]], title: str, labels: dict[int, str]) -> Picture:
    """Choices of a strategy by (score, opponent score); `labels` names each legal choice, and the legend
    lists the choices the table makes, in order."""
    grid = np.asarray(table, dtype=np.int64)
    present = sorted(int(choice) for choice in np.unique(grid))
    palette = np.array([to_rgb(CHOICE_COLOURS[choice]) for choice in range(-1, 11)])
    figure = card(3.9)
    axes = styled(figure.add_subplot(), title[:60], "opponent score", "your score")
    axes.imshow(palette[grid + 1], origin="lower", interpolation="nearest")
    axes.grid(False)
    swatches = [
        Patch(
            facecolor=CHOICE_COLOURS[choice],
            edgecolor=MUTED,
            linewidth=0.6,
            label=labels.get(choice, str(choice)),
        )
        for choice in present
    ]
    legend_style(
        figure.legend(handles=swatches, loc="outside right center", fontsize=SMALL, handlelength=1.2)
    )
    counts = Counter(int(v) for v in grid.flat)
    common = ", ".join(f"{labels.get(c, c)} in {n} cells" for c, n in counts.most_common(3))
    alt = f"Heatmap of the strategy '{title[:60]}' over 100 by 100 score pairs. Most common: {common}."
    return to_png(figure, "strategy.png", alt)
