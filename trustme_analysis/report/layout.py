"""Page layout helpers for the PDF report: A4 landscape pages, flowing text, paginated tables, interval plots.

Everything is drawn with matplotlib's Agg backend and written through ``PdfPages``. Fonts are embedded as TrueType
(``pdf.fonttype`` 42) so the report's text can be searched and extracted.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.table import Table  # noqa: E402
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


def _note_wrapped(text: str, fontsize: float = 7.5) -> list[str]:
    # The findings band's width in characters, scaled to the note's smaller font (a few spare for wide letters).
    return textwrap.wrap(plain(text), int(FINDINGS_CHARS * BODY_FONT / fontsize) - 5)


def note_lines(text: str, fontsize: float = 7.5) -> int:
    """The lines :func:`foot_note` sets ``text`` on (0 for none)."""
    return len(_note_wrapped(text, fontsize)) if text else 0


def foot_note(fig: Figure, text: str, x: float = LEFT, fontsize: float = 7.5) -> None:
    """A note under the page's content ("the first 12 of 40 rows; all are in stats/x.csv"), wrapped to the page's
    width (a long note ran off the page); a second note goes above the first."""
    taken = sum(t.get_text().count("\n") + 1 for t in fig.texts if t.get_gid() == "footnote")
    fig.text(x, NOTE_Y + taken * 0.016 * fontsize / 7.5, "\n".join(_note_wrapped(text, fontsize)),
             fontsize=fontsize, va="bottom", color="0.25", gid="footnote", linespacing=1.2)


def _findings_rows(sentences: Sequence[str]) -> list[str]:
    # The findings band's lines: each sentence wrapped under its bullet.
    rows: list[str] = []
    for sentence in (s for s in sentences if s):
        wrapped = textwrap.wrap(sentence, FINDINGS_CHARS) or [""]
        rows += ["\u2022 " + wrapped[0]] + ["   " + w for w in wrapped[1:]]
    return rows


def _findings_band(rows: Sequence[str]) -> tuple[float, float, float]:
    # The band's height, how far it pushes the subtitle down, and the scale the content under it is squeezed by.
    line = BODY_FONT * 1.38 / (PAGE_SIZE[1] * 72.0)
    band = len(rows) * line + 0.012
    shift = band + 0.008
    # A little more room than the band itself: axes titles stand above their axes, under the (moved) subtitle.
    scale = (TOP - shift - 0.02 - _SQUEEZE_FLOOR) / (TOP - _SQUEEZE_FLOOR)
    return band, shift, scale


def _squeeze_box(box: Sequence[float], scale: float) -> tuple[float, float, float, float]:
    # An axes box (x0, y0, width, height in figure fractions) once squeezed toward the foot by ``scale``.
    x0, y0, width, height = box
    if y0 + height <= _SQUEEZE_FLOOR:
        return x0, y0, width, height
    low = _SQUEEZE_FLOOR + (max(y0, _SQUEEZE_FLOOR) - _SQUEEZE_FLOOR) * scale
    high = _SQUEEZE_FLOOR + (min(y0 + height, TOP + 0.02) - _SQUEEZE_FLOOR) * scale
    return x0, low, width, max(high - low, 0.01)


def squeezed_box(box: Sequence[float], findings: Sequence[str] = ()) -> tuple[float, float, float, float]:
    """Where an axes placed at ``box`` (figure fractions) ends up once :func:`add_findings` opens its page with
    ``findings`` (``box`` itself when there are none)."""
    rows = _findings_rows(findings)
    if not rows:
        return tuple(box)
    return _squeeze_box(box, _findings_band(rows)[2])


def add_findings(fig: Figure, sentences: Sequence[str]) -> None:
    """Open the page with its findings: the sentences, in a shaded band under the title; the subtitle and everything
    drawn below move down (squeezed toward the foot of the page) to make room."""
    rows = _findings_rows(sentences)
    if not rows:
        return
    band, shift, scale = _findings_band(rows)
    top = SUBTITLE_Y + 0.004
    old_top = TOP

    def squeeze(y: float) -> float:
        return _SQUEEZE_FLOOR + (y - _SQUEEZE_FLOOR) * scale

    for ax in fig.axes:
        box = ax.get_position()
        if box.y1 <= _SQUEEZE_FLOOR:
            continue
        ax.set_position(_squeeze_box(box.bounds, scale))
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


def page_fill(lines: Sequence[Line], top: float = TOP) -> float:
    """The share of one page's text area (from ``top`` down, when a figure takes the page's head) that ``lines``
    take at normal spacing; up to :data:`SQUEEZE_LIMIT`, :func:`flow_pages` still sets them on one page."""
    points_per_fig = PAGE_SIZE[1] * 72.0
    total = sum(STYLES[line.style]["fontsize"] * STYLES[line.style]["gap"] for line in lines) / points_per_fig
    return total / (top - BOTTOM)


def flow_pages(title: str, lines: Sequence[Line], continued: str = " (continued)",
               bookmarks: dict[int, list[str]] | None = None, first_top: float = TOP) -> list[Figure]:
    """Render flowing text onto as many pages as it needs; each further page repeats the title. The bookmarks of the
    lines are collected in ``bookmarks`` (page index -> bookmark labels) when it is given. ``first_top``: where the
    text starts on the first page (lower than :data:`TOP` leaves room for a figure above it)."""
    pages: list[Figure] = []
    fig = new_page(title)
    y = first_top
    points_per_fig = PAGE_SIZE[1] * 72.0
    total = sum(STYLES[line.style]["fontsize"] * STYLES[line.style]["gap"] for line in lines) / points_per_fig
    # A text a few lines too long for one page closes up its line spacing instead of spilling a line or two over.
    room = first_top - BOTTOM
    squeeze = room / total if room < total <= SQUEEZE_LIMIT * room else 1.0
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


#: The least room a line of table text takes, in multiples of its font size: matplotlib sets lines 1.2 times the size
#: apart (in the PDF two lines of 7.5 pt text stand 18 points tall, three 27), and with a row's padding (below) a row
#: keeps at least 1.5 points above and below its text at 7.5 pt.
TABLE_LINE = 1.3
#: A row's padding (above and below its text together), in lines.
ROW_PAD = 0.25
#: The most a line of a table takes, in figure height (about 13 points), so a short table does not stretch over the
#: whole axes.
_MOST_LINE = 0.022
#: The room (points) kept between a table and a text under it (the page's note).
_TABLE_GAP = 2.0
#: The size of the note under a page's content (:func:`foot_note`).
NOTE_FONT = 7.5


def _table_text(
    df: pd.DataFrame, widths: Sequence[float] | None, fontsize: float, wrap_chars: Sequence[int] | None, span: float,
) -> tuple[list[float], list[list[str]], list[int]]:
    """The column width shares, the wrapped cells (the header first) and the lines of each row (the header first)
    of ``df`` drawn ``span`` of the page's text width wide."""
    ncol = len(df.columns)
    widths = list(widths)[:ncol] if widths is not None else [1.0] * ncol
    widths += [1.0] * (ncol - len(widths))
    total = float(sum(widths)) or 1.0
    widths = [w / total for w in widths]
    if wrap_chars is None:
        # Characters per column from its width share of the axes (about 175 characters of 7.5 pt text per A4 row).
        wrap_chars = [max(4, int(w * 175 * span * 7.5 / fontsize)) for w in widths]
    # Bold header text runs wider than the cells' text.
    header = [plain(wrap(c, max(4, int(wc * 0.85)))) for c, wc in zip(df.columns, wrap_chars)]
    cells = [[plain(wrap(v, wc)) for v, wc in zip(row, wrap_chars)] for row in df.astype(str).to_numpy().tolist()]
    lines = [max((c.count("\n") + 1 for c in row), default=1) for row in [header] + cells]
    return widths, [header] + cells, lines


