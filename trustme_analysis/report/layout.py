"""Page layout helpers for the PDF report: A4 landscape pages, flowing text, paginated tables, interval plots.

Everything is drawn with matplotlib's Agg backend and written through ``PdfPages``. Fonts are embedded as TrueType
(``pdf.fonttype`` 42) so the report's text can be searched and extracted.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

from trustme_analysis.report.words import (  # noqa: E402
    DASH,
    UNDEFINED_NOTE,
    count,
    missing,
    number,
    p_value,
    yes_no,
)

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
    fig.text(LEFT, 0.955, plain(shorten(title, int(78 * 15.0 / size))), fontsize=size, fontweight="bold", va="top",
             gid="title")
    if subtitle:
        # At most two lines, so the subtitle never runs into the plots below it.
        lines = textwrap.wrap(subtitle, 175)
        text = "\n".join(lines[:2]) + ("\u2026" if len(lines) > 2 else "")
        fig.text(LEFT, SUBTITLE_Y, plain(text), fontsize=8.5, va="top", color="0.3", gid="subtitle")
    return fig


#: Where a page's subtitle (how to read it) starts; findings, when a page has them, come first and push it down.
SUBTITLE_Y = 0.918
#: Characters of a findings line (9 pt, indented under its bullet).
FINDINGS_CHARS = 165
#: Content is squeezed toward this height (figure fraction) to make room for findings; notes and footers stay below.
_SQUEEZE_FLOOR = BOTTOM
#: Where a page's notes under its content sit (above the foot: page number, variant key, the dash's note).
NOTE_Y = BOTTOM - 0.007


def foot_note(fig: Figure, text: str, x: float = LEFT, fontsize: float = 7.5) -> None:
    """A note under the page's content ("the first 12 of 40 rows; all are in stats/x.csv"), wrapped to the page's
    width (a long note ran off the page); a second note goes above the first."""
    taken = sum(t.get_text().count("\n") + 1 for t in fig.texts if t.get_gid() == "footnote")
    # The findings band's width in characters, scaled to the note's smaller font (a few spare for wide letters).
    width = int(FINDINGS_CHARS * BODY_FONT / fontsize) - 5
    fig.text(x, NOTE_Y + taken * 0.016 * fontsize / 7.5, "\n".join(textwrap.wrap(plain(text), width)),
             fontsize=fontsize, va="bottom", color="0.25", gid="footnote", linespacing=1.2)


def add_findings(fig: Figure, sentences: Sequence[str]) -> None:
    """Open the page with its findings: the sentences, in a shaded band under the title; the subtitle and everything
    drawn below move down (squeezed toward the foot of the page) to make room."""
    sentences = [s for s in sentences if s]
    if not sentences:
        return
    rows: list[str] = []
    for sentence in sentences:
        wrapped = textwrap.wrap(sentence, FINDINGS_CHARS) or [""]
        rows += ["\u2022 " + wrapped[0]] + ["   " + w for w in wrapped[1:]]
    line = BODY_FONT * 1.38 / (PAGE_SIZE[1] * 72.0)
    band = len(rows) * line + 0.012
    top = SUBTITLE_Y + 0.004
    shift = band + 0.008
    old_top = TOP
    # A little more room than the band itself: axes titles stand above their axes, under the (moved) subtitle.
    scale = (old_top - shift - 0.02 - _SQUEEZE_FLOOR) / (old_top - _SQUEEZE_FLOOR)

    def squeeze(y: float) -> float:
        return _SQUEEZE_FLOOR + (y - _SQUEEZE_FLOOR) * scale

    for ax in fig.axes:
        box = ax.get_position()
        if box.y1 <= _SQUEEZE_FLOOR:
            continue
        y0, y1 = squeeze(max(box.y0, _SQUEEZE_FLOOR)), squeeze(min(box.y1, old_top + 0.02))
        ax.set_position((box.x0, y0, box.width, max(y1 - y0, 0.01)))
    for text in fig.texts:
        x, y = text.get_position()
        if text.get_gid() == "title":
            continue
        if text.get_gid() == "subtitle":
            text.set_position((x, y - shift))
        elif _SQUEEZE_FLOOR < y <= old_top + 0.02:
            text.set_position((x, squeeze(y)))
    fig.add_artist(Rectangle((LEFT - 0.006, top - band), RIGHT - LEFT + 0.012, band, transform=fig.transFigure,
                             facecolor="#e9f0f8", edgecolor="none", zorder=-1))
    fig.text(LEFT, top - 0.006, plain("\n".join(rows)), fontsize=BODY_FONT, va="top", linespacing=1.38, gid="findings")


def has_undefined(fig: Figure) -> bool:
    """Whether any text on ``fig`` (table cells included) shows the undefined-figure dash."""
    texts = [t.get_text() for t in fig.findobj(Text)]
    # Table cells keep their text out of the artist tree that findobj walks.
    texts += [cell.get_text().get_text() for ax in fig.axes for table in ax.tables
              for cell in table.get_celld().values()]
    return any(DASH in t for t in texts)


def add_footer(fig: Figure, right: str, key: str | None = None) -> None:
    """The foot of a page: ``right`` (page number) at the right; the variant key (what the codes v00, ... mean) and
    the note on the undefined-figure dash, when the page shows one, at the left."""
    fig.text(RIGHT, 0.015, plain(right), ha="right", va="bottom", fontsize=7, color="0.4")
    lines: list[str] = []
    if has_undefined(fig):
        lines += textwrap.wrap(UNDEFINED_NOTE, 110)
    if key:
        # Narrow enough to leave the page number its room at the right.
        wrapped = textwrap.wrap(key, 110)
        lines += wrapped[:2]
        if len(wrapped) > 2:
            lines[-1] = shorten(lines[-1], 80) + " \u2026 (all: the page \"What was run\")"
    if lines:
        fig.text(LEFT, 0.015, plain("\n".join(lines)), ha="left", va="bottom", fontsize=6.8, color="0.3", linespacing=1.3)


_DOLLAR = re.compile(r"(?<!\\)\$")


def plain(text: str) -> str:
    """``text`` as it reads: dollar signs escaped, so that "$10 and $5" is not taken for a formula."""
    return _DOLLAR.sub(r"\\$", str(text))


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters with an ellipsis (only for one-line captions; tables wrap instead)."""
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def wrap(text: str, width: int) -> str:
    """``text`` wrapped to lines of at most ``width`` characters (explicit newlines kept)."""
    return "\n".join(textwrap.fill(part, width) if part else "" for part in str(text).split("\n"))


