"""Running a tuning: the search, the confirmation sweeps, the tuning's results set and its report.

Output folder::

    OUT/tune.json                 the validated tuning spec, its study fingerprint and the last run's summary
    OUT/study.db                  the Optuna study (SQLite)
    OUT/tune.lock                 held (flock) while a run works here: one run at a time
    OUT/train/<fingerprint>/      trained line-ups: the rulebook's base policy (:mod:`~trustme_analysis.tune.training`)
    OUT/candidates/<id>/          each candidate rule set: an ordinary one-variant sweep folder (records, stats; with
                                  a trained line-up, train/ holds its policy, warm-started from the base policy)
    OUT/confirm/<id>/             the confirmation sweeps: ordinary sweeps with their own report.pdf
    OUT/stats/                    the tuning's results set (:mod:`~trustme_analysis.tune.tables`)
    OUT/tuning.pdf                the tuning report (:mod:`~trustme_analysis.tune.pages`)

Running the same spec again continues where the last run stopped (a larger budget continues the search); a folder
holding another study (different game, rules, search space, objectives, racing, sampler or seed) is refused.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from trustme_analysis.atomic import atomic_path
from trustme_analysis.provenance import changed_files
from trustme_analysis.specfile import SpecError, check_output_folder
from trustme_analysis.tune import tables, training
from trustme_analysis.tune.confirm import picks, run_confirmation
from trustme_analysis.tune.evaluate import Evaluator, GameEvaluator, check_measures
from trustme_analysis.tune.spec import TuneSpec
from trustme_analysis.tune.study import TuneError, SearchSummary, open_study, run_search, trial_info
from trustme_analysis.tune.workers import DaskCluster, make_executor, require_dask

STATE = "tune.json"
LOCK = "tune.lock"



@dataclass(frozen=True)
class TuneResult:
    """What :func:`run_tuning` did."""

    outdir: Path
    search: SearchSummary
    confirmed: dict[str, Path]
    report: Path | None
    seconds: float


@contextmanager
def folder_lock(outdir: Path) -> Iterator[None]:
    """Hold ``OUT/tune.lock`` (an exclusive flock, released by the system even if the process is killed)."""
    outdir.mkdir(parents=True, exist_ok=True)
    fh = open(outdir / LOCK, "w")
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise TuneError(f"another tuning run is working in {outdir}; wait for it or choose another --out") \
                from None
        fh.write(str(os.getpid()))
        fh.flush()
        yield
    finally:
        fh.close()


def check_folder(spec: TuneSpec, outdir: Path) -> None:
    """Refuse, before anything is written, a folder that cannot be created or written (a file, under a file,
    read-only), holds another study, something that is not a tuning, or a damaged ``tune.json``."""
    from trustme_analysis.outdir import RECORDS

    if not str(outdir).strip():
        raise TuneError("--out: must be a folder path, got an empty string")
    try:
        check_output_folder(outdir, inner=(RECORDS,))
    except SpecError as exc:
        raise TuneError(str(exc)) from None
    state = outdir / STATE
    if not state.is_file():
        if (outdir / "study.db").exists() or (outdir / "candidates").exists():
            raise TuneError(f"{outdir} holds a study but no {STATE}; choose another --out or empty it")
        return
    for name in (STATE, LOCK, "study.db"):
        if (outdir / name).exists() and not os.access(outdir / name, os.R_OK | os.W_OK):
            raise TuneError(f"{outdir / name} is not writable (read-only or permission denied); change its "
                            "permissions or choose another --out")
    try:
        data = json.loads(state.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:  # not UTF-8, or not JSON (a truncated file)
        raise TuneError(f"{state} is damaged ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); it "
                        "records which tuning spec made the study beside it: restore it, or choose another --out")
    if not isinstance(data, dict) or not isinstance(data.get("fingerprint") or {}, dict):
        raise TuneError(f"{state} is not a tuning's state (its 'fingerprint' is missing or not a table); restore it, "
                        "or choose another --out")
    stored = data.get("fingerprint") or {}
    current = spec.study_fingerprint()
    if stored != current:
        differing = sorted(k for k in set(stored) | set(current) if stored.get(k) != current.get(k))
        if differing == ["code"]:
            raise TuneError(f"{outdir} holds a study whose trials were played by other code than this "
                            f"installation's (changed since: {changed_files(stored.get('code'), current['code'])}); "
                            "choose another --out or delete the folder to start the study again with this code")
        raise TuneError(f"{outdir} holds a study made from a different tuning spec (differs in: "
                        f"{', '.join(differing)}); choose another --out (or out = ... in the spec) or delete the "
                        "folder to start over")


def write_state(spec: TuneSpec, outdir: Path, summary: dict[str, Any] | None = None) -> None:
    """``OUT/tune.json``: the spec, its fingerprint and the last run's summary."""
    data = {"spec": spec.as_dict(), "spec_path": spec.path, "fingerprint": spec.study_fingerprint(),
            "summary": summary or {}}
    with atomic_path(outdir / STATE) as tmp:
        Path(tmp).write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    # `kill PID` stops a tuning like Ctrl-C: running trials stop after their chunk, the study stays consistent.
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _counts(study: Any) -> dict[str, int]:
    from optuna.trial import TrialState

    trials = study.get_trials(deepcopy=False)
    states = [t.state for t in trials]
    # A trial a killed run left running is failed and its rule set re-run by a later trial (retry_of).
    interrupted = {t.user_attrs["retry_of"] for t in trials if "retry_of" in t.user_attrs}
    finished = [t for t in trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED)]
    return {"candidates": len({trial_info(t)["candidate"] for t in finished}),
            "complete": states.count(TrialState.COMPLETE), "pruned": states.count(TrialState.PRUNED),
            "failed": states.count(TrialState.FAIL) - len(interrupted), "interrupted": len(interrupted),
            "trials": len(states)}


