"""Draw the PDF report of a stored sweep from its results set: :func:`build_report`.

Order of the report: the answer (the question and the findings that answer it, in sentences with their intervals),
the contents, a one-page summary of what changed most versus the baseline, how far the players can be trusted
(challengers, the skill trace, each measure under each line-up), the seat-balance pages, the game's own
pages (its registry entry's ``pages``), the solved variants, the full variant-vs-baseline comparison, what was run
(the variants, games, seed, versions and every rule assumption in force) and the glossary. Every section opens with
its findings in sentences; the PDF has bookmarks per section, page and variant. Every figure comes from the results
set (:func:`trustme_analysis.results.load` computes it once and stores it under ``OUTDIR/stats/``); no page computes
a statistic.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from trustme_analysis import results  # noqa: E402
from trustme_analysis.outdir import REPORT, SOLVE  # noqa: E402
from trustme_analysis.registry import find_game  # noqa: E402
from trustme_analysis.report import checks_pages, front, generic  # noqa: E402
from trustme_analysis.report.context import KEYED_SECTIONS, SECTIONS, Page, Report  # noqa: E402
from trustme_analysis.report.glossary import glossary_pages  # noqa: E402
from trustme_analysis.report.layout import RC  # noqa: E402
from trustme_analysis.report.pdf import write_pdf  # noqa: E402


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
        try:
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
            front.add_front_pages(ctx)
            ctx.add_all(glossary_pages(), "Glossary", "glossary")
            # Drawn last: the first page repeats the most important finding of the sections above.
            front.add_answer_page(ctx)
        except BaseException:
            from trustme_analysis.report.layout import close

            close([p.figure for p in ctx.pages])
            raise
        ordered = [p for section in SECTIONS for p in ctx.pages if p.section == section]
        names = {"game": f"{entry.label if entry is not None else res.game}: the game's pages"}
        path = outdir / REPORT
        write_pdf(ordered, path, title=ctx.game_title, subject="Trust Me sweep report", key=_key(ctx),
                  section_names=names, contents_after=sum(p.section == "answer" for p in ordered))
    return path


def _key(ctx: Report):
    def key(page: Page) -> str | None:
        if page.variants is None and page.section not in KEYED_SECTIONS:
            return None
        return ctx.variant_key(page.variants)

    return key
