"""``python -m trustme_analysis.sweep [SPEC.toml]``: run a Monte Carlo sweep and build its PDF report.

Exit status: 0 done; 2 the spec, the command line or the output folder cannot be used (nothing is written; a folder
that stops taking files part-way keeps the chunks stored so far); 130 interrupted (the chunks stored so far are kept:
run the same command again to finish); 1 any other failure (a chunk failed, workers kept dying, the report failed).
Every failure ends in one line; an unexpected one leaves its traceback in a log file that the line names.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from trustme_analysis.specfile import OneLineParser, OptionError, float_option, int_option

if TYPE_CHECKING:
    from trustme_analysis.sweep.spec import Spec


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    parser = OneLineParser(
        prog="python -m trustme_analysis.sweep",
        description="Play every rule variant x line-up of a sweep spec, store the records, and build the PDF report. "
        "Without SPEC, runs the embedded default spec.",
    )
    parser.add_argument("spec", nargs="?", metavar="SPEC", help="sweep spec (TOML); default: the embedded default")
    parser.add_argument(
        "--workers", type=int_option(1), default=None, metavar="N",
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
        "--until-ci", type=float_option(0, above=True, high=1, below=True), default=None, metavar="WIDTH",
        help="grow the sweep (every line-up's games, its own games included, by one factor; the stored games kept) "
        "until every headline figure given as a share has a 95%% interval at most WIDTH wide (0.02: +-1 percentage "
        "point); afterwards set games and the line-ups' games in the spec to the numbers the last line names",
    )
    parser.add_argument(
        "--check", action="store_true",
        help="only validate the spec, --out and --dask, list the variants and estimate the work (from a few games "
        "played in memory); write nothing"
    )
    return parser


def describe(spec: Spec, out: str | Path | None = None, work: str | None = None) -> str:
    """A short text listing what the spec would play (``--check``); ``work`` is the estimate line, if any."""
    from trustme_analysis.sweep.chunking import chunking_text

    lines = [
        f"spec {spec.path or 'default'} is valid: {spec.title}",
        f"game {spec.game}; {len(spec.variants)} variant(s) x {spec.games} games{spec.fewer_games_note()} = "
        f"{spec.total_games} games; {chunking_text(spec)}; "
        f"seed {spec.seed}",
        f"output folder: {out or spec.out}",
    ]
    from trustme_analysis.sweep.rescoring import sources

    source_of = sources(spec)
    for v in spec.variants:
        mark = " (baseline)" if v.id == spec.baseline else ""
        # Variants that differ only in scoring-only rules their players ignore are not played: said here, in words.
        again = (f"; not played: {source_of[v.id]}'s games scored again (only the scoring differs)"
                 if v.id in source_of else "")
        engine = f"{v.engine}: {v.engine_note}" if v.engine_note else v.engine
        lines.append(f"  {v.id}{mark}: {v.label}  [{v.num_players} players; engine {engine}{again}]")
    lines += power_warnings(spec)
    if work:
        lines.append(work)
    return "\n".join(lines)


#: The seat edge a sweep's line-ups should be able to see (``--check`` warns below it): 5 percentage points.
SEAT_EDGE = 0.05


def power_warnings(spec: Spec) -> list[str]:
    """``--check``'s warnings for variants whose games are too few for the chi-square test of equal seats to see a
    seat :data:`SEAT_EDGE` above its fair share 80% of the time (:func:`~trustme_analysis.stats.balance.
    detectable_seat_edge`): a "no evidence of a seat effect" there is silence, not balance."""
    from trustme_analysis.stats.balance import detectable_seat_edge

    out = []
    for v in spec.variants:
        games = spec.games_of(v)
        edge = detectable_seat_edge(games, v.num_players)
        if edge > SEAT_EDGE:
            # Games needed scale as 1 / edge**2 (the test's noncentrality grows with games x edge**2).
            needed = math.ceil(games * (edge / SEAT_EDGE) ** 2)
            out.append(f"warning: {v.id} ({v.label}): {games:,} games see a seat edge only from "
                       f"{100 * edge:.0f} points on (80% power); a {100 * SEAT_EDGE:.0f}-point edge needs about "
                       f"{needed:,} games")
    return out


def work_line(spec: Spec, workers: int | None) -> str:
    """The ``--check`` line stating the work: games, chunks, estimated playing time and disk."""
    from trustme_analysis.sweep.estimate import duration_text, estimate_work, size_text

    head = f"work: {spec.total_games:,} games in {spec.total_chunks:,} chunk(s)"
    try:
        est = estimate_work(spec, workers)
    except Exception as exc:  # e.g. policy bots whose [[solve]] sections are not solved yet
        return f"{head}; time and disk not estimated (a sample game failed: {type(exc).__name__}: {_first_line(exc)})"
    took = "under a second" if est.seconds < 1 else f"about {duration_text(est.seconds)}"
    line = (f"{head}; {took} of play on {est.workers} worker(s) and about {size_text(est.disk_bytes)} of records "
            f"(estimated from {est.sampled_games} game(s) played in memory, {1000 * est.seconds_per_game:.3g} ms each)")
    if est.seconds > LONG_SWEEP_SECONDS:
        line += "\nnote: that is a very long sweep: lower games, or run it on a Dask cluster (--dask)"
    return line


#: A sweep estimated to play longer than this gets a note in ``--check``.
LONG_SWEEP_SECONDS = 30 * 86400


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _log_traceback(exc: BaseException) -> str | None:
    """Write ``exc``'s full traceback (and its causes') to a temporary log file; returns its path (``None`` if that
    fails). The terminal gets one line; the log keeps what a bug report needs."""
    try:
        with tempfile.NamedTemporaryFile("w", prefix="trustme-sweep-", suffix=".log", delete=False,
                                         encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)))
            return fh.name
    except OSError:
        return None


def _error(text: str, exc: BaseException | None = None) -> None:
    log = _log_traceback(exc) if exc is not None else None
    print(f"error: {text}" + (f" (traceback in {log})" if log else ""), file=sys.stderr)


def _check_policy_files(spec: Spec, outdir: Path) -> None:
    """Refuse, for ``--check`` as for a run, a policy seat whose ``policy`` file is not stored and is not the file a
    ``[[solve]]`` section of this spec writes (those are solved before the games)."""
    from trustme_analysis.players.policy import POLICY, load_policy
    from trustme_analysis.solve.storage import solution_dir
    from trustme_analysis.sweep.runner import SweepError

    solved = {(solution_dir(outdir, s.name) / POLICY).resolve() for s in spec.solves}
    for lineup in spec.lineups.values():
        for seat in (lineup.seats or ()) + (lineup.pool or ()):
            given = seat.knobs.get("policy") if seat.bot == "policy" and "solve" not in seat.knobs else None
            if not isinstance(given, str):
                continue
            path = Path(given) / POLICY if Path(given).is_dir() else Path(given)
            if path.resolve() in solved:
                continue
            try:
                load_policy(given)
            except (OSError, ValueError) as exc:
                raise SweepError(f"policy seat policy = {given!r}: {_first_line(exc)}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Every failure ends in one line on stderr: 2 for a bad spec, command line or output folder (nothing written, or
    the chunks stored before kept), 130 for an interruption, 1 for anything else (with the traceback in a log file
    whose path the line gives).
    """
    try:
        args = build_parser().parse_args(argv)  # (checks --until-ci for --check too)
    except OptionError as exc:  # one line naming the option (no usage block), checked for --check too
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug, or a failure nothing above foresaw: still one line
        _error(f"unexpected {type(exc).__name__}: {_first_line(exc)}", exc)
        return 1