def text_height(lines: int, fontsize: float) -> float:
    """The height (points) of ``lines`` lines of ``fontsize`` text at matplotlib's line spacing (1.2) in the PDF."""
    return 1.2 * fontsize * lines


class FittedTable(Table):
    """A table whose rows take the height of their wrapped text, laid out when the page is drawn (after the page's
    findings have squeezed its axes): the rows run from the top of the axes down to its foot, or to the top of a text
    of the page under them (the note), whichever is higher. A row is at most ``most`` (a share of the axes' height)
    per line and at least :data:`TABLE_LINE` times the font size per line; where even that does not fit (the caller
    showed more rows than :func:`rows_that_fit` allows), the text is made smaller rather than let run into the next
    row or the note."""

    def __init__(self, ax: plt.Axes, lines: Sequence[int], fontsize: float, most: float) -> None:
        super().__init__(ax, loc="upper left")
        self.row_lines = list(lines)
        self.text_size = fontsize
        self.most = most

    def _update_positions(self, renderer) -> None:
        self.fit(renderer)
        super()._update_positions(renderer)

    def fit(self, renderer) -> None:
        """Set the rows' heights (and, if need be, the text's size) for the room the table has on its page now."""
        ax = self.axes
        box = ax.bbox
        if box.height <= 0 or not self.row_lines:
            return
        points = self.get_figure(root=True).dpi / 72.0
        top = box.y1 - self.AXESPAD * box.height
        left, right = box.x0 + self.AXESPAD * box.width, box.x1
        floor = box.y0
        for text in self.get_figure(root=True).texts:
            if not text.get_visible() or not text.get_text().strip():
                continue
            extent = text.get_window_extent(renderer)
            if extent.x1 <= left or extent.x0 >= right or extent.y0 >= top:
                continue
            if extent.y1 > floor - _TABLE_GAP * points:
                floor = max(floor, extent.y1 + _TABLE_GAP * points)
        units = sum(self.row_lines) + ROW_PAD * len(self.row_lines)
        need = TABLE_LINE * self.text_size * points
        line = min(max(self.most * box.height, need), max(top - floor, 0.0) / units)
        # Never below half the text's own height: a table with no room at all is the caller's mistake, still legible.
        line = max(line, need / 2)
        size = self.text_size * min(1.0, line / need)
        for (r, _c), cell in self.get_celld().items():
            cell.set_height(line * (self.row_lines[r] + ROW_PAD) / box.height)
            cell.get_text().set_fontsize(size)


