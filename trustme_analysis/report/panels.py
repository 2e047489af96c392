"""Table cells and interval panels shared by the games' report pages.

A statistics table here has one row per variant (or per variant and category) and, for each measure ``m``, the
columns ``m``, ``m_low`` and ``m_high`` (the estimate and its 95% interval); these helpers turn such columns into
table cells and into one coloured interval series per measure or category.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from matplotlib.axes import Axes

from trustme_analysis.report.context import Report
from trustme_analysis.report.layout import (BOTTOM, LEFT, RIGHT, draw_table, foot_note, format_frame, interval_plot,
                                            note_lines, rows_that_fit)
from trustme_analysis.report.words import MIN_CELL, axis_words, estimate, missing, rate_cell

#: Rows of a page's table; a longer table is cut (the results set's CSV holds it all).
TABLE_ROWS = 12


def axis_names(ctx: Report, sep: str = ", ") -> dict[str, str]:
    """Each variant of the report in short words for an axis or a legend: what sets it apart from the other
    variants ("3 players, trained"; see :func:`~trustme_analysis.report.words.axis_words`), not its code."""
    return axis_words({v: ctx.results.variant_label(v) for v in ctx.variant_ids}, sep)


def ci(est: float, low: float, high: float, digits: int = 3) -> str:
    """``est [low, high]`` for a table cell with three significant digits (``digits`` is kept for callers of the
    older form and ignored); the dash when there is no estimate."""
    return estimate(est, low, high, "", with_unit=False)


def pct(est: float, low: float, high: float) -> str:
    """A share as ``est% [low%, high%]`` for a table cell (the dash when there is no estimate)."""
    return estimate(est, low, high, "share")


def cells(table: pd.DataFrame, prefix: str, fmt=ci, **kwargs) -> list[str]:
    """Table cells of the ``prefix``/``prefix_low``/``prefix_high`` columns."""
    return [fmt(*r, **kwargs) for r in table[[prefix, f"{prefix}_low", f"{prefix}_high"]].to_numpy(dtype=float)]


def share_cells(table: pd.DataFrame, prefix: str, cases) -> list[str]:
    """Cells of a share (``prefix``/``prefix_low``/``prefix_high``) resting on ``cases`` each: the percentage with
    its interval from :data:`~trustme_analysis.report.words.MIN_CELL` cases on, below it the counts ("1 of 2", see
    :func:`~trustme_analysis.report.words.rate_cell`). ``cases``: a column of ``table`` or one number per row; a
    column the table lacks (a results set computed before it existed) leaves every cell a percentage."""
    shares = cells(table, prefix, pct)
    if isinstance(cases, str):
        if cases not in table.columns:
            return shares
        cases = table[cases]
    out = []
    for text, rate, n in zip(shares, table[prefix], list(cases)):
        small = not missing(n) and int(n) < MIN_CELL
        out.append(rate_cell(rate, n) if small else text)
    return out


def small_cell_note(*cases) -> str:
    """The line under a table whose share cells came from :func:`share_cells`, when one of them is shown as counts
    (any of the ``cases`` below :data:`~trustme_analysis.report.words.MIN_CELL`); else the empty string."""
    for col in cases:
        if any(not missing(n) and int(n) < MIN_CELL for n in list(col)):
            return f"A share of fewer than {MIN_CELL} cases is shown as its counts (e.g. 3 of 8)."
    return ""


def grouped_intervals(
    ax: Axes,
    variants: Sequence[str],
    table: pd.DataFrame,
    groups: Sequence[tuple[str, str]],
    ylabel: str,
    title: str,
    names: dict[str, str] | None = None,
) -> None:
    """One coloured series per group over the variants; ``groups`` are ``(column prefix, label)`` of a table with
    one row per variant and ``prefix``/``prefix_low``/``prefix_high`` columns. ``names``: the variants' words for
    the ticks (:func:`axis_names`)."""
    k = len(groups)
    for i, (col, label) in enumerate(groups):
        sub = table.set_index("variant").reindex(variants)
        interval_plot(ax, list(variants), sub[col], sub[f"{col}_low"], sub[f"{col}_high"], ylabel, color=f"C{i}",
                      offset=(i - (k - 1) / 2) * min(0.15, 0.8 / k), label=label, names=names)
    ax.set_xlabel("variant")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=7)


def by_category(
    ax: Axes, variants: Sequence[str], table: pd.DataFrame, category: str, categories: Sequence, labels: Sequence[str],
    col: str, ylabel: str, title: str, names: dict[str, str] | None = None,
) -> None:
    """One coloured series per category value (rows of a long table) over the variants; ``names``: the variants'
    words for the ticks (:func:`axis_names`)."""
    k = len(categories)
    for i, (value, label) in enumerate(zip(categories, labels)):
        sub = table[table[category] == value].set_index("variant").reindex(variants)
        interval_plot(ax, list(variants), sub[col], sub[f"{col}_low"], sub[f"{col}_high"], ylabel, color=f"C{i}",
                      offset=(i - (k - 1) / 2) * min(0.15, 0.8 / k), label=label, names=names)
    ax.set_xlabel("variant")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=7)


def page_table(ctx: Report, fig, table: pd.DataFrame, title: str, widths: Sequence[float],
               height: float = 0.33, fontsize: float = 7.0, findings: Sequence[str] = (), front: int = 1,
               source: str | None = None, note: str = "") -> None:
    """Draw the first rows of ``table`` at the foot of ``fig`` and keep the page (opening with ``findings``); a
    longer table is cut there, and the page names the results set's CSV (``stats/<source>.csv``) that holds it all.
    ``note``: what else the line under the table says (it starts it)."""
    where = f"stats/{source}.csv" if source else "the results set (stats/)"

    def line_under(shown: int) -> str:
        cut = ""
        if len(table) > shown:
            cut = f"The first {shown} of {len(table)} rows" + ("." if where in note else f"; every row is in {where}.")
        return " ".join(x for x in (note, cut) if x)

    box = (LEFT, BOTTOM + 0.01, RIGHT - LEFT, height)
    widths = list(widths)[: len(table.columns)]
    # As many rows as fit at their full height above the line under the table, once the findings push it down.
    fits = rows_that_fit(box, format_frame(table.head(TABLE_ROWS)), widths, fontsize, findings=findings,
                         note_lines=note_lines(line_under(0)))
    shown = table.head(min(TABLE_ROWS, fits))
    tax = fig.add_axes(box)
    draw_table(tax, format_frame(shown), widths=widths, fontsize=fontsize)
    if line_under(len(shown)):
        foot_note(fig, line_under(len(shown)))
    ctx.add(fig, title, "game", findings=findings, front=front)
