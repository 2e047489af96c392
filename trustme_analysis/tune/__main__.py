"""``python -m trustme_analysis.tune SPEC.toml``: search rule sets that meet a tuning spec's targets, confirm the best
on fresh games, and draw the tuning report.

Exit status: 0 done; 2 the spec or the command line is invalid (nothing is written), or the output folder holds
another study or another run; 130 interrupted (the study and the games played so far are kept: run the same command
again to continue); 1 any other failure.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from trustme_analysis.specfile import OneLineParser, int_option
from trustme_analysis.tune.spec import MAX_GAMES, TuneSpec


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = OneLineParser(
        prog="python -m trustme_analysis.tune",
        description="Search rule sets that meet a tuning spec's objectives and constraints, replay the best ones and "
        "the rulebook's on fresh games, and draw the tuning report (OUT/tuning.pdf).",
    )
    parser.add_argument("spec", metavar="SPEC", help="tuning spec (TOML)")
    parser.add_argument(
        "--workers", type=int_option(1), default=None, metavar="N",
        help=f"worker processes (default: all cores, here {os.cpu_count()}); 1 plays in this process",
    )
    parser.add_argument(
        "--dask", default=None, metavar="ADDRESS",
        help="play on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for a new LocalCluster of "
        "--workers processes (needs dask[distributed])",
    )
    parser.add_argument("--out", default=None, metavar="DIR", help="output folder (default: the spec's 'out')")
    parser.add_argument(
        "--budget", type=int_option(1, MAX_GAMES), default=None, metavar="GAMES",
        help="all games the search may play, in place of the spec's [budget] games (a larger budget continues a "
        "finished study)",
    )
    parser.add_argument("--no-confirm", action="store_true", help="skip the confirmation sweeps")
    parser.add_argument("--no-report", action="store_true", help="skip the tuning report")
    parser.add_argument("--quiet", action="store_true", help="no progress messages")
    parser.add_argument(
        "--check", action="store_true",
        help="only validate the spec (checking every objective against a few games of the rulebook, played in a "
        "temporary folder) and describe the search; write nothing",
    )
    return parser


def describe(spec: TuneSpec, intervals: dict, out: str | None = None) -> str:
    """What the spec would search and, with a trained line-up, train (``--check``)."""
    b = spec.budget
    size = spec.space.size()
    lines = [
        f"tuning spec {spec.path} is valid: {spec.title}",
        f"game {spec.game}; fixed rules: {', '.join(f'{k}={v}' for k, v in spec.params.items()) or 'none'}; "
        f"line-up {spec.lineup_name}: {spec.lineup}",
        f"search space ({size if size is not None else 'continuous'} points):",
        *[f"  {p.name}: {p.describe()} (rulebook: {spec.rulebook[p.name]})" for p in spec.space.parameters],
        f"rulebook in the search space: {'yes' if spec.space.encode(spec.rulebook) is not None else 'no'}",
        "objectives:",
        *[f"  {o.name}: {o.measure.describe()}, wanted {o.wanted()}; interval: "
          f"{'/'.join(intervals[o.name]) if intervals.get(o.name) else 'none (the race cannot stop on it)'}"
          for o in spec.objectives],
    ]
    if spec.constraints:
        lines.append("constraints:")
        lines += [f"  {c.name}: {c.measure.describe()}, {c.wanted()}; interval: "
                  f"{'/'.join(intervals[c.name]) if intervals.get(c.name) else 'none'}" for c in spec.constraints]
    lines += [
        f"budget {b.games} games; at most {b.games_per_candidate} per candidate, looked at after "
        f"{', '.join(map(str, b.rungs))} games (racing: {b.racing}); seed {spec.seed}",
        f"sampler {spec.sampler_kind}; confirmation: rulebook + {spec.confirm.best} best, {spec.confirm.games} games "
        f"each, seed {spec.confirm.seed}",
        f"output folder: {out or spec.out}",
    ]
    from trustme_analysis.tune.training import describe as training_lines

    lines[-1:-1] = training_lines(spec, out or spec.out)
    return "\n".join(lines)


def with_budget(spec: TuneSpec, games: int) -> TuneSpec:
    """``spec`` with another budget of games (``--budget``), checked like the spec's own."""
    from trustme_analysis.specfile import SpecError

    if games < spec.budget.games_per_candidate:
        raise SpecError("--budget", f"must be at least budget.games_per_candidate ({spec.budget.games_per_candidate}), "
                        f"got {games}")
    return dataclasses.replace(spec, budget=dataclasses.replace(spec.budget, games=games))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Every refusal (a bad option, spec, output folder or ``--dask``) is one line on stderr and exit status 2, before
    anything is written; ``--check`` refuses exactly what a run refuses.
    """
    from trustme_analysis.specfile import OptionError, SpecError
    from trustme_analysis.sweep.runner import SweepError, check_dask
    from trustme_analysis.tune.evaluate import check_measures
    from trustme_analysis.tune.run import TuneError, check_folder, run_tuning
    from trustme_analysis.tune.spec import load_tune_spec

    try:
        args = build_parser().parse_args(argv)
        spec = load_tune_spec(args.spec)
        if args.budget is not None:
            spec = with_budget(spec, args.budget)
        out = Path(args.out if args.out is not None else spec.out)
        if args.out is not None and not args.out.strip():
            raise TuneError("--out: must be a folder path, got an empty string")
        check_folder(spec, out)  # what the run checks first, so --check refuses the same folders
        check_dask(args.dask)
        if args.check:
            print(describe(spec, check_measures(spec), args.out))
            return 0
        result = run_tuning(spec, workers=args.workers, dask=args.dask, out=out, confirm=not args.no_confirm,
                            report=not args.no_report, quiet=args.quiet)
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (TuneError, SweepError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the study and the games played so far are kept; run the same command again to continue",
              file=sys.stderr)
        return 130
    except OSError as exc:  # the folder stopped taking files part-way (full, turned read-only)
        where = f" {exc.filename}" if exc.filename else ""
        print(f"error: cannot write{where}: {exc.strerror or exc}; the study so far is kept", file=sys.stderr)
        return 2
    if not args.quiet:
        print(str(result.report or result.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
