"""``python -m trustme_analysis.solve SPEC.toml``: solve every ``[[solve]]`` section of a spec.

Exit status: 0 done; 2 the spec or the command line is invalid (nothing is solved); 130 interrupted; 1 any other
failure. Each solution is stored under ``OUTDIR/solve/<name>/`` and its summary printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = argparse.ArgumentParser(
        prog="python -m trustme_analysis.solve",
        description="Solve the reduced variants named in the [[solve]] sections of SPEC and store the average "
        "policy, convergence curve, seat values, exploitability/NashConv, strategy statistics and the best "
        "responses against the named bot line-ups under OUTDIR/solve/<name>/.",
    )
    parser.add_argument("spec", metavar="SPEC", help="solve spec or sweep spec with [[solve]] sections (TOML)")
    parser.add_argument("--out", default=None, metavar="DIR", help="output folder (default: the spec's 'out')")
    parser.add_argument("--only", action="append", default=None, metavar="NAME",
                        help="solve only this section (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    import trustme_analysis  # noqa: F401  (registers the games)
    from trustme_analysis.solve.run import run_solve
    from trustme_analysis.solve.spec import load_solve_file
    from trustme_analysis.specfile import SpecError

    try:
        spec = load_solve_file(args.spec)
    except SpecError as exc:
        print(f"spec error: {exc}", file=sys.stderr)
        return 2
    solves = spec.solves
    if args.only:
        names = [s.name for s in solves]
        unknown = [n for n in args.only if n not in names]
        if unknown:
            print(f"error: --only {unknown[0]!r} is not a [[solve]] name; names: {', '.join(names)}", file=sys.stderr)
            return 2
        solves = tuple(s for s in solves if s.name in args.only)
    out = args.out or spec.out
    try:
        for section in solves:
            order = [s.name for s in spec.solves].index(section.name)
            run_solve(section, out, quiet=args.quiet, extra={"title": spec.title, "order": order})
        from trustme_analysis.solve.compare import compare_solutions

        for pair in compare_solutions(out):
            if not args.quiet:
                print(f"warning: {pair['text']}", file=sys.stderr)
        from trustme_analysis.report.solve_pages import build_solve_report

        report = build_solve_report(out)
        if report is not None and not args.quiet:
            print(f"report: {report}")
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a solve that cannot run (tree too large, a bot without probabilities): one line
        refused = isinstance(exc, (ValueError, NotImplementedError))
        # A refusal's message names the problem and the remedy; an unexpected error also names its type.
        print(f"error: {exc}" if refused else f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2 if refused else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