def finish(spec: TuneSpec, outdir: Path, *, confirm: bool, report: bool, workers: int, dask: Any,
           summary: dict[str, Any], quiet: bool, stream: TextIO, intervals: dict[str, Any] | None = None
           ) -> tuple[dict[str, Path], Path | None]:
    """Confirm the best rule sets, compute and store the tuning's results set, and draw its report."""
    study = open_study(spec, outdir)
    chosen = picks(spec, study) if confirm else []
    folders = run_confirmation(spec, outdir, chosen, workers=workers, dask=dask, quiet=quiet, stream=stream) \
        if confirm else {}
    if spec.trained:  # (after the confirmation, which may have trained a rule set the race never played)
        summary["training"] = training.training_summary(spec, outdir)
    manifest = {"title": spec.title, "question": spec.question, "game": spec.game, "spec": spec.as_dict(),
                "summary": {**summary, **_counts(study)}, "confirmed": {k: str(v) for k, v in folders.items()}}
    res = tables.compute(spec, study, chosen, folders, manifest, intervals)
    tables.save(res, outdir, tables.inputs_key(study, folders))
    path = None
    if report:
        from trustme_analysis.tune.pages import build_tuning_report  # matplotlib only when drawing

        path = build_tuning_report(outdir, tables.load(outdir))
    return folders, path


def _train_base(evaluator: GameEvaluator, quiet: bool, stream: TextIO) -> None:
    """Train (or find) the rulebook's base policy before the first trial, saying what it is and what it cost."""
    spec = evaluator.spec
    say = None if quiet else (lambda line: print(line, file=stream, flush=True))
    t = training.base_training(spec, evaluator.outdir)
    if say is not None:
        s = t.settings
        budget = f"{s.iterations:,} iterations" if s.iterations is not None else f"{s.seconds:g} CPU s"
        say(f"train: the rulebook's base policy [{t.fingerprint}] ({budget}) -> {evaluator.outdir / 'train'}; then "
            f"{spec.candidate_iterations:,} iterations per candidate, warm-started from it")
    policy = evaluator.base_policy(say)
    if say is not None:
        how = "stored: reused" if policy.reused else "trained"
        say(f"train: base policy {how}: {policy.summary['iterations']:,} iterations, "
            f"{policy.summary['cpu_seconds']:.1f} CPU s")


