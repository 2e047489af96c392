"""``python -m trustme_analysis.solve SPEC.toml``: solve every ``[[solve]]`` section of a spec.

Exit status: 0 done; 2 the spec or the command line is invalid (nothing is solved); 130 interrupted; 1 any other
failure. Each solution is stored under ``OUTDIR/solve/<name>/`` and its summary printed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trustme_analysis.specfile import OneLineParser


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = OneLineParser(
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
    """Run the command line; returns the exit status.

    A bad option, spec, ``--only`` name or output folder is one line on stderr and exit status 2 before anything is
    solved or written; so is a solve the library refuses (a tree too large, a bot without probabilities).
    """
    from trustme_analysis.specfile import OptionError, SpecError, check_output_folder

    try:
        args = build_parser().parse_args(argv)
        import trustme_analysis  # noqa: F401  (registers the games)
        from trustme_analysis.solve.spec import load_solve_file

        spec = load_solve_file(args.spec)
        solves = spec.solves
        if args.only:
            names = [s.name for s in solves]
            unknown = [n for n in args.only if n not in names]
            if unknown:
                raise OptionError("--only", f"{unknown[0]!r} is not a [[solve]] name; names: {', '.join(names)}")
            solves = tuple(s for s in solves if s.name in args.only)
        out = check_output_folder(args.out if args.out is not None else spec.out)
        _check_policy_files(spec, solves, out)
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return _solve(spec, solves, out, args.quiet)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # the folder stopped taking files part-way (full, turned read-only)
        if exc.errno is None:  # a refusal raised with a message of its own (a file that is not there)
            print(f"error: {_one_line(exc)}", file=sys.stderr)
        else:
            where = f" {exc.filename}" if exc.filename else f" in {out}"
            print(f"error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (ValueError, NotImplementedError) as exc:  # a refusal (tree too large, ...): its message names the remedy
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, the traceback in a log file
        log = _log_traceback(exc)
        print(f"error: solving failed ({type(exc).__name__}: {_one_line(exc)})"
              + (f" (traceback in {log})" if log else ""), file=sys.stderr)
        return 1


def _check_policy_files(spec: Any, solves: Sequence[Any], out: Path) -> None:
    """Refuse a line-up's policy seat whose ``policy`` file is neither stored nor written by an earlier section of
    this run (sections are solved in order, so a later one may play the policy of an earlier one)."""
    from trustme_analysis.players.policy import POLICY
    from trustme_analysis.solve.storage import solution_dir
    from trustme_analysis.specfile import SpecError

    written: set[Path] = set()
    for index, section in enumerate(spec.solves):
        if section not in solves:
            continue
        for lineup in section.lineups.values():
            for seat_index, seat in enumerate(lineup.seats or ()):
                given = seat.knobs.get("policy") if seat.bot == "policy" else None
                if not isinstance(given, str):
                    continue
                path = Path(given) / POLICY if Path(given).is_dir() else Path(given)
                if not path.is_file() and path.resolve() not in written:
                    raise SpecError(f"solve[{index}].lineups.{lineup.name}.seats[{seat_index}].knobs.policy",
                                    f"no stored policy at {given!r}, and no earlier [[solve]] section of this run "
                                    "writes it; give the path of a stored policy.json (or solve it first)")
        written.add((solution_dir(out, section.name) / POLICY).resolve())


def _solve(spec: Any, solves: Sequence[Any], out: Path, quiet: bool) -> int:
    from trustme_analysis.report.solve_pages import build_solve_report
    from trustme_analysis.solve.compare import compare_solutions
    from trustme_analysis.solve.run import run_solve

    for section in solves:
        order = [s.name for s in spec.solves].index(section.name)
        run_solve(section, out, quiet=quiet, extra={"title": spec.title, "order": order})
    for pair in compare_solutions(out):
        if not quiet:
            print(f"warning: {pair['text']}", file=sys.stderr)
    report = build_solve_report(out)
    if report is not None and not quiet:
        print(f"report: {report}")
    return 0


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    return "; ".join(lines) if lines else type(exc).__name__


def _log_traceback(exc: BaseException) -> str | None:
    try:
        with tempfile.NamedTemporaryFile("w", prefix="trustme-solve-", suffix=".log", delete=False,
                                         encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)))
            return fh.name
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(main())
