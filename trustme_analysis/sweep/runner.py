"""Running a sweep: the chunks still missing from the output folder, on a local process pool or a Dask cluster.

Every chunk is computed from its own seed (see :mod:`.seeding`), so which worker plays it and in which order does not
change its records. Workers only compute; this process alone writes files (one Parquet file per chunk, atomically),
so stopping a sweep at any moment leaves only whole chunks, and running it again plays only the missing ones.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from trustme_analysis.sweep import storage
from trustme_analysis.outdir import REPORT, load_manifest, manifest_path
from trustme_analysis.sweep.manifest import build_manifest, now_iso, write_manifest
from trustme_analysis.sweep.play import ChunkTask, chunk_tasks, run_chunk
from trustme_analysis.sweep.policies import PolicyError, resolve_policies
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep.progress import Progress
from trustme_analysis.sweep.seeding import SEEDING_SCHEME
from trustme_analysis.sweep.spec import Spec, parse_spec


class SweepError(RuntimeError):
    """The sweep cannot run as asked (output folder holds another sweep, Dask missing, ...)."""


class ReportError(RuntimeError):
    """The records were stored but building the report failed (the cause is chained)."""


@dataclass(frozen=True)
class SweepResult:
    """What a call of :func:`run_sweep` did."""

    outdir: Path
    chunks_total: int
    chunks_run: int
    games_played: int
    seconds: float
    report: Path | None


# --------------------------------------------------------------------------------------------------------- backends


def _init_worker(parent_pid: int) -> None:
    # Ctrl-C reaches every process of the terminal's group; only the parent decides how to stop, so workers ignore
    # it (the parent terminates them).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import trustme_analysis  # noqa: F401  (Python games register with pyspiel at import)

    # A killed parent cannot terminate its pool, and pool workers never see their task pipe close (each holds both
    # ends), so each worker watches for its parent to go away and then exits instead of idling forever.
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


def _run_in_process(tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, bytes]]:
    for task in tasks:
        yield _run_chunk_tagged(task)


def _run_chunk_tagged(task: ChunkTask) -> tuple[ChunkTask, bytes]:
    # Workers return the chunk's Parquet bytes: encoding is most of the writing cost, and it then runs in parallel.
    try:
        return task, storage.encode_chunk(run_chunk(task))
    except Exception as exc:
        # Name the chunk: a worker's traceback alone does not say which game string and seeds failed.
        raise RuntimeError(
            f"variant {task.variant_id} chunk {task.chunk_index} ({task.game_string}, master seed "
            f"{task.master_seed}) failed: {type(exc).__name__}: {exc}"
        ) from exc


class _LocalPool:
    """A pool of ``spawn``ed worker processes (fork is unsafe with OpenSpiel's threads and pandas)."""

    def __init__(self, workers: int):
        self.pool = multiprocessing.get_context("spawn").Pool(
            workers, initializer=_init_worker, initargs=(os.getpid(),)
        )

    def results(self, tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, bytes]]:
        yield from self.pool.imap_unordered(_run_chunk_tagged, tasks, chunksize=1)

    def close(self, interrupted: bool) -> None:
        if interrupted:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


def _require_dask() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise SweepError(
            "--dask needs dask's distributed scheduler: pip install 'trustme-analysis[dask]' "
            "(or pip install 'dask[distributed]')"
        ) from None


class _DaskBackend:
    """Chunks as Dask futures on a cluster given by address, ``"local"`` (a new LocalCluster) or a Client."""

    def __init__(self, target: Any, workers: int):
        _require_dask()
        from dask.distributed import Client, LocalCluster

        self._owned: list[Any] = []
        if isinstance(target, Client):
            self.client = target
        elif target == "local":
            import logging

            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, silence_logs=logging.ERROR,
                dashboard_address=None,  # no port to collide with; the progress line is on stderr
            )
            self.client = Client(cluster)
            self._owned = [self.client, cluster]
        else:
            try:
                self.client = Client(str(target), timeout="30s")
            except OSError as exc:
                raise SweepError(f"cannot reach the Dask scheduler at {target!r}: {exc}") from None
            self._owned = [self.client]
        self.futures: list[Any] = []

    def worker_count(self) -> int:
        """Worker threads of the cluster (what plays chunks at the same time)."""
        try:
            return sum(int(w.get("nthreads", 1)) for w in self.client.scheduler_info()["workers"].values())
        except Exception:  # informational only; an old or unusual scheduler may not say
            return 0

    def results(self, tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, bytes]]:
        from dask.distributed import as_completed

        self.futures = self.client.map(_run_chunk_tagged, list(tasks), pure=False)
        for future in as_completed(self.futures):
            yield future.result()

    def close(self, interrupted: bool) -> None:
        if interrupted and self.futures:
            self.client.cancel(self.futures)
        for thing in self._owned:
            thing.close()


# ------------------------------------------------------------------------------------------------------------ sweep


