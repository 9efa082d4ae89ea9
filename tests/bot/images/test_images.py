"""The pictures read on Discord's dark and light themes at phone size, say what they show in alt text, and
draw what a player looks for: one line of their own chance with their mistakes on it, whole turns and games,
a distinct colour per strategy choice, every place of a tournament."""

import io
import warnings
from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

from bot.images import (
    Place,
    Versus,
    charts,
    heatmap,
    rating_history_chart,
    ratings,
    results_matrix,
    standings,
    standings_chart,
    strategy_heatmap,
    win_probability_chart,
)
from bot.images.picture import CARD, Picture, to_png
from bot.images.samples import LABELS, samples
from bot.images.standings import MAX_CELL, MAX_PLACES

CARD_RGB = tuple(int(CARD[i : i + 2], 16) for i in (1, 3, 5))


def decoded(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Figure]]:
    """Every figure the renderers save, in order, to inspect what they drew."""
    kept: list[Figure] = []

    def keeping(figure: Figure, filename: str, alt: str) -> Picture:
        kept.append(figure)
        return to_png(figure, filename, alt)

    for module in (charts, heatmap, ratings, standings):
        monkeypatch.setattr(module, "to_png", keeping)
    yield kept


@pytest.mark.parametrize("name", sorted(samples()))
def test_every_picture_is_a_dark_card_sized_for_a_phone(name: str) -> None:
    """On the card, not white (it glared in the dark theme) nor transparent (no text colour reads on
    both themes); about 720 px wide, so Discord's 400 px preview shows 11-point text at 12 px or more."""
    image = decoded(samples()[name])
    corners = [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)]
    assert {image.getpixel(corner) for corner in corners} == {CARD_RGB}
    assert 600 <= image.width <= 800 and 250 <= image.height <= 800


def test_a_long_wide_name_is_shrunk_to_fit_the_card_not_widening_the_picture() -> None:
    """A wider picture would show all its text smaller in the phone preview."""
    wide = "W" * 32  # Discord names and strategy names go up to 32 characters
    pictures = [
        win_probability_chart([0.5, 0.4, 1.0], (wide, "bob")),
        strategy_heatmap(np.full((100, 100), 4).tolist(), f"{wide} (swine-align)", LABELS),
    ]
    for picture in pictures:
        assert decoded(picture).width <= 800


def test_the_chance_chart_is_one_line_of_the_viewers_chance_with_their_mistakes_marked(
    figures: list[Figure],
) -> None:
    series = [0.5, 0.62, 0.31, 0.4, 1.0]
    picture = win_probability_chart(series, ("alice", "bob"), seat=1, mistakes=[1, 3])

    (axes,) = figures[0].axes
    drawn = [line for line in axes.get_lines() if line.get_linestyle() != "None"]
    chance = [line for line in drawn if len(line.get_xdata()) > 2]
    assert len(chance) == 1  # bob's chance alone, no mirror image of alice's
    assert list(chance[0].get_ydata()) == pytest.approx([50, 38, 69, 60, 0])
    (marks,) = [line for line in axes.get_lines() if line.get_linestyle() == "None"]
    # At turns 2 and 4 as the analysis text counts them, on the line where bob chose.
    assert list(marks.get_xdata()) == [2, 4] and list(marks.get_ydata()) == pytest.approx([38, 60])
    assert axes.get_ylim() == (0, 100)
    assert [label.get_text() for label in axes.get_xticklabels()] == ["1", "2", "3", "4", "end"]
    assert picture.alt == (
        "bob's chance to win over 4 turns: it ranged from 0% to 69% and ended at 0%; 2 mistakes marked, "
        "on turns 2, 4."
    )


def test_the_chance_charts_legend_is_off_the_data(figures: list[Figure]) -> None:
    win_probability_chart([0.5, 0.9, 0.2, 0.6, 0.95, 0.1, 0.5, 1.0], ("alice", "bob"), mistakes=[0, 2, 4])

    (axes,) = figures[0].axes
    renderer = figures[0].canvas.get_renderer()
    (legend,) = figures[0].legends
    assert [text.get_text() for text in legend.get_texts()] == ["mistake"]
    assert not legend.get_window_extent(renderer).overlaps(axes.get_window_extent(renderer))


def test_a_long_game_gets_whole_turn_ticks_and_a_spectator_sees_player_0(figures: list[Figure]) -> None:
    series = [0.5 + 0.4 * np.sin(turn / 5) for turn in range(37)] + [0.0]
    picture = win_probability_chart(series, ("alice", "bob"))

    labels = [label.get_text() for label in figures[0].axes[0].get_xticklabels()]
    assert labels[-1] == "end" and all(label.isdigit() for label in labels[:-1]) and len(labels) > 4
    assert picture.alt.startswith("alice's chance to win over 37 turns:")
    assert picture.alt.endswith("; no mistakes.")


