"""Tournament standings as a table picture."""

from collections.abc import Sequence

from matplotlib.figure import Figure

from bot.images.picture import Picture, to_png


def standings_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Picture:
    """A ranked table (rank, name, wins, losses, tie-break...) drawn as an image."""
    figure = Figure(figsize=(6.4, 0.6 + 0.3 * (len(rows) + 1)))
    axes = figure.add_subplot()
    axes.axis("off")
    axes.set_title(title[:80])
    if rows:
        table = axes.table(cellText=[list(r) for r in rows], colLabels=list(header), loc="center")
        table.auto_set_font_size(False)
        table.set_fontsize(9)
    leader = f" {rows[0][1]} leads." if rows and len(rows[0]) > 1 else ""
    alt = f"Standings table '{title[:60]}' with {len(rows)} entries.{leader}"
    return to_png(figure, "standings.png", alt)