def _stop_on_sigterm() -> Any:
    """Treat SIGTERM (``kill PID``) like Ctrl-C while chunks run, so workers are stopped and the manifest is saved."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


def _check_outdir(spec: Spec, outdir: Path) -> dict[str, Any] | None:
    """The stored manifest if ``outdir`` holds this spec's sweep; an error if it holds another one."""
    if outdir.exists() and not outdir.is_dir():
        raise SweepError(f"output folder {str(outdir)!r} exists and is not a folder")
    if not manifest_path(outdir).is_file():
        # The manifest is written before the first chunk, so chunks without one were not made by a sweep run.
        if storage.stray_chunks(outdir, []):
            raise SweepError(f"{outdir} holds record chunks but no manifest; choose another --out or empty it")
        return None
    stored = load_manifest(outdir)
    current = json.loads(json.dumps(spec.data_fingerprint()))
    if stored.get("fingerprint") != current or stored.get("seeding_scheme") != SEEDING_SCHEME:
        old = stored.get("fingerprint") or {}
        differing = sorted(k for k in set(old) | set(current) if old.get(k) != current.get(k)) or ["seeding"]
        raise SweepError(
            f"{outdir} holds a sweep made from a different spec (differs in: {', '.join(differing)}); "
            "choose another --out (or out = ... in the spec) or delete the folder to start over"
        )
    return stored


def _spec_dict(spec: Spec, outdir: Path) -> dict[str, Any]:
    # As the manifest stores it (see build_manifest).
    return {**spec.as_dict(), "out": str(outdir)}


