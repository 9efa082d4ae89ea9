"""A rendered picture: PNG bytes with the alt text that describes it to people who cannot see it."""

import io
from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


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


def to_png(figure: Figure, filename: str, alt: str) -> Picture:
    """Render a figure to PNG bytes (Agg, thread-safe for separate figures)."""
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return Picture(buffer.getvalue(), filename, alt[:1000])
