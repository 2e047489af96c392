"""Page layout helpers for the PDF report: A4 landscape pages, flowing text, paginated tables, interval plots.

Everything is drawn with matplotlib's Agg backend and written through ``PdfPages``. Fonts are embedded as TrueType
(``pdf.fonttype`` 42) so the report's text can be searched and extracted.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

#: A4 landscape, in inches.
PAGE_SIZE = (11.69, 8.27)
#: Text area, in figure fractions.
LEFT, RIGHT, TOP, BOTTOM = 0.05, 0.95, 0.90, 0.07
BODY_FONT = 9.0
#: Characters of body text that fit across the page (DejaVu Sans at 9 pt averages ~5.3 pt per character).
LINE_CHARS = 150

RC = {
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "font.size": BODY_FONT,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


def new_page(title: str, subtitle: str | None = None) -> Figure:
    """A blank A4-landscape page with its title (and an optional one-line subtitle) at the top."""
    # A bare Figure, not pyplot's: a report holds many pages at once and pyplot would keep each one registered.
    fig = Figure(figsize=PAGE_SIZE)
    # Long titles (a spec's own title) shrink to fit the page width, and are cut only beyond that.
    size = 15.0 if len(title) <= 78 else max(10.0, 15.0 * 78 / len(title))
    fig.text(LEFT, 0.955, shorten(title, int(78 * 15.0 / size)), fontsize=size, fontweight="bold", va="top")
    if subtitle:
        # At most two lines, so the subtitle never runs into the plots below it.
        lines = textwrap.wrap(subtitle, 175)
        text = "\n".join(lines[:2]) + ("\u2026" if len(lines) > 2 else "")
        fig.text(LEFT, 0.918, text, fontsize=8.5, va="top", color="0.3")
    return fig


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters with an ellipsis (only for one-line captions; tables wrap instead)."""
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def wrap(text: str, width: int) -> str:
    """``text`` wrapped to lines of at most ``width`` characters (explicit newlines kept)."""
    return "\n".join(textwrap.fill(part, width) if part else "" for part in str(text).split("\n"))


@dataclass
class Line:
    """One line of flowing text: its text and style (``"h1"``, ``"h2"``, ``"body"``, ``"mono"``)."""

    text: str
    style: str = "body"


STYLES = {
    "h1": {"fontsize": 12.5, "fontweight": "bold", "gap": 2.0},
    "h2": {"fontsize": 10.5, "fontweight": "bold", "gap": 1.6},
    "body": {"fontsize": BODY_FONT, "fontweight": "normal", "gap": 1.3},
    "mono": {"fontsize": 8.0, "fontweight": "normal", "gap": 1.3, "family": "monospace"},
}


def text_lines(text: str, style: str = "body", indent: int = 0, width: int = LINE_CHARS) -> list[Line]:
    """``text`` wrapped into :class:`Line` objects of one style, indented by ``indent`` spaces after the first."""
    if style == "mono":
        width = int(width * 0.9)
    lines = textwrap.wrap(str(text), width=width - indent, subsequent_indent=" " * indent) or [""]
    return [Line(line, style) for line in lines]


def flow_pages(title: str, lines: Sequence[Line], continued: str = " (continued)") -> list[Figure]:
    """Render flowing text onto as many pages as it needs; each further page repeats the title."""
    pages: list[Figure] = []
    fig = new_page(title)
    y = TOP
    points_per_fig = PAGE_SIZE[1] * 72.0
    for line in lines:
        st = STYLES[line.style]
        step = st["fontsize"] * st["gap"] / points_per_fig
        if y - step < BOTTOM:
            pages.append(fig)
            fig = new_page(title + continued)
            y = TOP
        y -= step
        kwargs = {"fontsize": st["fontsize"], "fontweight": st["fontweight"]}
        if "family" in st:
            kwargs["family"] = st["family"]
        fig.text(LEFT, y, line.text, va="bottom", **kwargs)
    pages.append(fig)
    return pages


