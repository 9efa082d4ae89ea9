"""The pictures decode as PNGs of a sensible size and carry alt text that says what they show."""

import io

import numpy as np
import pytest
from PIL import Image

from bot.images import rating_history_chart, standings_table, strategy_heatmap, win_probability_chart
from bot.images.picture import Picture

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