def colour_of(image: Image.Image, share: float) -> list[tuple[int, int, int]]:
    """The colours covering at least `share` of the picture, the card's left out."""
    counted = image.getcolors(maxcolors=image.width * image.height) or []
    return [
        colour
        for count, colour in counted
        if count >= share * image.width * image.height and colour != CARD_RGB
    ]


def test_the_heat_map_tells_neighbouring_choices_apart_and_names_each_in_its_legend(
    figures: list[Figure],
) -> None:
    table = np.full((100, 100), 4, dtype=np.int8)
    table[:, 33:66] = 5
    table[:, 66:] = 6
    picture = strategy_heatmap(table.tolist(), "four five six", LABELS)

    bands = colour_of(decoded(picture), 0.05)
    assert len(bands) == 3  # one colour per choice, each a third of the map
    for first, second in combinations(bands, 2):
        assert np.linalg.norm(np.subtract(first, second)) > 100, (first, second)  # not shades of one hue
    (legend,) = figures[0].legends
    assert [text.get_text() for text in legend.get_texts()] == ["Roll 4", "Roll 5", "Roll 6"]
    assert picture.alt == (
        "Heatmap of the strategy 'four five six' over 100 by 100 score pairs. Most common: Roll 6 in 3400 "
        "cells, Roll 4 in 3300 cells, Roll 5 in 3300 cells."
    )


def test_a_choice_keeps_its_colour_from_one_strategy_to_the_next() -> None:
    alone = np.full((100, 100), 5, dtype=np.int8)
    mixed = alone.copy()
    mixed[:50] = 0
    assert colour_of(decoded(strategy_heatmap(alone.tolist(), "x", LABELS)), 0.2) == [(0xF0, 0xE4, 0x42)]
    assert (0xF0, 0xE4, 0x42) in colour_of(decoded(strategy_heatmap(mixed.tolist(), "x", LABELS)), 0.1)


# Machado, Oliveira and Fernandes (2009), full severity: how linear RGB looks to protanopes, deuteranopes and
# tritanopes.
DICHROMATS = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.01182, 0.04294, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.3039],
    ],
}