def _format(value: object, digits: int) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def format_p(p: float) -> str:
    """A p-value for display: three decimals, or "<0.001"."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def format_frame(df: pd.DataFrame, digits: int | dict[str, int] = 3) -> pd.DataFrame:
    """A copy of ``df`` with every cell as display text (floats rounded, NaN as "-", booleans as yes/no)."""
    out = pd.DataFrame(index=df.index)
    for col in df.columns:
        d = digits.get(col, 3) if isinstance(digits, dict) else digits
        out[col] = [_format(v, d) for v in df[col]]
    return out


def draw_table(
    ax: plt.Axes,
    df: pd.DataFrame,
    widths: Sequence[float] | None = None,
    fontsize: float = 7.5,
    wrap_chars: Sequence[int] | None = None,
) -> None:
    """Draw a text table filling ``ax`` (axis hidden); cells wrap to ``wrap_chars`` characters per column."""
    ax.axis("off")
    ax.grid(False)
    ncol = len(df.columns)
    widths = list(widths) if widths is not None else [1.0] * ncol
    total = float(sum(widths))
    widths = [w / total for w in widths]
    if wrap_chars is None:
        # Characters per column from its width share of the axes (about 175 characters of 7.5 pt text per A4 row).
        span = ax.get_position().width / (RIGHT - LEFT)
        wrap_chars = [max(4, int(w * 175 * span * 7.5 / fontsize)) for w in widths]
    header = [wrap(c, wc) for c, wc in zip(df.columns, wrap_chars)]
    cells = [[wrap(v, wc) for v, wc in zip(row, wrap_chars)] for row in df.astype(str).to_numpy().tolist()]
    lines_per_row = [max(c.count("\n") + 1 for c in row) for row in [header] + cells] if ncol else [1]
    total_lines = sum(lines_per_row)
    table = ax.table(
        cellText=cells or None,
        colLabels=header,
        colWidths=widths,
        cellLoc="left",
        colLoc="left",
        loc="upper left",
        bbox=None,
    )
    table.auto_set_font_size(False)
    table.set_fontsize(fontsize)
    # Row heights proportional to the wrapped lines so multi-line cells do not overflow their box.
    pad = 0.25
    line_height = min(0.06, 1.0 / max(total_lines + pad * len(lines_per_row), 1))
    for (r, _c), cell in table.get_celld().items():
        cell.set_height(line_height * (lines_per_row[r] + pad))
        cell.PAD = 0.02
        if r == 0:
            cell.set_text_props(fontweight="bold")
            cell.set_facecolor("0.9")
        cell.set_edgecolor("0.7")


def table_pages(
    title: str,
    df: pd.DataFrame,
    widths: Sequence[float] | None = None,
    rows_per_page: int = 26,
    note: str | None = None,
    fontsize: float = 7.5,
) -> list[Figure]:
    """A (display-formatted) table on as many pages as it needs, with an optional note under it on each page."""
    figs: list[Figure] = []
    n = max(len(df), 1)
    chunks = [df.iloc[i : i + rows_per_page] for i in range(0, n, rows_per_page)] or [df]
    for i, chunk in enumerate(chunks):
        suffix = f" ({i + 1}/{len(chunks)})" if len(chunks) > 1 else ""
        fig = new_page(title + suffix)
        ax = fig.add_axes((LEFT, BOTTOM + 0.06, RIGHT - LEFT, TOP - BOTTOM - 0.08))
        draw_table(ax, chunk, widths, fontsize=fontsize)
        if note:
            fig.text(LEFT, BOTTOM - 0.01, wrap(note, 175), fontsize=7.5, va="bottom", color="0.25")
        figs.append(fig)
    return figs


def interval_plot(
    ax: plt.Axes,
    labels: Sequence[str],
    estimate: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    ylabel: str,
    title: str | None = None,
    color: str = "C0",
    reference: float | None = None,
    reference_label: str | None = None,
    offset: float = 0.0,
    label: str | None = None,
) -> None:
    """Point estimates with their confidence intervals as error bars, one per category on the x axis."""
    x = np.arange(len(labels)) + offset
    est = np.asarray(estimate, dtype=float)
    lo = np.asarray(low, dtype=float)
    hi = np.asarray(high, dtype=float)
    # Clip rounding noise (an interval end a hair on the wrong side of its estimate) and missing ends.
    yerr = np.clip(np.vstack([np.where(np.isnan(lo), 0, est - lo), np.where(np.isnan(hi), 0, hi - est)]), 0, None)
    yerr = np.nan_to_num(yerr)
    ax.errorbar(x, est, yerr=yerr, fmt="o", color=color, capsize=3, markersize=4, label=label)
    if reference is not None:
        ax.axhline(reference, color="0.4", linestyle="--", linewidth=1, label=reference_label)
    ax.set_xticks(np.arange(len(labels)))
    # Half a slot of room at both ends so no interval sits on the frame.
    ax.set_xlim(-0.5, len(labels) - 0.5)
    # Turn the labels upright when they would not fit side by side (about 0.3 inch per short variant id).
    width_in = ax.get_position().width * ax.figure.get_figwidth()
    crowded = len(labels) * 0.3 > width_in
    ax.set_xticklabels(labels, rotation=90 if crowded else 0, fontsize=7 if crowded else 8)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)


def close(figs: Sequence[Figure]) -> None:
    """Free figures that were not written."""
    for fig in figs:
        plt.close(fig)
