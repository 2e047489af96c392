"""The PDF report built from stored sweep results (``python -m trustme_analysis.report OUTDIR``).

:func:`build_report` draws ``OUTDIR/report.pdf`` from the sweep's results set (:mod:`trustme_analysis.results`,
computed from the stored records when missing or stale); it never simulates.
"""

from __future__ import annotations

from pathlib import Path


def build_report(outdir: str | Path) -> Path:
    """Draw ``OUTDIR/report.pdf`` from the results set of the sweep stored in ``outdir``; returns the PDF path.

    See :func:`trustme_analysis.report.build.build_report`.
    """
    # Imported here so that importing the package stays cheap (matplotlib loads only when a report is built).
    from trustme_analysis.report.build import build_report as _build

    return _build(outdir)


__all__ = ["build_report"]