def _run(args: argparse.Namespace) -> int:
    from trustme_analysis.sweep.runner import (
        ReportError,
        SweepError,
        SweepFailed,
        check_dask,
        check_outdir,
        resolve_outdir,
        run_sweep,
    )
    from trustme_analysis.sweep.chunking import adopt_stored_chunking, resolve_chunking
    from trustme_analysis.sweep.policies import resolve_policies
    from trustme_analysis.sweep.spec import SpecError, load_spec

    try:
        spec = load_spec(args.spec)
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        outdir = resolve_outdir(spec, args.out)
        check_dask(args.dask, probe=args.check)  # a run probes when it connects
        # As the run does: policy seats' stored policies are part of what the folder's sweep must match.
        resolved = resolve_policies(spec, outdir, require=False)
        _check_policy_files(spec, outdir)
        resolved = adopt_stored_chunking(resolved, outdir)  # as the run does: a folder keeps its chunk sizes
        stored = check_outdir(resolved, outdir)
    except SweepError as exc:
        _error(str(exc))
        return 2
    if args.check:
        try:
            resolved, _ = resolve_chunking(resolved)  # the chunk sizes a run would choose, measured the same way
        except Exception as exc:  # e.g. policy bots whose [[solve]] sections are not solved yet: the run chooses
            print(f"chunk sizes not measured ({type(exc).__name__}: {_first_line(exc)}); the run chooses them",
                  file=sys.stderr)
        text = describe(resolved, outdir, work_line(resolved, args.workers))
        if stored is not None:
            text = text.replace(f"output folder: {outdir}", f"output folder: {outdir} (holds this sweep: a run plays "
                                "only the chunks it lacks)", 1)
        print(text)
        return 0
    try:
        if args.until_ci is not None:
            from trustme_analysis.sweep.growing import grow_until

            def play(grown: Spec, report: bool) -> None:
                run_sweep(grown, workers=args.workers, dask=args.dask, out=outdir, report=report, quiet=args.quiet)

            def say(text: str) -> None:
                if not args.quiet:
                    print(text, file=sys.stderr, flush=True)

            try:
                spec, _ = grow_until(spec, args.until_ci, play, outdir, say)
            except ValueError as exc:
                _error(str(exc))
                return 2
        result = run_sweep(
            spec, workers=args.workers, dask=args.dask, out=outdir, report=not args.no_report, quiet=args.quiet
        )
    except SweepError as exc:
        _error(str(exc))
        return 2
    except SweepFailed as exc:
        _error(str(exc), exc.__cause__)
        return 1
    except ReportError as exc:
        _error(str(exc), exc.__cause__ or exc)
        return 1
    if not args.quiet:
        print(str(result.report or result.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
