"""Tables on report pages: each row as tall as its most wrapped cell, no cell's text running into another row or into
the note under the table, measured on the drawn PDF page (the text extents the PDF renderer gives)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import pandas as pd
import pytest

from trustme_analysis.report import layout
from trustme_analysis.report.layout import BOTTOM, LEFT, RIGHT, add_findings, draw_table, foot_note, new_page

VERDICT = "no evidence of a seat effect; these games see only a seat edge of 12 points or more (80% power)"
WIDTHS = [0.8, 0.8, 0.8, 1, 0.8, 0.8, 2.2, 3]
#: Three findings of two lines each, as on the seat-balance page: they squeeze the page's content down.
FINDINGS = ["Seat 0 wins 41% [34%, 49%] of 150 games in v08 (peek yes, payoff mix 6/4/4/2, line-up heuristic): in "
            "line with its fair 36%. No evidence that any seat wins more often (test of equal seats, Holm-corrected "
            f"over the variants: p = 1.0); 150 games detect a seat edge only from 12 points on ({i}0% power)."
            for i in (7, 8, 9)]


def seat_table(rows: int = 12) -> pd.DataFrame:
    return pd.DataFrame({
        "variant": [f"v{i:02d}" for i in range(rows)],
        "players": ["3"] * rows,
        "games": ["150"] * rows,
        "chi-square": ["1.12"] * rows,
        "p-value": ["0.57"] * rows,
        "Holm p-value": ["1.0"] * rows,
        "first seat advantage (win rate - fair rate)": ["+4 pp"] * rows,
        "verdict": [VERDICT] * rows,
    })


@dataclass
class Drawn:
    """Extents (points from the page's foot) of what a page drew: per table, each row's cells and its texts; the
    notes under the content."""

    rows: list[list[tuple[tuple[float, float], tuple[float, float]]]] = field(default_factory=list)
    notes: list[tuple[float, float]] = field(default_factory=list)
    sizes: list[float] = field(default_factory=list)


def drawn(fig) -> Drawn:
    """Write ``fig`` as a PDF page and measure it while it is drawn (the PDF renderer's extents, 72 per inch)."""
    out = Drawn()

    def measure(event) -> None:
        renderer = event.renderer
        for ax in fig.axes:
            for table in ax.tables:
                rows: dict[int, list] = {}
                for (r, _c), cell in table.get_celld().items():
                    box = cell.get_window_extent(renderer)
                    text = cell.get_text().get_window_extent(renderer)
                    rows.setdefault(r, []).append(((box.y0, box.y1), (text.y0, text.y1)))
                    out.sizes.append(cell.get_text().get_fontsize())
                out.rows.append([rows[r] for r in sorted(rows)])
        for text in fig.texts:
            if text.get_gid() == "footnote":
                box = text.get_window_extent(renderer)
                out.notes.append((box.y0, box.y1))

    fig.canvas.mpl_connect("draw_event", measure)
    fig.savefig(io.BytesIO(), format="pdf")
    assert out.rows, "no table drawn"
    return out


def assert_no_overlap(page: Drawn) -> None:
    for rows in page.rows:
        spans = []
        for r, cells in enumerate(rows):
            cell_low, cell_high = min(c[0][0] for c in cells), max(c[0][1] for c in cells)
            text_low, text_high = min(c[1][0] for c in cells), max(c[1][1] for c in cells)
            # Each cell's text within its row (half a point for rounding).
            assert text_low >= cell_low - 0.5 and text_high <= cell_high + 0.5, (
                f"row {r}: text {text_low:.1f}-{text_high:.1f} runs out of its row {cell_low:.1f}-{cell_high:.1f}")
            spans.append((text_low, text_high))
        for r, ((low, _), (_, next_high)) in enumerate(zip(spans, spans[1:])):
            assert next_high <= low, f"the text of row {r + 1} runs into row {r}'s"
        bottom = min(c[0][0] for cells in rows for c in cells)
        bottom_text = min(c[1][0] for cells in rows for c in cells)
        for low, high in page.notes:
            assert high <= min(bottom, bottom_text), (
                f"the note ({low:.1f}-{high:.1f}) runs into the table ({bottom:.1f})")


def test_many_wrapped_rows_never_overlap_each_other_or_the_note():
    # The seat-balance page with 12 variants: two-line verdicts in a third of a page squeezed by three findings.
    fig = new_page("Seat balance: win rate per seat")
    ax = fig.add_axes((LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30))
    draw_table(ax, seat_table(12), widths=WIDTHS)
    foot_note(fig, "The first 12 of 16 variants; all are on the next pages and in stats/equal_seats_test.csv.")
    add_findings(fig, FINDINGS)
    assert_no_overlap(drawn(fig))


def test_the_rows_that_fit_are_drawn_at_full_size_with_the_note_below():
    box = (LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30)
    table = seat_table(12)
    fits = layout.rows_that_fit(box, table, WIDTHS, findings=FINDINGS)
    assert 1 <= fits < 12
    fig = new_page("Seat balance: win rate per seat")
    ax = fig.add_axes(box)
    assert draw_table(ax, table.head(fits), widths=WIDTHS) == fits
    foot_note(fig, f"The first {fits} of 16 variants; all are on the next pages and in stats/equal_seats_test.csv.")
    add_findings(fig, FINDINGS)
    page = drawn(fig)
    assert_no_overlap(page)
    assert len(page.rows[0]) == fits + 1
    # Nothing shrunk to make them fit.
    assert set(page.sizes) == {7.5}
    # One more row would not have fitted at full size.
    fig = new_page("Seat balance: win rate per seat")
    ax = fig.add_axes(box)
    draw_table(ax, table.head(fits + 1), widths=WIDTHS)
    foot_note(fig, "The first 6 of 16 variants; all are on the next pages and in stats/equal_seats_test.csv.")
    add_findings(fig, FINDINGS)
    page = drawn(fig)
    assert_no_overlap(page)
    assert min(page.sizes) < 7.5


@dataclass
class _Report:
    """What :func:`~trustme_analysis.report.panels.page_table` needs of a report: keep the page (opening with its
    findings)."""

    pages: list = field(default_factory=list)

    def add(self, fig, title, section="game", findings=(), front=0, **_):
        add_findings(fig, findings)
        self.pages.append(fig)


@pytest.mark.parametrize("findings", [FINDINGS[:1], FINDINGS, []])
def test_a_game_page_table_keeps_its_note_clear(findings):
    # The 1981 "Investing rounds" page: 24 rows of which the page shows the first ones, and the note under them.
    from trustme_analysis.report.panels import TABLE_ROWS, page_table

    rows = 24
    table = pd.DataFrame({
        "variant": [f"v{i // 3:02d}" for i in range(rows)],
        "investor": ["looked", "not looked", "own claim"] * (rows // 3),
        "decisions": [2883.0] * rows,
        "decisions per game [95%]": ["1.44 [1.39, 1.49]"] * rows,
        "shares bought per decision [95%]": ["602 [535, 679]"] * rows,
        "shares divested per decision [95%]": ["328 [281, 377]"] * rows,
        "shares bought / divested in all": ["1,734,900 / 944,960"] * rows,
    })
    ctx = _Report()
    fig = new_page("Investing rounds: shares bought and divested by what the investor had seen")
    page_table(ctx, fig, table, "Investing rounds", widths=[0.8, 1, 1, 1.6, 1.7, 1.7, 1.7], findings=findings,
               source="investing")
    page = drawn(ctx.pages[0])
    assert_no_overlap(page)
    assert set(page.sizes) == {7.0}
    shown = len(page.rows[0]) - 1
    assert 1 <= shown <= TABLE_ROWS
    note = [t.get_text() for t in ctx.pages[0].texts if t.get_gid() == "footnote"]
    assert note == [f"The first {shown} of {rows} rows; every row is in stats/investing.csv."]
