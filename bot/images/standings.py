"""Tournament standings as a table picture, each column as wide as its widest cell."""

from collections.abc import Sequence

from matplotlib.figure import Figure

from bot.images.picture import Picture, as_written, to_png

MAX_CELL = 28  # characters a cell shows; a longer name is cut with an ellipsis
ROW_INCHES = 0.18  # the height of one table row at the table's font size, with its padding


def fitted(text: str, limit: int = MAX_CELL) -> str:
    """The text, cut to `limit` characters with an ellipsis when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def standings_figure(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Figure:
    """The table drawn on a figure: columns are sized to their text when it is drawn, so none overlaps."""
    figure = Figure(figsize=(6.4, 0.6 + ROW_INCHES * (len(rows) + 1)))
    axes = figure.add_subplot()
    axes.axis("off")
    axes.set_title(as_written(fitted(title, 80)))
    if rows:
        cells = [[as_written(fitted(cell)) for cell in row] for row in rows]
        table = axes.table(
            cellText=cells, colLabels=[as_written(cell) for cell in header], loc="upper center"
        )
        table.auto_set_font_size(False)
        table.set_fontsize(9)
        table.auto_set_column_width(list(range(len(header))))
    return figure


def standings_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Picture:
    """A ranked table (rank, name, wins, losses, tie-break...) drawn as an image."""
    leader = f" {rows[0][1]} leads." if rows and len(rows[0]) > 1 else ""
    alt = f"Standings table '{title[:60]}' with {len(rows)} entries.{leader}"
    return to_png(standings_figure(title, header, rows), "standings.png", alt)
