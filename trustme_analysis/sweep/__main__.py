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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trustme_analysis.sweep.spec import Spec


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
    parser.add_argument(
        "--check", action="store_true", help="only validate the spec and list its variants; play nothing, write nothing"
    )
    return parser


def describe(spec: Spec, out: str | None = None) -> str:
    """A short text listing what the spec would play (``--check``)."""
    lines = [
        f"spec {spec.path or 'default'} is valid: {spec.title}",
        f"game {spec.game}; {len(spec.variants)} variant(s) x {spec.games} games = {spec.total_games} games; "
        f"{spec.chunks_per_variant} chunk(s) of up to {spec.chunk_size} games per variant; seed {spec.seed}",
        f"output folder: {out or spec.out}",
    ]
    for v in spec.variants:
        mark = " (baseline)" if v.id == spec.baseline else ""
        lines.append(f"  {v.id}{mark}: {v.label}  [{v.num_players} players]")
    return "\n".join(lines)


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
    if args.check:
        print(describe(spec, args.out))
        return 0
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