@dataclass
class Line:
    """One line of flowing text: its text, style (``"h1"``, ``"h2"``, ``"body"``, ``"mono"``) and an optional
    bookmark (the PDF outline points at the page the line lands on)."""

    text: str
    style: str = "body"
    bookmark: str | None = None


STYLES = {
    "h1": {"fontsize": 12.5, "fontweight": "bold", "gap": 2.0},
    "h2": {"fontsize": 10.5, "fontweight": "bold", "gap": 1.6},
    "body": {"fontsize": BODY_FONT, "fontweight": "normal", "gap": 1.3},
    "mono": {"fontsize": 8.0, "fontweight": "normal", "gap": 1.3, "family": "monospace"},
    "small": {"fontsize": 8.0, "fontweight": "normal", "gap": 1.25},
}


def text_lines(text: str, style: str = "body", indent: int = 0, width: int = LINE_CHARS) -> list[Line]:
    """``text`` wrapped into :class:`Line` objects of one style, indented by ``indent`` spaces after the first."""
    if style == "mono":
        width = int(width * 0.9)
    elif style == "small":
        width = int(width * BODY_FONT / STYLES["small"]["fontsize"])
    lines = textwrap.wrap(str(text), width=width - indent, subsequent_indent=" " * indent) or [""]
    return [Line(line, style) for line in lines]


