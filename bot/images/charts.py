"""How the win probability moved over a game, turn by turn, for both players."""

from collections.abc import Sequence

from matplotlib.figure import Figure

from bot.images.picture import Picture, as_written, to_png


def win_probability_chart(player0_chances: Sequence[float], names: tuple[str, str]) -> Picture:
    """Player 0's exact chance of winning before each turn and at the end; player 1's is the rest."""
    turns = list(range(len(player0_chances)))
    figure = Figure(figsize=(6.4, 3.2))
    axes = figure.add_subplot()
    first = axes.plot(turns, [100 * p for p in player0_chances], drawstyle="steps-post")
    second = axes.plot(turns, [100 - 100 * p for p in player0_chances], drawstyle="steps-post")
    axes.axhline(50, color="grey", linewidth=0.5)
    axes.set_ylim(0, 100)
    axes.set_xlabel("turn")
    axes.set_ylabel("chance to win (%)")
    # Labels given with their lines: matplotlib would leave a name starting with "_" out of the legend.
    axes.legend([*first, *second], [as_written(name[:32]) for name in names], loc="upper left")
    low = min(player0_chances, default=0.5)
    high = max(player0_chances, default=0.5)
    alt = (
        f"Win probability over {max(len(turns) - 1, 0)} turns: {names[0][:32]}'s chance ranged from "
        f"{100 * low:.0f}% to {100 * high:.0f}% and ended at {100 * player0_chances[-1]:.0f}%."
        if player0_chances
        else "Win probability chart of a game with no turns."
    )
    return to_png(figure, "win-probability.png", alt)
