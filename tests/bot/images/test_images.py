"""The pictures decode as PNGs of a sensible size and carry alt text that says what they show."""

import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from bot.images import (
    charts,
    heatmap,
    rating_history_chart,
    ratings,
    standings,
    standings_table,
    strategy_heatmap,
    win_probability_chart,
)
from bot.images.picture import Picture, to_png
from bot.images.standings import MAX_CELL, standings_figure

LABELS = {-1: "Pork Chop", 0: "Free Bacon", **{n: f"Roll {n}" for n in range(1, 11)}}


def decoded(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    return image


def test_heatmap_shows_each_choice_in_its_own_colour() -> None:
    table = np.full((100, 100), 4, dtype=np.int8)
    table[:, :50] = 0
    table[90:, :] = -1
    picture = strategy_heatmap(table.tolist(), "bacon then four", LABELS)
    image = decoded(picture).convert("RGB")
    assert 300 <= image.width <= 1200 and 300 <= image.height <= 1000
    colours = {colour for _, colour in image.getcolors(maxcolors=100_000) or []}
    assert (242, 142, 43) in colours  # Free Bacon's orange
    assert (0, 0, 0) in colours  # Pork Chop's black
    assert "Roll 4" in picture.alt and "Free Bacon" in picture.alt
    assert "bacon then four" in picture.alt


def test_win_probability_chart_alt_text_reports_the_swing() -> None:
    picture = win_probability_chart([0.5, 0.62, 0.31, 1.0], ("alice", "bob"))
    assert decoded(picture).width > 200
    assert picture.alt == (
        "Win probability over 3 turns: alice's chance ranged from 31% to 100% and ended at 100%."
    )


@pytest.mark.parametrize("rows", [[], [["1", "ham", "2", "0", "71.0%"], ["2", "chop", "0", "2", "40.2%"]]])
def test_standings_table_renders_with_and_without_entries(rows: list[list[str]]) -> None:
    picture = standings_table("pork-chop, exact", ["#", "strategy", "W", "L", "vs always(5)"], rows)
    assert decoded(picture).height > 20
    assert f"with {len(rows)} entries" in picture.alt
    if rows:
        assert "ham leads" in picture.alt


def test_standings_columns_are_as_wide_as_their_text_and_long_names_are_cut() -> None:
    header = ("#", "strategy", "owner", "wins", "losses", "tie-break")
    long_name, owner = "the-longest-strategy-name-is-32", "Someone With A Long Display Name"
    rows = [(str(n), long_name if n == 1 else f"s{n}", owner, "3", "0", "0.612345") for n in range(1, 5)]
    figure = standings_figure("exact tournament · swine-align", header, rows)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()

    (table,) = figure.axes[0].tables
    cells = table.get_celld()
    for (row, column), cell in cells.items():
        text = cell.get_text().get_window_extent(renderer)
        box = cell.get_window_extent(renderer)
        assert box.x0 <= text.x0 and text.x1 <= box.x1, (row, column, cell.get_text().get_text())
        if (row, column + 1) in cells:
            assert box.x1 <= cells[row, column + 1].get_window_extent(renderer).x0 + 0.5  # side by side
    assert cells[1, 1].get_text().get_text() == long_name[: MAX_CELL - 1] + "…"
    assert cells[2, 1].get_text().get_text() == "s2" and cells[1, 2].get_text().get_text() == owner[:27] + "…"
    assert 300 <= decoded(standings_table("t", header, rows)).width <= 1200


def test_hostile_titles_are_bounded_in_alt_text() -> None:
    picture = strategy_heatmap(np.zeros((100, 100), dtype=np.int8).tolist(), "x" * 5000, LABELS)
    assert len(picture.alt) <= 1000


def test_rating_history_chart_draws_a_line_per_rule_set() -> None:
    picture = rating_history_chart({"swine-align": [0.0, 2.1, 4.5], "pork-chop": [0.0, -1.3]}, "alice")
    image = decoded(picture)
    assert 300 <= image.width <= 1200 and 150 <= image.height <= 600
    assert picture.filename == "ratings.png"
    assert picture.alt == (
        "Rating history of alice: swine-align: 0.0 to 4.5 over 2 games; pork-chop: 0.0 to -1.3 over 1 games."
    )


def test_names_are_drawn_as_written_never_as_tex_or_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    figures: list[Figure] = []

    def kept(figure: Figure, filename: str, alt: str) -> Picture:
        figures.append(figure)
        return to_png(figure, filename, alt)

    for module in (charts, heatmap, ratings, standings):
        monkeypatch.setattr(module, "to_png", kept)
    tex = "$\\frac$"  # matplotlib's mathtext cannot parse it: the whole picture would fail

    pictures = [
        win_probability_chart([0.5, 0.25, 1.0], (tex, "_bob")),
        rating_history_chart({"swine-align": [0.0, 1.5]}, tex),
        standings_table(tex, ("#", "owner"), [("1", tex), ("2", "$x^2$")]),
        strategy_heatmap(np.zeros((100, 100), dtype=np.int8).tolist(), tex, LABELS),
    ]

    for picture in pictures:
        assert decoded(picture).width > 200
    legend = figures[0].axes[0].get_legend()
    assert legend is not None and len(legend.get_texts()) == 2  # "_bob" is not left out
    assert pictures[0].alt.startswith(f"Win probability over 2 turns: {tex}'s chance")
