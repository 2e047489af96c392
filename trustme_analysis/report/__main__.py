"""``python -m trustme_analysis.report OUTDIR``: rebuild the statistics and the PDF from a stored sweep."""

from __future__ import annotations

import argparse
import sys

from trustme_analysis.report import build_report


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code (2 when OUTDIR holds no sweep)."""
    parser = argparse.ArgumentParser(
        prog="python -m trustme_analysis.report",
        description="Rebuild the results set (OUTDIR/stats/) when the records changed, and draw OUTDIR/report.pdf, without simulating.",
    )
    parser.add_argument("outdir", help="the sweep's output folder (holds manifest.json and records/)")
    args = parser.parse_args(argv)
    try:
        path = build_report(args.outdir)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"report: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
