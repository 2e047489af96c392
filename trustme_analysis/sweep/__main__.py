"""``python -m trustme_analysis.sweep [SPEC.toml]``: run a Monte Carlo sweep and build its PDF report.

Exit status: 0 done; 2 the spec or the command line is invalid (nothing is written); 130 interrupted (the chunks
stored so far are kept: run the same command again to finish); 1 any other failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = argparse.ArgumentParser(
        prog="python -m trustme_analysis.sweep",
        description="Play every rule variant x line-up of a sweep spec, store the records, and build the PDF report. "
        "Without SPEC, runs the embedded default spec.",
    )
    parser.add_argument("spec", nargs="?", metavar="SPEC", help="sweep spec (TOML); default: the embedded default")
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N",
        help=f"worker processes (default: all cores, here {os.cpu_count()}); 1 plays in this process",
    )
    parser.add_argument(
        "--dask", default=None, metavar="ADDRESS",
        help="run the chunks on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for a new "
        "LocalCluster of --workers processes (needs dask[distributed])",
    )
    parser.add_argument("--out", default=None, metavar="DIR", help="output folder (default: the spec's 'out')")
    parser.add_argument("--no-report", action="store_true", help="store the records only; skip the PDF report")
    parser.add_argument("--quiet", action="store_true", help="no progress line or messages")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.workers is not None and args.workers < 1:
        print(f"error: --workers must be >= 1, got {args.workers}", file=sys.stderr)
        return 2

    from trustme_analysis.sweep.runner import ReportError, SweepError, run_sweep
    from trustme_analysis.sweep.spec import SpecError, load_spec

    try:
        spec = load_spec(args.spec)
    except SpecError as exc:
        print(f"spec error: {exc}", file=sys.stderr)
        return 2
    try:
        result = run_sweep(
            spec, workers=args.workers, dask=args.dask, out=args.out, report=not args.no_report, quiet=args.quiet
        )
    except SweepError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ReportError as exc:
        traceback.print_exception(exc.__cause__ or exc)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        print(str(result.report or result.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