def training_line(t: dict[str, Any]) -> str:
    """The training's cost in one line (:func:`~trustme_analysis.tune.training.training_summary`)."""
    return (f"training: base policy {t['base_iterations']:,} iterations in {t['base_cpu_seconds']:.1f} CPU s; "
            f"{t['candidate_policies']} candidate polic{'y' if t['candidate_policies'] == 1 else 'ies'} of "
            f"{t['candidate_iterations']:,} iterations, "
            f"{t['candidate_cpu_seconds_mean']:.1f} CPU s each on average ({t['candidate_cpu_seconds']:.1f} CPU s "
            "in all)")


def run_tuning(spec: TuneSpec, *, workers: int | None = None, dask: Any = None, out: str | Path | None = None,
               confirm: bool = True, report: bool = True, quiet: bool = False, stream: TextIO | None = None,
               evaluator: Evaluator | None = None) -> TuneResult:
    """Run (or continue) the tuning of ``spec``: search, confirmation sweeps, results set and report.

    Args:
        spec: the validated tuning spec.
        workers: worker processes (default: all cores); 1 plays in this process.
        dask: ``None`` for the local pool; ``"local"``, a scheduler address or a ``dask.distributed.Client``.
        out: output folder (default: the spec's ``out``).
        confirm: play the confirmation sweeps (and put them in the report).
        report: draw ``OUT/tuning.pdf``.
        quiet: no progress messages.
        stream: where messages go (stderr by default).
        evaluator: plays the candidates (default: their games through the sweep's chunks); tests pass a stub.

    Raises:
        TuneError: the folder holds another study, or another run works in it.
        KeyboardInterrupt: after the running trials stopped (run again to continue).
    """
    stream = stream if stream is not None else sys.stderr
    outdir = Path(out if out is not None else spec.out)
    workers = max(1, int(workers if workers is not None else (os.cpu_count() or 1)))
    started = time.perf_counter()
    check_folder(spec, outdir)
    if dask is not None:
        try:
            require_dask()  # before anything is written
        except ImportError as exc:
            raise TuneError(str(exc)) from None
    # Check every objective against a few games of the rulebook before anything is written.
    intervals = check_measures(spec) if evaluator is None else None
    with folder_lock(outdir), _sigterm_as_interrupt():
        write_state(spec, outdir)
        try:
            executor = make_executor(workers, dask) if evaluator is None else None
        except OSError as exc:
            raise TuneError(f"cannot reach the Dask scheduler at {dask!r}: {exc}") from None
        interrupted = True
        try:
            if evaluator is None:
                assert executor is not None
                evaluator = GameEvaluator(spec, outdir, executor)
            parallel = spec.budget.parallel or (executor.workers if executor is not None else 1)
            if not quiet:
                print(f"tuning {spec.title!r}: budget {spec.budget.games} games, {parallel} trial(s) at a time -> "
                      f"{outdir}", file=stream, flush=True)
            if spec.trained and isinstance(evaluator, GameEvaluator):
                _train_base(evaluator, quiet, stream)
            summary = run_search(spec, outdir, evaluator, parallel=parallel, quiet=quiet, stream=stream)
            summary_dict = {"trials_finished": summary.trials_finished, "games_spent": summary.games_spent,
                            "games_now": summary.games_now, "seconds_now": round(summary.seconds, 2),
                            "stopped": summary.stopped}
            if not quiet:
                print(f"search stopped: {summary.stopped or 'done'}; {summary.trials_finished} trials, "
                      f"{summary.games_spent} games", file=stream, flush=True)
            if spec.trained:
                summary_dict["training"] = training.training_summary(spec, outdir)
                if not quiet:
                    print(training_line(summary_dict["training"]), file=stream, flush=True)
            # The confirmation sweeps run on the same Dask cluster, or on the sweep's own local pool.
            sweep_dask = executor.client if isinstance(executor, DaskCluster) else dask
            if executor is not None and not isinstance(executor, DaskCluster):
                executor.close(interrupted=False)
                executor = None
            folders, path = finish(spec, outdir, confirm=confirm, report=report, workers=workers, dask=sweep_dask,
                                   summary=summary_dict, quiet=quiet, stream=stream, intervals=intervals)
            write_state(spec, outdir, summary_dict)
            interrupted = False
        finally:
            if executor is not None:
                executor.close(interrupted=interrupted)
    return TuneResult(outdir=outdir, search=summary, confirmed=folders, report=path,
                      seconds=time.perf_counter() - started)