#: How far past one page a text may run and still be set on one page (its line spacing closed up).
SQUEEZE_LIMIT = 1.08


def page_fill(lines: Sequence[Line]) -> float:
    """The share of one page's text area that ``lines`` take at normal spacing; up to :data:`SQUEEZE_LIMIT`,
    :func:`flow_pages` still sets them on one page."""
    points_per_fig = PAGE_SIZE[1] * 72.0
    total = sum(STYLES[line.style]["fontsize"] * STYLES[line.style]["gap"] for line in lines) / points_per_fig
    return total / (TOP - BOTTOM)


def flow_pages(title: str, lines: Sequence[Line], continued: str = " (continued)",
               bookmarks: dict[int, list[str]] | None = None) -> list[Figure]:
    """Render flowing text onto as many pages as it needs; each further page repeats the title. The bookmarks of the
    lines are collected in ``bookmarks`` (page index -> bookmark labels) when it is given."""
    pages: list[Figure] = []
    fig = new_page(title)
    y = TOP
    points_per_fig = PAGE_SIZE[1] * 72.0
    total = sum(STYLES[line.style]["fontsize"] * STYLES[line.style]["gap"] for line in lines) / points_per_fig
    # A text a few lines too long for one page closes up its line spacing instead of spilling a line or two over.
    squeeze = (TOP - BOTTOM) / total if TOP - BOTTOM < total <= SQUEEZE_LIMIT * (TOP - BOTTOM) else 1.0
    for line in lines:
        st = STYLES[line.style]
        step = st["fontsize"] * st["gap"] * squeeze / points_per_fig
        if y - step < BOTTOM - 1e-9:  # (a squeezed text ends at BOTTOM itself, up to rounding)
            pages.append(fig)
            fig = new_page(title + continued)
            y = TOP
        y -= step
        if line.bookmark and bookmarks is not None:
            bookmarks.setdefault(len(pages), []).append(line.bookmark)
        kwargs = {"fontsize": st["fontsize"], "fontweight": st["fontweight"]}
        if "family" in st:
            kwargs["family"] = st["family"]
        fig.text(LEFT, y, plain(line.text), va="bottom", **kwargs)
    pages.append(fig)
    return pages


def _format(value: object, digits: int) -> str:
    if isinstance(value, (bool, np.bool_)):
        return yes_no(value)
    if isinstance(value, (int, np.integer)):
        return count(value)
    if isinstance(value, (float, np.floating)):
        return number(value, digits=digits)
    if isinstance(value, str):
        return DASH if value in ("nan", "None") else value
    return DASH if missing(value) else str(value)


def format_p(p: float) -> str:
    """A p-value for display (see :func:`trustme_analysis.report.words.p_value`)."""
    return p_value(p)


def format_frame(df: pd.DataFrame, digits: int | dict[str, int] = 3) -> pd.DataFrame:
    """A copy of ``df`` with every cell as display text (at most ``digits`` significant digits, an undefined figure
    as the dash, booleans as yes/no)."""
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
    # Bold header text runs wider than the cells' text.
    header = [plain(wrap(c, max(4, int(wc * 0.85)))) for c, wc in zip(df.columns, wrap_chars)]
    cells = [[plain(wrap(v, wc)) for v, wc in zip(row, wrap_chars)] for row in df.astype(str).to_numpy().tolist()]
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
    # At most about 13 points per line of text, so a short table does not stretch over the whole axes.
    most = 0.022 / max(ax.get_position().height, 0.01)
    line_height = min(most, 1.0 / max(total_lines + pad * len(lines_per_row), 1))
    for (r, _c), cell in table.get_celld().items():
        cell.set_height(line_height * (lines_per_row[r] + pad))
        cell.PAD = 0.02
        if r == 0:
            cell.set_text_props(fontweight="bold")
            cell.set_facecolor("0.9")
        cell.set_edgecolor("0.7")


