"""A rendered picture: PNG bytes with the alt text that describes it to people who cannot see it; and the
one look every picture shares.

The look is a dark card, Discord's own embed colour of its dark theme (#2b2d31) with its light text: on
the dark theme (chat #313338) the picture reads as an embed does, and on the light theme (#ffffff) as a
dark card whose text contrasts with the card itself. A transparent picture would need text that contrasts
with both #313338 and #ffffff, and no colour does that well (mid-grey is weak on both).
"""

import io
import logging
from dataclasses import dataclass

from matplotlib import font_manager, rcParams
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.ticker import MaxNLocator

CARD = "#2b2d31"  # Discord's dark-theme embed background
INK = "#dbdee1"  # Discord's dark-theme text: 10:1 against CARD
MUTED = "#949ba4"  # Discord's dark-theme secondary text: axes, ticks and reference lines
GRID = "#3f4147"  # faint lines behind the data
MISTAKE = "#f23f43"  # Discord's red
# Lines and bars told apart on CARD: Discord's blurple lightened, then yellow, green, pink, orange, cyan.
SERIES = ("#8c96ff", "#f0b232", "#4cc26e", "#eb459e", "#f28e2b", "#36c5f0")

WIDTH = 4.8  # inches: Discord's phone preview (about 400 px wide) shows FONT points as 12-13 px text
DPI = 150  # pixels per inch: about 720 px wide, sharp when opened full size
FONT = 11  # points of titles and labels
SMALL = 10  # points of tick labels and legends
# Names are drawn as written: what matplotlib's DejaVu Sans lacks (emoji, Chinese, Japanese, Korean) comes
# from these Debian fonts (fonts-symbola, fonts-wqy-zenhei) where installed, as the image and CI install them.
FALLBACK_FONTS = ("Symbola", "WenQuanYi Zen Hei")


def _with_fallbacks() -> None:
    """Every picture's text in DejaVu Sans, then each installed fallback font glyph by glyph. Set once, as
    the module loads, never changed after: pictures rendered in threads still cannot mix settings."""
    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    rcParams["font.family"] = ["DejaVu Sans", *(name for name in FALLBACK_FONTS if name in installed)]
    # WenQuanYi's one face is weight 500: matplotlib would log that it found no "normal" weight of it.
    logging.getLogger(font_manager.__name__).setLevel(logging.ERROR)


_with_fallbacks()


@dataclass(frozen=True)
class Picture:
    """PNG bytes, a file name and alt text (Discord shows it as the attachment description)."""

    png: bytes
    filename: str
    alt: str


def as_written(text: str) -> str:
    """Text that matplotlib draws as written: without this, a name between two '$' is parsed as TeX and
    drawn as a formula, or fails to draw at all ('$\\foo$'), taking the whole picture with it."""
    return text.replace("$", r"\$")


def card(height: float, width: float = WIDTH) -> Figure:
    """A figure on the shared card, laid out so that titles, labels and outside legends never overlap."""
    return Figure(figsize=(width, height), facecolor=CARD, layout="constrained")


def styled(axes: Axes, title: str = "", xlabel: str = "", ylabel: str = "") -> Axes:
    """Axes in the shared look: light text on the card, a faint grid, no box around the data. Styled per
    axes, never through matplotlib's global settings, so pictures rendered at once in threads cannot mix."""
    axes.set_facecolor(CARD)
    for side, spine in axes.spines.items():
        spine.set_visible(side in ("left", "bottom"))
        spine.set_color(MUTED)
    axes.tick_params(colors=MUTED, labelcolor=INK, labelsize=SMALL)
    axes.grid(color=GRID, linewidth=0.7)
    axes.set_axisbelow(True)
    # The centre title moved to the left: the one title `to_png` can reach to shrink it to fit.
    axes.set_title(as_written(title), color=INK, fontsize=FONT, x=0, horizontalalignment="left")
    axes.set_xlabel(xlabel, color=INK, fontsize=SMALL)
    axes.set_ylabel(ylabel, color=INK, fontsize=SMALL)
    return axes


def whole_ticks(axes: Axes, axis: str = "x") -> None:
    """Whole-number ticks on an axis of counts (turns, games): never a tick at 2.5 turns."""
    (axes.xaxis if axis == "x" else axes.yaxis).set_major_locator(MaxNLocator(integer=True))


def percents(axes: Axes, axis: str = "y") -> None:
    """An axis of chances from 0% to 100%, ticked every 25 points."""
    ticks, labels = [0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"]
    (axes.set_yticks if axis == "y" else axes.set_xticks)(ticks, labels)


def legend_style(legend: Legend) -> Legend:
    """A legend in the shared look: light text, no frame (it sits outside the data)."""
    legend.get_frame().set_visible(False)
    for text in legend.get_texts():
        text.set_color(INK)
    return legend


def _fit_titles(figure: Figure) -> None:
    """Shrink a title too long for the card (a name of 32 wide letters) to end at the card's edge: the
    picture keeps its width, so the phone preview keeps its text size."""
    figure.draw_without_rendering()  # lays the figure out: the titles' places are known
    for axes in figure.axes:
        box = axes.title.get_window_extent()
        room = figure.bbox.x1 - box.x0
        if box.width > room:
            axes.title.set_fontsize(FONT * room / box.width)


def to_png(figure: Figure, filename: str, alt: str) -> Picture:
    """Render a figure to PNG bytes on the card (Agg, thread-safe for separate figures)."""
    FigureCanvasAgg(figure)
    _fit_titles(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, facecolor=CARD, bbox_inches="tight", pad_inches=0.12)
    return Picture(buffer.getvalue(), filename, alt[:1000])