def draw_table(
    ax: plt.Axes,
    df: pd.DataFrame,
    widths: Sequence[float] | None = None,
    fontsize: float = 7.5,
    wrap_chars: Sequence[int] | None = None,
) -> int:
    """Draw a text table from the top of ``ax`` (axis hidden); cells wrap to ``wrap_chars`` characters per column
    and each row is as tall as its most wrapped cell (see :class:`FittedTable`). Returns the rows drawn (all of
    ``df``'s: :func:`rows_that_fit` says how many to show)."""
    ax.axis("off")
    ax.grid(False)
    span = ax.get_position().width / (RIGHT - LEFT)
    widths, cells, lines = _table_text(df, widths, fontsize, wrap_chars, span)
    most = _MOST_LINE / max(ax.get_position().height, 0.01)
    table = FittedTable(ax, lines, fontsize, most)
    # Until the page is drawn, the heights of the table as it stands (the rows shared out over the axes).
    line = min(most, 1.0 / max(sum(lines) + ROW_PAD * len(lines), 1))
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            cell = table.add_cell(r, c, width=widths[c], height=line * (lines[r] + ROW_PAD), text=text, loc="left")
            cell.PAD = 0.02
            if r == 0:
                cell.set_text_props(fontweight="bold")
                cell.set_facecolor("0.9")
            cell.set_edgecolor("0.7")
    ax.add_table(table)
    table.auto_set_font_size(False)
    table.set_fontsize(fontsize)
    return len(cells) - 1


def rows_that_fit(
    box: Sequence[float],
    df: pd.DataFrame,
    widths: Sequence[float] | None = None,
    fontsize: float = 7.5,
    findings: Sequence[str] = (),
    wrap_chars: Sequence[int] | None = None,
    note_lines: int = 1,
) -> int:
    """How many of ``df``'s first rows :func:`draw_table` shows at their full size in an axes at ``box`` (figure
    fractions), on a page that opens with ``findings`` (they push the content down) and keeps ``note_lines`` lines
    of the note under the content (:func:`foot_note`) clear; at least one row when ``df`` has any."""
    _, y0, width, height = squeezed_box(box, findings)
    _, _, lines = _table_text(df, widths, fontsize, wrap_chars, width / (RIGHT - LEFT))
    page = PAGE_SIZE[1] * 72.0
    top = (y0 + height * (1 - Table.AXESPAD)) * page
    floor = y0 * page
    if note_lines:
        floor = max(floor, NOTE_Y * page + text_height(note_lines, NOTE_FONT) + _TABLE_GAP)
    line = TABLE_LINE * fontsize
    used = (lines[0] + ROW_PAD) * line
    shown = 0
    for n in lines[1:]:
        used += (n + ROW_PAD) * line
        if used > top - floor + 1e-6:
            break
        shown += 1
    return max(shown, 1) if len(lines) > 1 else 0