#: The axes of a table page (figure fractions).
TABLE_BOX = (LEFT, BOTTOM + 0.06, RIGHT - LEFT, TOP - BOTTOM - 0.08)


def _row_lines(df: pd.DataFrame, widths: Sequence[float] | None, fontsize: float) -> tuple[int, list[int]]:
    """Lines of the header and of each row once wrapped as :func:`draw_table` wraps them on a full-width table."""
    ncol = len(df.columns)
    widths = list(widths)[:ncol] if widths is not None else [1.0] * ncol
    widths += [1.0] * (ncol - len(widths))
    total = float(sum(widths)) or 1.0
    chars = [max(4, int(w / total * 175 * 7.5 / fontsize)) for w in widths]
    header = max((wrap(c, max(4, int(wc * 0.85))).count("\n") + 1 for c, wc in zip(df.columns, chars)), default=1)
    rows = [max((wrap(v, wc).count("\n") + 1 for v, wc in zip(row, chars)), default=1)
            for row in df.astype(str).to_numpy().tolist()]
    return header, rows


def _max_lines(fontsize: float) -> float:
    # Lines of ``fontsize`` text (with the cells' padding) that fit in the table box of a page.
    return TABLE_BOX[3] * PAGE_SIZE[1] * 72.0 / (fontsize * 1.6)


def fit_rows(df: pd.DataFrame, widths: Sequence[float] | None = None, fontsize: float = 7.5) -> int:
    """How many of ``df``'s first rows fit on one table page."""
    header, rows = _row_lines(df, widths, fontsize)
    room = _max_lines(fontsize) - header - 0.25
    used, n = 0.0, 0
    for lines in rows:
        if used + lines + 0.25 > room:
            break
        used += lines + 0.25
        n += 1
    return max(n, 1) if rows else 0


def table_pages(
    title: str,
    df: pd.DataFrame,
    widths: Sequence[float] | None = None,
    rows_per_page: int = 26,
    note: str | None = None,
    fontsize: float = 7.5,
) -> list[Figure]:
    """A (display-formatted) table on as many pages as it needs (at most ``rows_per_page`` rows, and no more wrapped
    lines than a page holds), with an optional note under it on each page."""
    figs: list[Figure] = []
    chunks: list[pd.DataFrame] = []
    start = 0
    while start < len(df):
        n = min(rows_per_page, fit_rows(df.iloc[start:], widths, fontsize))
        chunks.append(df.iloc[start : start + n])
        start += n
    chunks = chunks or [df]
    for i, chunk in enumerate(chunks):
        suffix = f" ({i + 1}/{len(chunks)})" if len(chunks) > 1 else ""
        fig = new_page(title + suffix)
        ax = fig.add_axes(TABLE_BOX)
        draw_table(ax, chunk, widths, fontsize=fontsize)
        if note:
            fig.text(LEFT, NOTE_Y, plain(wrap(note, 175)), fontsize=7.5, va="bottom", color="0.25", gid="footnote")
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
    percent: bool | None = None,
) -> None:
    """Point estimates with their confidence intervals as error bars, one per category on the x axis; shares
    (``percent``, by default when ``ylabel`` names a share or a rate) are labelled in percent."""
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
    if percent is None:
        percent = shows_shares(ylabel)
    if percent:
        percent_axis(ax)
    if title:
        ax.set_title(title)


_SHARE_WORDS = re.compile(r"\b(share|rate|probability)\b", re.IGNORECASE)


def shows_shares(label: str) -> bool:
    """Whether an axis labelled ``label`` shows shares (drawn as percentages): "share of games", "win rate"..."""
    return bool(_SHARE_WORDS.search(label or ""))


def percent_axis(ax: plt.Axes, axis: str = "y") -> None:
    """Label the ``axis`` of ``ax`` in percent (its data are shares between 0 and 1)."""
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(xmax=1.0, decimals=None))


def close(figs: Sequence[Figure]) -> None:
    """Free figures that were not written."""
    for fig in figs:
        plt.close(fig)
