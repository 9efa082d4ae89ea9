"""A 100x100 strategy table as a heat map: one distinct colour per choice, each named in a legend."""

from collections import Counter
from collections.abc import Sequence

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch

from bot.images.picture import MUTED, SMALL, Picture, card, legend_style, styled, to_png

# A qualitative palette fixed per choice (Roll 5 is yellow in every picture), that colour-blind readers can
# separate: Okabe and Ito's seven colours for Free Bacon and the common counts, then five more chosen to stay
# apart from them, from each other and from the card in normal sight and under protanopia, deuteranopia and
# tritanopia alike (the tests check it); neighbouring counts (4, 5, 6) are different hues, not shades of one.
CHOICE_COLOURS = {
    -1: "#ccffcc",
    0: "#0072b2",
    1: "#663300",
    2: "#e69f00",
    3: "#cc79a7",
    4: "#d55e00",
    5: "#f0e442",
    6: "#56b4e9",
    7: "#009e73",
    8: "#9933ff",
    9: "#00ffff",
    10: "#003399",
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
