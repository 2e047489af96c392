"""The PDF report built from stored sweep results (``python -m trustme_analysis.report OUTDIR``).

:func:`build_report` reads ``OUTDIR/manifest.json`` and the record chunks, writes the statistics tables to
``OUTDIR/stats/*.csv`` and the report to ``OUTDIR/report.pdf``; it never simulates.
"""

from __future__ import annotations

from pathlib import Path


def build_report(outdir: str | Path) -> Path:
    """Build ``OUTDIR/report.pdf`` and ``OUTDIR/stats/*.csv`` from the sweep stored in ``outdir``; returns the PDF path.

    See :func:`trustme_analysis.report.build.build_report`.
    """
    # Imported here so that importing the package stays cheap (matplotlib loads only when a report is built).
    from trustme_analysis.report.build import build_report as _build

    return _build(outdir)


__all__ = ["build_report"]
