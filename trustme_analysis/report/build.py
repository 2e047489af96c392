"""Build the PDF report and the statistics CSV files of a stored sweep: :func:`build_report`.

Order of the report: the front pages (question, variants, games, seed, versions, every rule assumption in force), a
one-page summary of what changed most versus the baseline, the seat-balance pages, the game's own pages (from its
``GamePlugin.pages``), and the full variant-vs-baseline comparison.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from trustme_analysis.atomic import atomic_path  # noqa: E402
from trustme_analysis.report import front, generic  # noqa: E402
from trustme_analysis.report.context import ReportContext  # noqa: E402
from trustme_analysis.report.layout import RC  # noqa: E402
from trustme_analysis.stats.balance import games_table  # noqa: E402
from trustme_analysis.outdir import REPORT, STATS, load_manifest, load_records  # noqa: E402
from trustme_analysis.registry import find_game  # noqa: E402

SECTIONS = ("front", "summary", "balance", "game", "solve", "comparisons")


def build_report(outdir: str | Path) -> Path:
    """Compute the statistics of the sweep stored in ``outdir`` and write ``OUTDIR/report.pdf`` and
    ``OUTDIR/stats/*.csv``; nothing is simulated.

    Returns:
        The path of the PDF.

    Raises:
        FileNotFoundError: ``outdir`` holds no sweep (no manifest or no records).
        ValueError: the sweep's game has no plug-in.
    """
    outdir = Path(outdir)
    manifest = load_manifest(outdir)
    records = load_records(outdir)
    entry = find_game(manifest["game"]) if manifest.get("game") else None
    pages = entry.part("pages") if entry is not None else None
    # Bootstrap intervals draw from a generator seeded by the sweep's own seed, so rebuilding gives the same report.
    rng = np.random.default_rng([int(manifest.get("seed", 0)), 0x5EED])
    with matplotlib.rc_context(RC):
        ctx = ReportContext(
            outdir=outdir,
            manifest=manifest,
            records=records,
            games=games_table(records),
            rng=rng,
            stats_dir=outdir / STATS,
        )
        generic.set_default_comparisons(ctx)
        generic.add_balance_pages(ctx)
        if pages is not None:
            pages(ctx)
        if (outdir / "solve").is_dir():
            # Solved reduced variants of the same spec ([[solve]] sections): their pages follow the game's own.
            from trustme_analysis.report.solve_pages import add_solve_pages

            add_solve_pages(ctx)
        comparisons = generic.add_comparison_pages(ctx)
        front.add_summary_page(ctx, comparisons)
        front.add_front_pages(ctx)
        path = outdir / REPORT
        _write_pdf(ctx, path)
    return path


def _write_pdf(ctx: ReportContext, path: Path) -> None:
    ordered = [p for section in SECTIONS for p in ctx.pages if p.section == section]
    total = len(ordered)
    try:
        with atomic_path(path) as tmp, PdfPages(tmp, metadata={"Title": ctx.game_title,
                                                               "Subject": "Trust Me sweep report"}) as pdf:
            for number, page in enumerate(ordered, start=1):
                page.figure.text(0.95, 0.025, f"{ctx.game_title} \u2014 page {number} of {total}", ha="right",
                                 fontsize=7, color="0.4")
                pdf.savefig(page.figure)
                plt.close(page.figure)
    finally:
        for page in ctx.pages:
            plt.close(page.figure)