def run_sweep(
    spec: Spec,
    *,
    workers: int | None = None,
    dask: Any = None,
    out: str | Path | None = None,
    report: bool = True,
    quiet: bool = False,
    stream: TextIO | None = None,
) -> SweepResult:
    """Play every chunk of ``spec`` not yet stored in the output folder, then (optionally) build the report.

    Args:
        spec: the validated spec.
        workers: worker processes (default: all cores); 1 plays in this process.
        dask: ``None`` for the local pool; ``"local"`` for a new Dask LocalCluster of ``workers`` processes; a
            scheduler address; or a ``dask.distributed.Client`` to use as is.
        out: output folder (default: the spec's ``out``).
        report: build the PDF report at the end (``build_report`` of :mod:`trustme_analysis.report`).
        quiet: no progress line or messages.
        stream: where progress and messages go (stderr by default).

    Raises:
        SweepError: the output folder holds another spec's sweep, or the Dask backend is unavailable.
        KeyboardInterrupt: after stopping the workers and recording the stored chunks (run again to resume).
    """
    stream = stream if stream is not None else sys.stderr
    outdir = Path(out if out is not None else spec.out)
    workers = max(1, int(workers if workers is not None else (os.cpu_count() or 1)))
    # Policy seats: the fingerprints of the policies stored now are part of the data fingerprint (sweep/policies.py).
    spec = resolve_policies(spec, outdir, require=False)
    stored = _check_outdir(spec, outdir)
    records = game_entry(spec.game).part("records")
    if dask is not None:
        _require_dask()  # before anything is written

    def say(text: str) -> None:
        if not quiet:
            print(text, file=stream, flush=True)

    if spec.solves:
        # Policy bots of the line-ups play the solutions of the spec's [[solve]] sections: solve (or reuse) first.
        from trustme_analysis.solve.run import ensure_solved

        solved_now = any(not r["reused"] for r in ensure_solved(spec.solves, outdir, quiet=quiet, stream=stream))
    else:
        solved_now = False
    if spec.policies:
        try:
            spec = resolve_policies(spec, outdir, require=True)
        except PolicyError as exc:
            raise SweepError(str(exc)) from None
        if stored is not None:
            _check_outdir(spec, outdir)  # a policy solved again must be the one the stored games were played with
    tasks = chunk_tasks(spec, records)
    done = storage.finished_chunks(outdir, [(t.variant_id, t.chunk_index) for t in tasks])
    todo = [t for t in tasks if (t.variant_id, t.chunk_index) not in done]
    games_done = sum(t.num_games for t in tasks if (t.variant_id, t.chunk_index) in done)

    previous = (stored or {}).get("timing") or {}
    # Same games, different presentation (title, question, baseline): keep the chunks, rewrite manifest and report.
    retitled = stored is not None and stored.get("spec") != json.loads(json.dumps(_spec_dict(spec, outdir)))
    if dask is not None:
        backend_name = "dask"
    elif workers > 1 and len(todo) > 1:
        backend_name = "local"
    else:
        backend_name = "in-process"
    timing = {
        "started": previous.get("started") or now_iso(),
        "finished": previous.get("finished"),
        "seconds": float(previous.get("seconds") or 0.0),
        "games": int(previous.get("games") or 0),
        "games_per_second": previous.get("games_per_second"),
        "workers": workers,
        "backend": backend_name,
        "runs": int(previous.get("runs") or 0),
    }

    # Connect to a Dask cluster before writing anything, so an unreachable scheduler leaves no trace.
    dask_backend = _DaskBackend(dask, workers) if dask is not None and todo else None

    chunks_run = games_played = 0
    started = time.perf_counter()
    if todo or stored is None or not stored.get("complete"):
        outdir.mkdir(parents=True, exist_ok=True)
        removed = storage.remove_temp_files(outdir)
        if removed:
            say(f"removed {removed} half-written chunk file(s) left by an interrupted run")
        write_manifest(outdir, build_manifest(spec, outdir, timing, complete=False))
    if done and todo:
        say(f"resuming: {len(done)} of {len(tasks)} chunks already stored in {outdir}")

    if todo:
        say(
            f"sweep {spec.title!r}: {len(spec.variants)} variant(s) x {spec.games} games = {spec.total_games} games "
            f"in {len(tasks)} chunks -> {outdir}"
        )
        progress = Progress(spec.total_games, games_done, stream=stream, enabled=not quiet)
        runner: Any
        if dask_backend is not None:
            runner = dask_backend
            timing["workers"] = runner.worker_count()
        elif backend_name == "local":
            runner = _LocalPool(min(workers, len(todo)))
        else:
            runner = None
        interrupted = False
        restore_sigterm = _stop_on_sigterm()
        try:
            results = runner.results(todo) if runner is not None else _run_in_process(todo)
            for task, data in results:
                storage.write_chunk(outdir, task.variant_id, task.chunk_index, data)
                chunks_run += 1
                games_played += task.num_games
                progress.update(task.num_games)
        except BaseException:
            interrupted = True
            raise
        finally:
            restore_sigterm()
            if runner is not None:
                runner.close(interrupted)
            elapsed = time.perf_counter() - started
            timing["seconds"] = round(timing["seconds"] + elapsed, 3)
            timing["games"] += games_played
            timing["games_per_second"] = round(timing["games"] / timing["seconds"], 2) if timing["seconds"] else None
            timing["finished"] = now_iso()
            timing["runs"] += 1
            complete = not interrupted and chunks_run == len(todo)
            write_manifest(outdir, build_manifest(spec, outdir, timing, complete=complete))
            if interrupted:
                if progress.enabled:
                    stream.write("\n")
                say(
                    f"stopped: {len(done) + chunks_run} of {len(tasks)} chunks are stored in {outdir}; "
                    "run the same command again to play only the missing ones"
                )
            else:
                progress.close()
    elif stored is not None and stored.get("complete") and not retitled:
        say(f"nothing to do: all {len(tasks)} chunks are already stored in {outdir}")
    else:
        # All chunks are stored; only the manifest is new (e.g. a new title, question or baseline for the same games).
        timing["backend"] = previous.get("backend", timing["backend"])
        timing["workers"] = previous.get("workers", timing["workers"])
        write_manifest(outdir, build_manifest(spec, outdir, timing, complete=True))
        if retitled:
            say(f"all {len(tasks)} chunks are already stored in {outdir}; the manifest now has the spec's new title, "
                "question or baseline")

    checked_now = run_checks(spec, outdir, workers=workers, dask=dask, quiet=quiet, stream=stream)

    report_path: Path | None = None
    if report:
        existing = outdir / REPORT
        if (not todo and not retitled and not solved_now and not checked_now and existing.is_file()
                and stored is not None and stored.get("complete")):
            say(f"report already built: {existing}")
            report_path = existing
        else:
            from trustme_analysis.report import build_report  # the report layer (and matplotlib) only when needed

            try:
                report_path = Path(build_report(outdir))
            except Exception as exc:
                raise ReportError(
                    f"building the report failed ({type(exc).__name__}: {exc}); the records are stored in {outdir}; "
                    f"rebuild the report alone with: python -m trustme_analysis.report {outdir}"
                ) from exc
            say(f"report: {report_path}")
    return SweepResult(
        outdir=outdir,
        chunks_total=len(tasks),
        chunks_run=chunks_run,
        games_played=games_played,
        seconds=time.perf_counter() - started,
        report=report_path,
    )



def run_checks(spec: Spec, outdir: Path, *, workers: int | None, dask: Any, quiet: bool, stream: TextIO) -> bool:
    """Play the sub-sweeps of the spec's ``[trust]`` and ``[skill]`` tables under ``OUTDIR/checks/`` (resuming like
    any sweep); returns whether any game was played now."""
    from trustme_analysis.sweep.checks import CHECKS_DIR, checks_of, write_index

    checks = checks_of(spec)
    if not checks:
        return False
    played = False
    for check in checks:
        sub = parse_spec(check.data, name=check.name)
        if not quiet:
            print(f"check {check.name} ({check.kind}): {len(sub.variants)} line-up(s) x {sub.games} games",
                  file=stream, flush=True)
        result = run_sweep(sub, workers=workers, dask=dask, out=outdir / CHECKS_DIR / check.name, report=False,
                           quiet=True, stream=stream)
        played = played or result.games_played > 0
    write_index(outdir, checks)
    return played