#: The axes of a table page (figure fractions).
TABLE_BOX = (LEFT, BOTTOM + 0.06, RIGHT - LEFT, TOP - BOTTOM - 0.08)


def _row_lines(df: pd.DataFrame, widths: Sequence[float] | None, fontsize: float) -> tuple[int, list[int]]:
    """Lines of the header and of each row once wrapped as :func:`draw_table` wraps them on a full-width table."""
    _, _, lines = _table_text(df, widths, fontsize, None, 1.0)
    return lines[0], lines[1:]


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
    names: Mapping[str, str] | None = None,
) -> None:
    """Point estimates with their confidence intervals as error bars, one per category on the x axis; shares
    (``percent``, by default when ``ylabel`` names a share or a rate) are labelled in percent. ``names``: the words
    a label stands for (variant codes -> "3 players, trained", see :func:`trustme_analysis.report.words.axis_words`);
    the tick labels show those."""
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
    set_tick_words(ax, [str((names or {}).get(str(x), x)) for x in labels])
    ax.set_ylabel(ylabel)
    if percent is None:
        percent = shows_shares(ylabel)
    if percent:
        percent_axis(ax)
    if title:
        ax.set_title(title)


#: Inches a character of 8 pt tick text takes, on average (DejaVu Sans), and the room kept between two labels.
_TICK_CHAR_IN, _TICK_GAP_IN = 0.062, 0.12


def set_tick_words(ax: plt.Axes, labels: Sequence[str]) -> None:
    """Label the x ticks of ``ax`` with ``labels``, each on lines broken at its commas ("3 players" over "trained");
    a label too wide for its slot wraps onto up to three lines, and when even that does not fit side by side the
    labels stand upright at 7 pt."""
    parts = [str(x).split(", ") for x in labels]
    width_in = ax.get_position().width * ax.figure.get_figwidth()
    slot = width_in / max(len(parts), 1)
    chars = max(int((slot - _TICK_GAP_IN) / _TICK_CHAR_IN), 1)
    wrapped = [[line for part in p for line in (textwrap.wrap(part, chars) or [""])] for p in parts]
    fits = all(len(w) <= 3 and all(len(line) <= chars for line in w) for w in wrapped)
    if fits:
        ax.set_xticklabels(["\n".join(w) for w in wrapped], rotation=0, fontsize=8, linespacing=1.1)
    else:
        ax.set_xticklabels(["\n".join(p) for p in parts], rotation=90, fontsize=7, linespacing=1.0)


#: A variant code as the results set writes it (v00, v13, v104).
VARIANT_CODE = re.compile(r"\bv\d{2,}\b")


def name_variant_axes(fig: Figure, names: Mapping[str, str]) -> None:
    """Put words in place of variant codes on every axis and legend of ``fig``: a tick label or legend entry that
    is exactly a code of ``names`` (variant id -> words, :func:`trustme_analysis.report.words.axis_words`) shows
    the words instead; tables keep their codes."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = [t.get_text() for t in axis.get_ticklabels()]
            if ticks and any(t in names for t in ticks):
                new = [names.get(t, t) for t in ticks]
                if axis is ax.xaxis:
                    set_tick_words(ax, new)
                    if ax.get_xlabel().strip().lower() in ("variant", "variants"):
                        ax.set_xlabel("")  # the words say it, and the label would sit under the upright names
                else:
                    axis.set_ticks(axis.get_ticklocs(), labels=new)
        legend = ax.get_legend()
        if legend is not None:
            for text in legend.get_texts():
                if text.get_text() in names:
                    text.set_text(names[text.get_text()])


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
