"""Draw the PDF report of a stored sweep from its results set: :func:`build_report`.

Order of the report: the answer (the question and the headline findings with their intervals), what was run (the
variants, games, seed, versions and every rule assumption in force), a one-page summary of what changed most versus
the baseline, how far the players can be trusted (challengers, skill trace, each measure under each line-up), the
seat-balance pages, the game's own pages (its registry entry's ``pages``), the solved variants, and
the full variant-vs-baseline comparison. Every figure comes from the results set (:func:`trustme_analysis.results.load`
computes it once and stores it under ``OUTDIR/stats/``); no page computes a statistic.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from trustme_analysis import results  # noqa: E402
from trustme_analysis.atomic import atomic_path  # noqa: E402
from trustme_analysis.outdir import REPORT, SOLVE  # noqa: E402
from trustme_analysis.registry import find_game  # noqa: E402
from trustme_analysis.report import checks_pages, front, generic  # noqa: E402
from trustme_analysis.report.context import Report  # noqa: E402
from trustme_analysis.report.layout import RC  # noqa: E402

SECTIONS = ("answer", "front", "summary", "checks", "balance", "game", "solve", "comparisons")


def build_report(outdir: str | Path) -> Path:
    """Draw ``OUTDIR/report.pdf`` from the sweep's results set (computed from the records and stored under
    ``OUTDIR/stats/`` when it is missing or stale); nothing is simulated.

    Returns:
        The path of the PDF.

    Raises:
        FileNotFoundError: ``outdir`` holds no sweep (no manifest, and neither records nor a stored results set).
    """
    outdir = Path(outdir)
    res = results.load(outdir)
    entry = find_game(res.game) if res.game else None
    game_pages = entry.part("pages") if entry is not None else None
    with matplotlib.rc_context(RC):
        ctx = Report(results=res, outdir=outdir)
        front.add_answer_page(ctx)
        front.add_front_pages(ctx)
        front.add_summary_page(ctx)
        checks_pages.add_pages(ctx)
        generic.add_balance_pages(ctx)
        if game_pages is not None:
            game_pages(ctx)
        if (outdir / SOLVE).is_dir():
            # Solved reduced variants of the same spec ([[solve]] sections): their pages follow the game's own.
            from trustme_analysis.report.solve_pages import add_solve_pages

            add_solve_pages(ctx)
        generic.add_comparison_pages(ctx)
        path = outdir / REPORT
        _write_pdf(ctx, path)
    return path


def _write_pdf(ctx: Report, path: Path) -> None:
    ordered = [p for section in SECTIONS for p in ctx.pages if p.section == section]
    total = len(ordered)
    try:
        # No creation date: the same results set gives the same PDF, byte for byte.
        metadata = {"Title": ctx.game_title, "Subject": "Trust Me sweep report", "CreationDate": None}
        with atomic_path(path) as tmp, PdfPages(tmp, metadata=metadata) as pdf:
            for number, page in enumerate(ordered, start=1):
                page.figure.text(0.95, 0.025, f"{ctx.game_title} \u2014 page {number} of {total}", ha="right",
                                 fontsize=7, color="0.4")
                pdf.savefig(page.figure)
                plt.close(page.figure)
    finally:
        for page in ctx.pages:
            plt.close(page.figure)