def seen(colour: str, sight: list[list[float]]) -> np.ndarray:
    """A colour as CIE L*a*b* (D65) for a reader with this sight (a matrix on linear RGB)."""
    srgb = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(np.asarray(sight) @ linear, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("sight", ["normal", *DICHROMATS])
def test_colour_blind_readers_tell_every_choice_apart_and_from_the_card(sight: str) -> None:
    """Every two choices, and each choice and the card, differ by at least 15 (CIE76) as this reader sees
    them; the palette before differed by 1 for Roll 6 and Roll 7 under deuteranopia."""
    matrix = DICHROMATS.get(sight, np.eye(3).tolist())
    colours = {**{str(choice): colour for choice, colour in heatmap.CHOICE_COLOURS.items()}, "card": CARD}
    for (a, first), (b, second) in combinations(colours.items(), 2):
        assert np.linalg.norm(seen(first, matrix) - seen(second, matrix)) >= 15, (sight, a, b)


def test_the_rating_chart_counts_whole_games_with_its_legend_off_the_lines(figures: list[Figure]) -> None:
    picture = rating_history_chart({"swine-align": [0, 105, 1225], "pork-chop": [0, 0]}, "alice")

    (axes,) = figures[0].axes
    low, high = axes.get_xlim()
    shown = [label.get_text() for label in axes.get_xticklabels() if low <= label.get_position()[0] <= high]
    assert shown == ["0", "1", "2"]  # whole games, never 0.5 of one
    assert len(axes.get_lines()) == 2
    renderer = figures[0].canvas.get_renderer()
    (legend,) = figures[0].legends
    assert not legend.get_window_extent(renderer).overlaps(axes.get_window_extent(renderer))
    assert picture.filename == "ratings.png"
    assert picture.alt == (
        "Rating history of alice: swine-align: 0 to 1,225 over 2 games; pork-chop: 0 to 0 over 1 game."
    )


def test_the_standings_chart_shows_every_place_as_a_bar_of_its_win_rate(figures: list[Figure]) -> None:
    long_name = "the-longest-strategy-name-is-32"
    places = [Place(1, "ham", 2, 0.71), Place(2, long_name, 1, 0.52), Place(3, "chop", 0, 0.402)]
    picture = standings_chart("exact tournament · pork-chop", places, "mean win rate")

    (axes,) = figures[0].axes
    assert [bar.get_width() for bar in axes.patches] == pytest.approx([71, 52, 40.2])
    labels = [label.get_text() for label in axes.get_yticklabels()]
    assert labels == ["1. ham", f"2. {long_name[: MAX_CELL - 1]}…", "3. chop"]
    assert {text.get_text() for text in axes.texts} == {"2 wins", "1 win", "0 wins"}
    assert axes.get_xlabel() == "tie-break: mean win rate"
    assert (
        picture.alt == "Standings chart 'exact tournament · pork-chop' with 3 entries. ham leads with 71.0%."
    )


def test_the_results_matrix_shows_who_beat_whom(figures: list[Figure]) -> None:
    names = ["ham", "chop", "bacon"]  # ham beats both, chop beats bacon narrowly
    versus = [Versus(1, 2, 0.8, 0.2), Versus(1, 3, 0.9, 0.1), Versus(2, 3, 0.55, 0.45)]
    picture = results_matrix("exact tournament · t", names, versus, "row's exact win rate vs the column")

    (axes, _) = figures[0].axes  # the matrix, and its colour bar
    cells = axes.images[0].get_array()
    assert cells.mask.tolist() == [[True, False, False], [False, True, False], [False, False, True]]
    assert cells.data[0, 1] == pytest.approx(0.8) and cells.data[1, 0] == pytest.approx(0.2)
    assert cells.data[2, 1] == pytest.approx(0.45)
    assert [label.get_text() for label in axes.get_yticklabels()] == ["1. ham", "2. chop", "3. bacon"]
    assert sorted(text.get_text() for text in axes.texts) == sorted(["80", "90", "20", "55", "10", "45"])
    won, lost = (axes.images[0].cmap(axes.images[0].norm(share)) for share in (0.9, 0.1))
    assert won[2] > won[0] and lost[0] > lost[2]  # a win is blue, a loss red: told apart at a glance
    assert picture.alt == (
        "Results matrix 'exact tournament · t' of 3 entries: row's exact win rate vs the column. "
        "The widest margin: ham over bacon, 90.0%."
    )


@pytest.mark.parametrize("count", [2, MAX_PLACES, 90])
def test_the_results_matrix_stays_a_sensible_size(count: int, figures: list[Figure]) -> None:
    names = [f"s{n}" for n in range(count)]
    versus = [Versus(a, b, 0.6, 0.4) for a in range(1, count + 1) for b in range(a + 1, count + 1)]
    image = decoded(results_matrix("t", names, versus, "row's games won of 9 vs the column"))

    assert 600 <= image.width <= 900 and 250 <= image.height <= 1600
    axes = figures[0].axes[0]
    assert axes.images[0].get_array().shape == (min(count, MAX_PLACES),) * 2
    assert axes.get_xlabel() == ("" if count <= MAX_PLACES else "… and 50 more places not drawn")


@pytest.mark.parametrize("count", [2, MAX_PLACES, 400])
def test_the_standings_picture_stays_a_sensible_size(count: int, figures: list[Figure]) -> None:
    places = [Place(n + 1, f"s{n}", count - n, 1 - n / count) for n in range(count)]
    image = decoded(standings_chart("t", places, "vs always_roll(5)"))

    assert 600 <= image.width <= 800 and 150 <= image.height <= 1600
    (axes,) = figures[0].axes
    assert len(axes.patches) == min(count, MAX_PLACES)
    more = "" if count <= MAX_PLACES else "\n… and 360 more places not drawn"
    assert axes.get_xlabel() == f"tie-break: vs always_roll(5){more}"


def test_hostile_titles_are_bounded_in_alt_text() -> None:
    picture = strategy_heatmap(np.zeros((100, 100), dtype=np.int8).tolist(), "x" * 5000, LABELS)
    assert len(picture.alt) <= 1000


def test_names_are_drawn_as_written_never_as_tex(figures: list[Figure]) -> None:
    tex = "$\\frac$"  # matplotlib's mathtext cannot parse it: the whole picture would fail

    pictures = [
        win_probability_chart([0.5, 0.25, 1.0], (tex, "_bob")),
        rating_history_chart({"swine-align": [0.0, 1.5]}, tex),
        standings_chart(tex, [Place(1, tex, 1, 0.6), Place(2, "$x^2$", 0, 0.4)], "mean win rate"),
        strategy_heatmap(np.zeros((100, 100), dtype=np.int8).tolist(), tex, LABELS),
    ]

    for picture in pictures:
        assert decoded(picture).width > 200
    assert figures[0].axes[0].get_title() == "\\$\\frac\\$'s chance to win"
    assert pictures[0].alt.startswith(f"{tex}'s chance to win over 2 turns")


@pytest.mark.parametrize("name", ["Zoë's Pig Pen 🐷", "小猪队", "돼지 팀", "ブタ🎲"])
def test_names_in_any_script_or_with_emoji_are_drawn_not_boxed(name: str) -> None:
    """A name keeps its emoji and letters in every picture: each glyph DejaVu Sans lacks comes from a
    fallback font (matplotlib warns of each it draws as an empty box). Needs Debian's fonts-symbola and
    fonts-wqy-zenhei, which .ci/run and the image install."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        strategy_heatmap(np.full((100, 100), 4).tolist(), f"{name} (Swine Align / Pig Pass)", LABELS)
        standings_chart(name, [Place(1, name, 1, 0.6), Place(2, "bob", 0, 0.4)], "mean win rate")
    assert [str(warning.message) for warning in caught if "missing from font" in str(warning.message)] == []
