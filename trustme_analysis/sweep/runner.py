"""Running a sweep: the chunks still missing from the output folder, on a local process pool or a Dask cluster.

Every chunk is computed from its own seed (see :mod:`.seeding`), so which worker plays it and in which order does not
change its records. Workers only compute; this process alone writes files (one Parquet file per chunk, atomically),
so stopping a sweep at any moment leaves only whole chunks, and running it again plays only the missing ones.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import re
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from trustme_analysis.outdir import (
    CHUNKS,
    RECORDS,
    REPORT,
    DamagedFileError,
    chunk_entry,
    chunk_path,
    chunk_problem,
    file_sha256,
    load_manifest,
    manifest_path,
    recorded_chunk,
)
from trustme_analysis.provenance import changed_files
from trustme_analysis.registry import game_entry
from trustme_analysis.specfile import SpecError, check_output_folder
from trustme_analysis.sweep import engines, storage
from trustme_analysis.sweep.chunking import adopt_stored_chunking, chunking_text, predicted_costs, resolve_chunking
from trustme_analysis.sweep.engines import KERNEL, seat_kinds
from trustme_analysis.sweep.manifest import build_manifest, now_iso, write_manifest
from trustme_analysis.sweep.play import ChunkTask, encoded_chunk, iter_chunk_tasks
from trustme_analysis.sweep.policies import (PolicyError, Training, recorded_policies, resolve_policies,
                                             resolve_trained, trainings)
from trustme_analysis.sweep.progress import Progress, WorkLeft
from trustme_analysis.sweep.rescoring import sources
from trustme_analysis.sweep.seeding import SEEDING_SCHEME, game_seeds
from trustme_analysis.sweep.spec import Spec, parse_spec


class SweepError(RuntimeError):
    """The sweep cannot run as asked: the output folder holds another sweep or cannot be written, a bad ``--dask``
    address, Dask missing, ... (the command line exits with status 2). Chunks stored before are kept."""


class SweepFailed(RuntimeError):
    """The sweep stopped part-way: a chunk raised an error, or worker processes kept dying (exit status 1). The
    chunks stored so far are kept; the message says how to go on. The cause, if any, is chained."""


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


class _WorkersLost(Exception):
    """Worker processes died while playing these chunks (killed, out of memory, a crash in native code)."""

    def __init__(self, tasks: Sequence[ChunkTask], deaths: int):
        self.tasks = list(tasks)
        self.deaths = deaths
        super().__init__(", ".join(f"variant {t.variant_id} chunk {t.chunk_index}" for t in self.tasks[:4])
                         + (f" and {len(self.tasks) - 4} more" if len(self.tasks) > 4 else ""))


# --------------------------------------------------------------------------------------------------------- backends

#: Times a sweep replaces a process pool whose worker died before it gives up (a chunk that kills its worker every
#: time would otherwise be retried forever).
MAX_POOL_RESTARTS = 3

#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_SECONDS = 10


def _init_worker(parent_pid: int) -> None:
    # Ctrl-C reaches every process of the terminal's group; only the parent decides how to stop, so workers ignore
    # it (the parent terminates them).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Python games register with pyspiel at import; the chunk player (pandas, pyarrow, the kernels' modules) is
    # imported now, while the parent still prepares, rather than with the first chunk.
    import trustme_analysis.sweep.play  # noqa: F401

    # A killed parent cannot terminate its pool, and pool workers never see their task pipe close (each holds both
    # ends), so each worker watches for its parent to go away and then exits instead of idling forever.
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


#: What a worker returns for a chunk: its task, the Parquet bytes per variant, and the seconds playing it took.
_Played = tuple[ChunkTask, dict[str, bytes], float]


def _run_in_process(tasks: Iterable[ChunkTask]) -> Iterator[_Played]:
    for task in tasks:
        yield _run_chunk_tagged(task)


class ChunkFailed(RuntimeError):
    """Playing one chunk raised an error (in the game, a bot or the records); the message names the chunk."""


def _run_chunk_tagged(task: ChunkTask) -> _Played:
    # Workers return the chunk's Parquet bytes (per variant: a task also records the variants that score its games
    # again): encoding is most of the writing cost, and it then runs in parallel. And the seconds it took, from which
    # the progress line's time left learns what this variant's games cost.
    try:
        tick = time.perf_counter()
        chunks = encoded_chunk(task)
        return task, chunks, time.perf_counter() - tick
    except Exception as exc:
        # Name the chunk: a worker's traceback alone does not say which game string and seeds failed.
        raise ChunkFailed(
            f"variant {task.variant_id} chunk {task.chunk_index} ({task.game_string}, master seed "
            f"{task.master_seed}) failed: {type(exc).__name__}: {exc}"
        ) from exc


class _LocalPool:
    """A pool of ``spawn``ed worker processes (fork is unsafe with OpenSpiel's threads and pandas).

    Tasks are handed out a few at a time (a sweep of many chunks never queues them all). When a worker dies (killed,
    out of memory) :mod:`concurrent.futures` marks the whole pool broken; the chunks it was playing are lost, so a
    fresh pool plays them again, up to :data:`MAX_POOL_RESTARTS` times.
    """

    def __init__(self, workers: int, say: Callable[[str], None], start_now: bool = False):
        self.workers = workers
        self.say = say
        self.deaths = 0
        self.executor = self._start()
        if start_now:
            # The executor spawns a worker per task it cannot hand to an idle one: one trivial task each starts
            # them all now, instead of with the first chunks.
            for _ in range(workers):
                self.executor.submit(int)

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker,
            initargs=(os.getpid(),),
        )

    def results(self, tasks: Iterable[ChunkTask]) -> Iterator[_Played]:
        source = iter(tasks)
        retry: deque[ChunkTask] = deque()
        running: dict[Future, ChunkTask] = {}
        window = 2 * self.workers
        while True:
            while len(running) < window:
                task = retry.popleft() if retry else next(source, None)
                if task is None:
                    break
                running[self.executor.submit(_run_chunk_tagged, task)] = task
            if not running:
                return
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            lost: list[ChunkTask] = []
            for future in sorted(finished, key=lambda f: _task_key(running[f])):
                task = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    lost.append(task)
                    continue
                yield result
            if lost:
                # Every chunk still running or queued in a broken pool fails the same way: all are played again.
                lost += running.values()
                running.clear()
                lost.sort(key=_task_key)
                self.deaths += 1
                if self.deaths > MAX_POOL_RESTARTS:
                    raise _WorkersLost(lost, self.deaths)
                self.say(f"a worker process died (killed, or out of memory): starting new workers to play again the "
                         f"{len(lost)} chunk(s) the pool had in hand ({_WorkersLost(lost, 0)})")
                self._terminate()
                self.executor = self._start()
                retry.extend(lost)

    def _terminate(self) -> None:
        # concurrent.futures has no public way to stop running workers before Python 3.14; its process table is the
        # only handle on them.
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        for proc in processes:
            proc.join(5)

    def close(self, interrupted: bool) -> None:
        if interrupted:
            self._terminate()
        else:
            self.executor.shutdown(wait=True)


def _task_key(task: ChunkTask) -> tuple[int, int]:
    return task.variant_index, task.chunk_index


def _require_dask() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise SweepError(
            "--dask needs dask's distributed scheduler: pip install 'trustme-analysis[dask]' "
            "(or pip install 'dask[distributed]')"
        ) from None


#: A scheduler address: [protocol://]host[:port] (what ``dask.distributed.Client`` accepts, without its exotic forms).
_DASK_ADDRESS = re.compile(
    r"^(?:(?P<scheme>tcp|tls|ws|wss|ucx|inproc)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>\d{1,5}))?/?$"
)


def check_dask(target: Any, probe: bool = False) -> None:
    """Refuse a ``--dask`` value that cannot work, before anything is written: Dask missing, or not an address; with
    ``probe``, also an address where nothing listens (a quick TCP connection, no Dask handshake).

    Raises:
        SweepError: one line naming the value and what is allowed.
    """
    if target is None:
        return
    _require_dask()
    from dask.distributed import Client

    if isinstance(target, Client) or target == "local":
        return
    match = _DASK_ADDRESS.match(str(target)) if isinstance(target, str) else None
    port = int(match["port"]) if match and match["port"] else 8786
    if match is None or not 0 < port < 65536:
        raise SweepError(
            f"--dask: {target!r} is not a Dask scheduler address; allowed: 'local' (a new cluster on this machine) or "
            "an address such as tcp://host:8786"
        )
    if probe:
        _probe_scheduler(str(target))


def _probe_scheduler(address: str) -> None:
    """Fail at once, with the reason, when nothing listens at a TCP scheduler address (instead of a long wait)."""
    match = _DASK_ADDRESS.match(address)
    if match is None or (match["scheme"] or "tcp") != "tcp":
        return  # other protocols: the client's own (bounded) wait decides
    host, port = match["host"].strip("[]"), int(match["port"] or 8786)
    try:
        socket.create_connection((host, port), timeout=DASK_CONNECT_SECONDS).close()
    except socket.gaierror:
        raise SweepError(f"--dask: cannot reach the Dask scheduler at {address!r}: unknown host {host!r}") from None
    except TimeoutError:
        raise SweepError(f"--dask: no Dask scheduler answered at {address!r} within {DASK_CONNECT_SECONDS} s; "
                         "check the address, or start one there with: dask scheduler") from None
    except OSError as exc:
        raise SweepError(f"--dask: cannot reach the Dask scheduler at {address!r}: {exc.strerror or exc}; start "
                         "one there with: dask scheduler (or check the address)") from None


def _connect(client_class: Any, address: str) -> Any:
    """A Client of the scheduler at ``address``, or a one-line :class:`SweepError` within about
    :data:`DASK_CONNECT_SECONDS`: the client's own timeout does not cover a peer that accepts the connection and then
    says nothing, so the wait runs in a thread that is given up on."""
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = client_class(address, timeout=f"{DASK_CONNECT_SECONDS}s")
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(DASK_CONNECT_SECONDS + 2)
    if thread.is_alive():
        raise SweepError(f"--dask: nothing answered as a Dask scheduler at {address!r} within {DASK_CONNECT_SECONDS} "
                         "s (the address accepts connections but says nothing); check the address")
    exc = outcome.get("error")
    if isinstance(exc, (OSError, TimeoutError)):
        raise SweepError(f"--dask: cannot connect to the Dask scheduler at {address!r} within {DASK_CONNECT_SECONDS} "
                         f"s: {_first_line(exc)}")
    if exc is not None:  # something listens there, but it does not speak Dask's protocol
        raise SweepError(f"--dask: what answers at {address!r} is not a Dask scheduler ({type(exc).__name__}: "
                         f"{_first_line(exc)}); check the address")
    return outcome["client"]


class _DaskBackend:
    """Chunks as Dask futures on a cluster given by address, ``"local"`` (a new LocalCluster) or a Client."""

    def __init__(self, target: Any, workers: int, say: Callable[[str], None]):
        _require_dask()
        from dask.distributed import Client, LocalCluster

        self._owned: list[Any] = []
        if isinstance(target, Client):
            self.client = target
        elif target == "local":
            import logging

            # The cluster's processes inherit an ignored SIGINT, so Ctrl-C stops the sweep through this process alone
            # (which cancels their work) instead of every worker printing its own traceback.
            with _sigint_ignored():
                cluster = LocalCluster(
                    # CRITICAL, not ERROR: a worker whose scheduler closed first (Ctrl-C on a loaded machine) logs
                    # its failed heartbeat at ERROR with a traceback; a chunk's own failure reaches this process
                    # through its future, so nothing a user needs is lost.
                    n_workers=workers, threads_per_worker=1, processes=True, silence_logs=logging.CRITICAL,
                    dashboard_address=None,  # no port to collide with; the progress line is on stderr
                )
            self.client = Client(cluster)
            self._owned = [self.client, cluster]
        else:
            address = str(target)
            _probe_scheduler(address)
            say(f"connecting to the Dask scheduler at {address} (waiting up to {DASK_CONNECT_SECONDS} s)")
            self.client = _connect(Client, address)
            self._owned = [self.client]
        self.futures: dict[Any, ChunkTask] = {}

    def worker_count(self) -> int:
        """Worker threads of the cluster (what plays chunks at the same time)."""
        try:
            return sum(int(w.get("nthreads", 1)) for w in self.client.scheduler_info()["workers"].values())
        except Exception:  # informational only; an old or unusual scheduler may not say
            return 0

    def results(self, tasks: Iterable[ChunkTask]) -> Iterator[_Played]:
        from dask.distributed import KilledWorker, as_completed

        source = iter(tasks)
        pending = as_completed()

        def submit(count: int) -> None:
            for task in itertools.islice(source, count):
                future = self.client.submit(_run_chunk_tagged, task, pure=False)
                self.futures[future] = task
                pending.add(future)

        # A few chunks per worker thread are queued at a time, so the scheduler never holds a huge sweep's tasks.
        submit(max(4, 2 * self.worker_count()))
        for future in pending:
            task = self.futures.pop(future)
            try:
                result = future.result()
            except KilledWorker:
                raise _WorkersLost([task, *self.futures.values()], MAX_POOL_RESTARTS + 1) from None
            yield result
            submit(1)

    def close(self, interrupted: bool) -> None:
        if interrupted and self.futures:
            try:
                self.client.cancel(list(self.futures))
            except Exception:  # the cluster is going away anyway; stopping must not fail on it
                pass
        for thing in self._owned:
            try:
                thing.close()
            except Exception:
                pass


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


# ------------------------------------------------------------------------------------------------------------ sweep


def _stop_on_sigterm() -> Any:
    """Treat SIGTERM (``kill PID``) like Ctrl-C while chunks run, so workers are stopped and the manifest is saved."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


def _warm_up_kernels(spec: Spec, done: Container[tuple[str, int]], progress: Progress) -> None:
    """Build the compiled code of every kernel the sweep's remaining chunks use, here, before workers start: numba
    compiles on a machine's first run (it can take a minute; the progress line says so) and caches the result on disk,
    from which the workers and later runs load it in about a second."""
    needed = {}
    for v in spec.variants:
        if v.engine == KERNEL and any((v.id, c) not in done for c in range(spec.chunks_of(v))):
            needed.setdefault((v.game_string, seat_kinds(v.lineup, v.num_players)), None)
    if not needed:
        return
    # Loading from the cache takes under a second or two; only a longer wait is a compile worth a note.
    timer = threading.Timer(1.0, progress.note, args=("compiling (first run only)",))
    timer.daemon = True
    timer.start()
    try:
        for game_string, kinds in needed:
            engines.warm_up(game_string, kinds)
    finally:
        timer.cancel()
    progress.restart_clock()  # the rate and time left count games played, not the compile


def resolve_outdir(spec: Spec, out: str | Path | None) -> Path:
    """The output folder: ``out`` if given, else the spec's; an empty ``out`` is refused (it would be the current
    folder)."""
    if out is not None and not str(out).strip():
        raise SweepError("--out: must be a folder path, got an empty string")
    return Path(out if out is not None else spec.out)


def check_outdir(spec: Spec, outdir: Path) -> dict[str, Any] | None:
    """The stored manifest if ``outdir`` holds this spec's sweep, ``None`` if it holds none; reads only.

    Raises:
        SweepError: ``outdir`` cannot be written, holds another spec's sweep, or its manifest is damaged.
    """
    try:
        check_output_folder(outdir, inner=(RECORDS,))
    except SpecError as exc:  # (the same check as every command's --out, raised as the sweep's own error type)
        raise SweepError(str(exc)) from None
    if not manifest_path(outdir).is_file():
        # The manifest is written before the first chunk, so chunks without one were not made by a sweep run.
        if storage.stray_chunks(outdir, []):
            raise SweepError(f"{outdir} holds record chunks but no manifest; choose another --out or empty it")
        return None
    try:
        stored = load_manifest(outdir)
    except DamagedFileError as exc:
        raise SweepError(str(exc)) from None
    current = json.loads(json.dumps(spec.data_fingerprint()))
    if stored.get("fingerprint") != current or stored.get("seeding_scheme") != SEEDING_SCHEME:
        old = stored.get("fingerprint") if isinstance(stored.get("fingerprint"), dict) else {}
        differing = sorted(k for k in set(old) | set(current) if old.get(k) != current.get(k)) or ["seeding"]
        if differing == ["code"]:
            # Same spec, other code: chunks of two versions of the rules or the bots must not mix.
            raise SweepError(
                f"{outdir} holds a sweep played by other code than this installation's (changed since: "
                f"{changed_files(old.get('code'), current['code'])}); choose another --out or delete the folder "
                "to play it again with this code"
            )
        raise SweepError(
            f"{outdir} holds a sweep made from a different spec (differs in: {', '.join(differing)}); "
            "choose another --out (or out = ... in the spec) or delete the folder to start over"
        )
    had = stored.get("games_per_variant")
    if isinstance(had, int) and had > spec.games:
        raise SweepError(
            f"{outdir} holds {had} games per variant and the spec asks for {spec.games}: a sweep can grow (raise "
            f"games, and the stored games are kept) but not shrink; set games = {had} or more, or choose another --out"
        )
    for entry in stored.get("variants") or []:
        variant = next((v for v in spec.variants if isinstance(entry, dict) and v.id == entry.get("id")), None)
        had = entry.get("games") if isinstance(entry, dict) else None
        if variant is not None and isinstance(had, int) and had > spec.games_of(variant):
            raise SweepError(
                f"{outdir} holds {had} games of variant {variant.id} and line-up {variant.lineup.name!r} now asks for "
                f"{spec.games_of(variant)}: a sweep can grow but not shrink; set lineups.{variant.lineup.name}.games "
                f"= {had} or more, or choose another --out"
            )
    return stored


def _spec_dict(spec: Spec, outdir: Path) -> dict[str, Any]:
    # As the manifest stores it (see build_manifest).
    return {**spec.as_dict(), "out": str(outdir)}


def _sound_chunks(
    spec: Spec, outdir: Path, stored: dict[str, Any] | None
) -> tuple[dict[str, dict[int, dict[str, Any]]], list[str], dict[tuple[str, int], int]]:
    """The stored chunks that can be kept, with their manifest entries; a line for each one that cannot; and the
    stored chunks to grow (a sweep's last chunk, when ``games`` was raised), with their games stored.

    A chunk the manifest has a checksum for must match it; a chunk it has none for (its run was killed before
    recording it, or the sweep predates checksums) must hold this variant's and chunk's games and seeds, and its
    checksum is recorded now. Any other chunk file is played again.
    """
    growing: dict[tuple[str, int], int] = {}
    present = storage.stored_chunk_indices(outdir, [v.id for v in spec.variants])
    entries: dict[str, dict[int, dict[str, Any]]] = {v.id: {} for v in spec.variants}
    bad: list[str] = []
    for variant in spec.variants:
        for c in sorted(present[variant.id]):
            if c >= spec.chunks_of(variant):
                continue
            path = chunk_path(outdir, variant.id, c)
            recorded = recorded_chunk(stored, variant.id, c) if stored else None
            games = spec.chunk_games(c, variant)
            if recorded is not None:
                problem = chunk_problem(outdir, stored or {}, variant.id, c)
                have = recorded.get("games")
                if problem is None and isinstance(have, int) and 0 < have < len(games):
                    # The sweep grew: the chunk's first games are stored, the task plays only the later ones.
                    growing[(variant.id, c)] = have
                    continue
                if problem is None and have != len(games):
                    problem = f"records {have} games, not {len(games)}"
            else:
                seeds = game_seeds(spec.seed, games.start, len(games))
                problem = storage.unrecorded_chunk_problem(path, variant.id, c, games, seeds)
            if problem is not None:
                bad.append(f"{path} {problem}")
                continue
            if recorded is not None:
                entries[variant.id][c] = {"sha256": recorded["sha256"], "games": len(games)}
            else:
                entries[variant.id][c] = {"sha256": file_sha256(path), "games": len(games)}
    return entries, bad, growing


def _stored_text(done: int, total: int, outdir: Path, first: str = "") -> str:
    return (f"{done} of {total} chunks are stored in {outdir}; {first}run the same command again to play only the "
            "missing ones")


@dataclass
class SweepRun:
    """One sweep on its way through the stages of :func:`run_sweep`: what :func:`prepare_stage` found, and what each
    later stage did (a notebook can call the stages one by one)."""

    spec: Spec
    outdir: Path
    workers: int
    dask: Any
    quiet: bool
    stream: TextIO
    #: Whether the progress line shows (by default: unless quiet; a check's sub-sweep shows it alone).
    progress: bool
    #: The manifest already in the output folder (``None``: a new folder).
    stored: dict[str, Any] | None
    #: The game's records part.
    records: Any
    #: Set by :func:`solve_stage`: whether a policy was solved now (not reused).
    solved_now: bool = False
    #: Set by :func:`train_stage`: whether a trained policy was trained now (not reused).
    trained_now: bool = False
    #: Set by :func:`play_stage`.
    chunks_total: int = 0
    chunks_run: int = 0
    games_played: int = 0
    seconds: float = 0.0
    #: Set by :func:`play_stage`: whether the manifest or the records changed now (so the report is drawn again).
    changed: bool = False
    #: Set by :func:`checks_stage`: whether a check played games now.
    checked_now: bool = False

    def say(self, text: str) -> None:
        """A message to the run's stream (none when quiet)."""
        if not self.quiet:
            print(text, file=self.stream, flush=True)

    def result(self, report: Path | None = None) -> SweepResult:
        """The sweep's outcome."""
        return SweepResult(outdir=self.outdir, chunks_total=self.chunks_total, chunks_run=self.chunks_run,
                           games_played=self.games_played, seconds=self.seconds, report=report)


def prepare_stage(spec: Spec, *, workers: int | None = None, dask: Any = None, out: str | Path | None = None,
                  quiet: bool = False, stream: TextIO | None = None, progress: bool | None = None) -> SweepRun:
    """The first stage: everything checked before anything is written (the output folder, the Dask address, the
    stored policies and chunk sizes a folder was played with); raises :class:`SweepError` if the sweep cannot run."""
    stream = stream if stream is not None else sys.stderr
    outdir = resolve_outdir(spec, out)
    workers = max(1, int(workers if workers is not None else (os.cpu_count() or 1)))
    check_dask(dask)  # before anything is written
    # Policy seats: the fingerprints of the policies stored now are part of the data fingerprint (sweep/policies.py).
    spec = resolve_policies(spec, outdir, require=False)
    # A spec without chunk_size resumes with the chunk sizes its folder was played with.
    spec = adopt_stored_chunking(spec, outdir)
    stored = check_outdir(spec, outdir)
    return SweepRun(spec=spec, outdir=outdir, workers=workers, dask=dask, quiet=quiet, stream=stream,
                    progress=not quiet if progress is None else progress, stored=stored,
                    records=game_entry(spec.game).part("records"))


def solve_stage(run: SweepRun) -> None:
    """Solve (or reuse) the spec's ``[[solve]]`` sections that policy seats play, then resolve the policy seats."""
    spec = run.spec
    if spec.solves:
        from trustme_analysis.solve.run import ensure_solved

        try:
            solved = ensure_solved(spec.solves, run.outdir, quiet=run.quiet, stream=run.stream)
        except ValueError as exc:  # a section that cannot be solved (a tree too large, ...): one line, as for solve
            raise SweepError(str(exc)) from None
        run.solved_now = any(not r["reused"] for r in solved)
    if spec.policies:
        try:
            run.spec = resolve_policies(spec, run.outdir, require=True)
        except PolicyError as exc:
            raise SweepError(str(exc)) from None
        if run.stored is not None:
            check_outdir(run.spec, run.outdir)  # a policy solved again must be the one the stored games were played with


# ------------------------------------------------------------------------------------------------------ train stage

#: Seconds between two progress lines of one training (the trainer reports every two CPU seconds).
TRAIN_PROGRESS_SECONDS = 5.0


def _progress_file(t: Training) -> Path:
    return Path(t.outdir) / "train" / f".progress-{t.fingerprint}.txt"


def _train_task(t: Training, progress_file: str | None) -> dict[str, Any]:
    """Train one policy (in a worker): its summary. Progress lines go to ``progress_file`` (read by the sweep)."""
    from trustme_analysis.atomic import atomic_path
    from trustme_analysis.train import train

    def report(line: str) -> None:
        if progress_file is not None:
            with atomic_path(progress_file) as tmp:
                Path(tmp).write_text(line, encoding="utf-8")

    return train(t.game_string, t.settings, t.outdir, report).summary


def _budget_text(t: Training) -> str:
    s = t.settings
    return f"{s.iterations:,} iterations" if s.iterations is not None else f"{s.seconds:g} CPU s"


def train_stage(run: SweepRun) -> None:
    """Train (or reuse) the policies the spec's trained seats play, under ``OUTDIR/train/``
    (:func:`trustme_analysis.train.train`): one per game string and settings, the distinct ones in parallel on the
    sweep's workers (local pool) or its Dask cluster; then resolve the trained seats
    (:func:`~trustme_analysis.sweep.policies.resolve_trained`), whose policies' digests enter the data fingerprint.

    An iteration budget trains the same policy on any number of workers (each iteration depends only on the seed,
    its number and the tables), so the same spec gives the same games. A stored policy is reused; a stale one
    (other training code) is trained again, and a stored sweep goes on only if it comes out the same.
    """
    needed = trainings(run.spec, run.outdir)
    if not needed:
        return
    from trustme_analysis.train import stored as stored_policy

    todo = [t for t in needed if stored_policy(t.game_string, t.settings, t.outdir) is None]
    if len(todo) < len(needed):
        run.say(f"train: {len(needed) - len(todo)} of {len(needed)} trained policies already stored under "
                f"{run.outdir / 'train'}: reused")
    if todo:
        _train_all(run, todo)
        run.trained_now = True
        engines.kernel_player.cache_clear()  # a kernel built earlier in this process may hold an older policy
    try:
        run.spec = resolve_trained(run.spec, run.outdir, require=True)
    except PolicyError as exc:
        raise SweepError(str(exc)) from None
    if run.stored is not None:
        recorded = recorded_policies(run.outdir)
        changed = sorted(k for k, v in run.spec.policies.items()
                         if k.startswith("trained:") and k in recorded and recorded[k] != v)
        if changed:
            raise SweepError(
                f"{run.outdir} holds games played by another trained policy than the one trained now "
                f"({', '.join(changed)}: a seconds budget, or training code changed since); choose another --out "
                "or delete the folder to start over")
        check_outdir(run.spec, run.outdir)


def _train_all(run: SweepRun, todo: list[Training]) -> None:
    """Train ``todo`` in this process (one worker, or one training), on a local pool, or on the Dask cluster."""
    from trustme_analysis.train import train

    workers = min(run.workers, len(todo))
    where = "dask" if run.dask is not None else ("local" if workers > 1 else "in-process")
    run.say(f"train: {len(todo)} polic{'y' if len(todo) == 1 else 'ies'} to train "
            f"({', '.join(sorted({_budget_text(t) for t in todo}))} each) "
            + (f"on {workers} workers " if where == "local" else "on the Dask cluster " if where == "dask" else "")
            + f"-> {run.outdir / 'train'}")
    started = time.perf_counter()
    if where == "in-process":
        last = [0.0]

        def say_now_and_then(line: str) -> None:
            if ": done, " not in line and time.monotonic() - last[0] >= TRAIN_PROGRESS_SECONDS:  # (said below)
                last[0] = time.monotonic()
                run.say(line)

        for t in todo:
            summary = train(t.game_string, t.settings, t.outdir,
                            lambda line, t=t: say_now_and_then(_named(line, t))).summary
            run.say(_trained_line(t, summary))
    else:
        _train_parallel(run, todo, workers, where)
    run.say(f"train: {len(todo)} trained in {time.perf_counter() - started:.0f} s")


def _named(line: str, t: Training) -> str:
    """A trainer's progress line with the variants it trains for in place of the game's name."""
    return re.sub(r"^train \S+ \[", f"train {', '.join(t.variants)} [", line, count=1)


def _trained_line(t: Training, summary: dict[str, Any]) -> str:
    return (f"train {', '.join(t.variants)} [{t.fingerprint}]: {summary['iterations']:,} iterations in "
            f"{summary['cpu_seconds']:.1f} CPU s, {summary['slots']:,} slots, regret proxy "
            f"{summary['quality_proxy']:.3g}")


def longest_first(todo: Sequence[Training]) -> list[Training]:
    """The trainings in the order the workers should take them: the longest first (an iteration budget times the
    game's players, who each add decisions to a sampled game; a seconds budget as it is), so that the short ones fill
    the gaps at the end (the default sweep's 4-player policy, taken last, had one worker train it alone for most of its
    time while the other idled). The policies do not depend on the order."""
    import pyspiel

    def cost(t: Training) -> float:
        # A seconds budget counted as the iterations of Pinocchio's two-player training in that time (about 20,000
        # a CPU second): a rough common unit, enough to order them.
        budget = t.settings.iterations if t.settings.iterations is not None else (t.settings.seconds or 0.0) * 20_000
        return float(budget) * pyspiel.load_game(t.game_string).num_players()

    return sorted(todo, key=cost, reverse=True)  # (stable: equal costs keep the variant order)


def _train_parallel(run: SweepRun, todo: list[Training], workers: int, where: str) -> None:
    from concurrent.futures import wait as wait_futures

    from trustme_analysis.train import TrainSettings, train

    # Compile (or load) the trainer's code here first, so the workers load it from numba's cache instead of each
    # compiling it (a minute on a machine's first run).
    with tempfile.TemporaryDirectory() as tmp:
        train(todo[0].game_string, TrainSettings(iterations=1, seed=0), tmp)
    backend: Any = None
    pool: ProcessPoolExecutor | None = None
    if where == "dask":
        backend = _DaskBackend(run.dask, workers, run.say)
        submit = lambda t: backend.client.submit(_train_task, t, str(_progress_file(t)), pure=False)  # noqa: E731
    else:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker, initargs=(os.getpid(),))
        submit = lambda t: pool.submit(_train_task, t, str(_progress_file(t)))  # noqa: E731
    running = {submit(t): t for t in longest_first(todo)}
    shown: dict[str, tuple[str, float]] = {}
    restore_sigterm = _stop_on_sigterm()
    interrupted = True
    try:
        while running:
            if pool is not None:
                finished = wait_futures(list(running), timeout=1.0, return_when=FIRST_COMPLETED)[0]
            else:
                time.sleep(1.0)
                finished = [f for f in running if f.done()]
            for future in finished:
                t = running.pop(future)
                try:
                    summary = future.result()
                except Exception as exc:
                    raise SweepFailed(f"training the policy of {', '.join(t.variants)} ({t.game_string}, "
                                      f"{_budget_text(t)}) failed: {type(exc).__name__}: {_first_line(exc)}; the "
                                      "trainings done are stored, run the same command again to train the rest"
                                      ) from exc
                run.say(_trained_line(t, summary))
                with contextlib.suppress(OSError):
                    _progress_file(t).unlink()
            now = time.monotonic()
            for t in running.values():
                try:
                    line = _progress_file(t).read_text(encoding="utf-8").strip()
                except OSError:
                    continue
                before = shown.get(t.fingerprint)
                if line and (before is None or (line != before[0] and now - before[1] >= TRAIN_PROGRESS_SECONDS)):
                    shown[t.fingerprint] = (line, now)
                    run.say(_named(line, t))
        interrupted = False
    except KeyboardInterrupt:
        run.say("stopped while training: the trainings write checkpoints every 30 CPU s; run the same command again "
                "to resume them")
        raise
    finally:
        restore_sigterm()
        if pool is not None:
            if interrupted:
                processes = list((getattr(pool, "_processes", None) or {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for proc in processes:
                    if proc.is_alive():
                        proc.terminate()
                for proc in processes:
                    proc.join(5)
            else:
                pool.shutdown(wait=True)
        if backend is not None:
            if interrupted:
                with contextlib.suppress(Exception):
                    backend.client.cancel(list(running))
            backend.close(interrupted=interrupted)


def _work_left(spec: Spec, done: set[tuple[str, int]], growing: dict[tuple[str, int], int],
               measured: dict[str, float], workers: int) -> WorkLeft:
    """The games each played variant has still to play, with their predicted cost, for the progress line's time
    left. Counted per variant, not per task (a huge sweep never makes all its tasks): a variant whose games are
    another's scored again plays none; its source plays the chunks either lacks (the more of the two, as their
    chunks are alike)."""
    by_id = {v.id: v for v in spec.variants}
    stored = dict.fromkeys(by_id, 0)
    for vid, c in done:
        stored[vid] += len(spec.chunk_games(c, by_id[vid]))
    for (vid, _), games in growing.items():
        stored[vid] += games
    source_of = sources(spec)
    left: dict[str, int] = {}
    for v in spec.variants:
        payer = source_of.get(v.id, v.id)
        left[payer] = max(left.get(payer, 0), spec.games_of(v) - stored[v.id])
    return WorkLeft(left, predicted_costs(spec, measured), workers, kinds={v.id: v.engine for v in spec.variants})


def play_stage(run: SweepRun) -> None:
    """Play every chunk not yet stored (resuming what a stopped run left), writing chunks and the manifest as it
    goes; an interrupted stage records what it stored and raises."""
    spec, outdir, workers, dask, stream = run.spec, run.outdir, run.workers, run.dask, run.stream
    stored, records, say = run.stored, run.records, run.say
    # Chunk sizes left open (no chunk_size in the spec, none stored) are chosen now from the measured cost of a game.
    spec, measured = resolve_chunking(spec, say)
    entries, bad, growing = _sound_chunks(spec, outdir, stored)
    for line in bad:
        say(f"{line}: playing it again")
    done = {(vid, c) for vid, chunks in entries.items() for c in chunks}
    total = spec.total_chunks
    todo_count = total - len(done)
    by_id = {v.id: v for v in spec.variants}
    games_done = sum(len(spec.chunk_games(c, by_id[vid])) for vid, c in done) + sum(growing.values())
    recorded_changed = stored is not None and (stored.get(CHUNKS) or {}) != {
        vid: {str(c): e for c, e in sorted(chunks.items())} for vid, chunks in entries.items() if chunks
    }

    previous = (stored or {}).get("timing") or {}
    # Same games, different presentation (title, question, baseline): keep the chunks, rewrite manifest and report.
    retitled = stored is not None and stored.get("spec") != json.loads(json.dumps(_spec_dict(spec, outdir)))
    if dask is not None:
        backend_name = "dask"
    elif workers > 1 and todo_count > 1:
        backend_name = "local"
    else:
        backend_name = "in-process"
    cores = os.cpu_count() or 1
    if todo_count > 1 and workers > cores and (dask is None or dask == "local"):
        say(f"warning: --workers {workers} is more than the {cores} core(s) of this machine: the extra workers only "
            f"share the cores, so the sweep runs slower and needs more memory (--workers {cores} is faster)")
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
    dask_backend = _DaskBackend(dask, workers, say) if dask is not None and todo_count else None

    def save_manifest(complete: bool) -> None:
        write_manifest(outdir, build_manifest(spec, outdir, timing, complete=complete, chunks=entries))

    chunks_run = games_played = 0
    started = time.perf_counter()
    if todo_count or stored is None or not stored.get("complete"):
        try:
            outdir.mkdir(parents=True, exist_ok=True)
            removed = storage.remove_temp_files(outdir)
            save_manifest(complete=False)
        except OSError as exc:
            if dask_backend is not None:
                dask_backend.close(interrupted=True)
            raise SweepError(f"cannot write to the output folder {str(outdir)!r}: {exc.strerror or exc}") from None
        if removed:
            say(f"removed {removed} half-written file(s) left by an interrupted run")
    if done and todo_count:
        say(f"resuming: {len(done)} of {total} chunks already stored in {outdir}")

    if todo_count:
        say(
            f"sweep {spec.title!r}: {len(spec.variants)} variant(s) x {spec.games} games{spec.fewer_games_note()} = "
            f"{spec.total_games} games "
            f"in {total} chunks -> {outdir}" + (f" ({chunking_text(spec)})" if spec.chunk_auto else "")
        )
        progress = Progress(spec.total_games, games_done, stream=stream, enabled=run.progress)
        runner: Any
        if dask_backend is not None:
            runner = dask_backend
            timing["workers"] = runner.worker_count()
        elif backend_name == "local":
            # Started first: the workers import the package (about a second each) while this process loads or
            # compiles the kernels; they touch the kernels only with their first chunk, after that.
            runner = _LocalPool(min(workers, todo_count), say, start_now=True)
        else:
            runner = None
        if isinstance(runner, _LocalPool):
            in_use = runner.workers
        else:  # a cluster that does not say its threads is counted as --workers
            in_use = (timing["workers"] or workers) if dask_backend is not None else 1
        try:
            work = progress.work = _work_left(spec, done, growing, measured, in_use)
            _warm_up_kernels(spec, done, progress)
        except BaseException:
            if runner is not None:
                runner.close(interrupted=True)
            raise
        todo = iter_chunk_tasks(spec, records, skip=done, stored_games=growing, rescore=True)
        interrupted = False
        failure: BaseException | None = None
        raise_as: Exception | None = None
        manifest_saved_at = time.monotonic()
        manifest_cost = 0.0
        restore_sigterm = _stop_on_sigterm()
        try:
            results = runner.results(todo) if runner is not None else _run_in_process(todo)
            for task, chunks, seconds in results:
                work.chunk_done(task.variant_id, task.num_games, seconds)
                for vid, data in chunks.items():
                    path = chunk_path(outdir, vid, task.chunk_index)
                    try:
                        if task.stored_games:
                            data = storage.grown_chunk(path, data)
                        storage.write_chunk(outdir, vid, task.chunk_index, data)
                    except OSError as exc:
                        raise _OutputFailed(path, exc) from None
                    entries[vid][task.chunk_index] = chunk_entry(data, task.stored_games + task.num_games)
                    chunks_run += 1
                    games_played += task.num_games
                    progress.update(task.num_games)
                # The manifest carries the chunks' checksums: rewrite it now and then (not after every chunk: it
                # grows with the sweep), so a killed run leaves few chunks whose checksum must be recomputed.
                if time.monotonic() - manifest_saved_at > max(10.0, 20 * manifest_cost):
                    tick = time.monotonic()
                    try:
                        save_manifest(complete=False)
                    except OSError as exc:
                        raise _OutputFailed(manifest_path(outdir), exc) from None
                    manifest_saved_at = time.monotonic()
                    manifest_cost = manifest_saved_at - tick
        except BaseException as exc:
            interrupted = True
            failure = exc
            raise_as = _stop_reason(exc, len(done) + chunks_run, total, outdir)
        finally:
            restore_sigterm()
            if runner is not None:
                try:
                    runner.close(interrupted)
                except Exception:
                    if not interrupted:
                        raise
                    # Stopping already: a backend that fails to close must not hide why the sweep stopped.
            elapsed = time.perf_counter() - started
            timing["seconds"] = round(timing["seconds"] + elapsed, 3)
            timing["games"] += games_played
            timing["games_per_second"] = round(timing["games"] / timing["seconds"], 2) if timing["seconds"] else None
            timing["finished"] = now_iso()
            timing["runs"] += 1
            complete = not interrupted and len(done) + chunks_run == total
            try:
                save_manifest(complete=complete)
            except OSError:
                # The folder stopped taking files (full, read-only): the chunks are whole and the next run checks
                # the ones the manifest lacks, so nothing is lost.
                pass
            if interrupted:
                if progress.enabled and progress.tty:
                    stream.write("\n")
                if isinstance(failure, KeyboardInterrupt):
                    say(f"stopped: {_stored_text(len(done) + chunks_run, total, outdir)}")
            else:
                progress.close()
        if failure is not None:
            if raise_as is None:
                raise failure
            # A chunk's error keeps its cause (the worker's traceback, for the log); the others say all there is.
            raise raise_as from (failure if isinstance(failure, ChunkFailed) else None)
    elif stored is not None and stored.get("complete") and not retitled and not recorded_changed:
        say(f"nothing to do: all {total} chunks are already stored in {outdir}")
    else:
        # All chunks are stored; only the manifest is new (a new title, question or baseline for the same games, or
        # the checksums of chunks an older run or a killed one did not record).
        timing["backend"] = previous.get("backend", timing["backend"])
        timing["workers"] = previous.get("workers", timing["workers"])
        try:
            save_manifest(complete=True)
        except OSError as exc:
            raise SweepError(f"cannot write {manifest_path(outdir)}: {exc.strerror or exc}") from None
        if retitled:
            now = "has the spec's new title, question or baseline"
        elif recorded_changed:
            now = "records their checksums"
        else:
            now = "marks the sweep complete"
        say(f"all {total} chunks are already stored in {outdir}; the manifest now {now}")

    run.spec = spec
    run.chunks_total, run.chunks_run, run.games_played = total, chunks_run, games_played
    run.seconds = time.perf_counter() - started
    run.changed = bool(todo_count or retitled or recorded_changed)


def checks_stage(run: SweepRun) -> None:
    """Play the spec's ``[trust]`` and ``[skill]`` checks (:func:`run_checks`)."""
    run.checked_now = run_checks(run.spec, run.outdir, workers=run.workers, dask=run.dask, quiet=run.quiet,
                                 stream=run.stream)


def report_stage(run: SweepRun) -> Path:
    """Draw the PDF report from the results set, unless the stored one is still current."""
    existing = run.outdir / REPORT
    stored = run.stored
    if (not run.changed and not run.solved_now and not run.checked_now and existing.is_file()
            and stored is not None and stored.get("complete")):
        run.say(f"report already built: {existing}")
        return existing
    from trustme_analysis.report import build_report  # the report layer (and matplotlib) only when needed

    try:
        path = Path(build_report(run.outdir))
    except Exception as exc:
        raise ReportError(
            f"building the report failed ({type(exc).__name__}: {_first_line(exc)}); the records are stored "
            f"in {run.outdir}; rebuild the report alone with: python -m trustme_analysis.report {run.outdir}"
        ) from exc
    run.say(f"report: {path}")
    return path


def run_sweep(
    spec: Spec,
    *,
    workers: int | None = None,
    dask: Any = None,
    out: str | Path | None = None,
    report: bool = True,
    quiet: bool = False,
    stream: TextIO | None = None,
    progress: bool | None = None,
) -> SweepResult:
    """Play every chunk of ``spec`` not yet stored in the output folder, then (optionally) build the report.

    The stages, each done once and each a function of its own: :func:`prepare_stage` (check everything before
    anything is written), :func:`solve_stage` (policies the line-ups play), :func:`train_stage` (the trained policies
    the trained seats play), :func:`play_stage` (the chunks),
    :func:`checks_stage` (the ``[trust]`` and ``[skill]`` checks) and :func:`report_stage` (the PDF).

    Args:
        spec: the validated spec.
        workers: worker processes (default: all cores); 1 plays in this process.
        dask: ``None`` for the local pool; ``"local"`` for a new Dask LocalCluster of ``workers`` processes; a
            scheduler address; or a ``dask.distributed.Client`` to use as is.
        out: output folder (default: the spec's ``out``).
        report: build the PDF report at the end (``build_report`` of :mod:`trustme_analysis.report`).
        quiet: no progress line or messages.
        stream: where progress and messages go (stderr by default).
        progress: show the progress line (default: unless ``quiet``; ``quiet=True, progress=True`` shows the line
            alone, as a check's sub-sweep does).

    Raises:
        SweepError: nothing can run as asked (another spec's sweep in the folder, a folder that cannot be written, a
            bad Dask address, ...), or the folder stopped taking files part-way (the chunks stored are kept).
        SweepFailed: a chunk failed, or worker processes kept dying; the chunks stored so far are kept.
        KeyboardInterrupt: after stopping the workers and recording the stored chunks (run again to resume).
    """
    run = prepare_stage(spec, workers=workers, dask=dask, out=out, quiet=quiet, stream=stream, progress=progress)
    solve_stage(run)
    train_stage(run)
    play_stage(run)
    checks_stage(run)
    return run.result(report_stage(run) if report else None)


class _OutputFailed(Exception):
    """Writing a file of the output folder failed part-way (full disk, a folder turned read-only)."""

    def __init__(self, path: Path, error: OSError):
        self.path = path
        self.error = error
        super().__init__(f"cannot write {path}: {error.strerror or error}")


def _stop_reason(exc: BaseException, stored: int, total: int, outdir: Path) -> Exception | None:
    """The one-line error a sweep stopped by ``exc`` ends with (``None``: re-raise ``exc`` itself)."""
    if isinstance(exc, _OutputFailed):
        return SweepError(f"{exc}; {_stored_text(stored, total, outdir, 'free space (or make the folder writable), then ')}")
    if isinstance(exc, _WorkersLost):
        return SweepFailed(f"worker processes died {exc.deaths} times (killed, or out of memory), the last time "
                           f"with these chunks in hand: {exc}; {_stored_text(stored, total, outdir)}")
    if isinstance(exc, ChunkFailed):
        return SweepFailed(f"{exc}; {_stored_text(stored, total, outdir, 'fix the cause (this chunk fails again until then), ')}")
    return None


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
        # The check's own sweep shows its progress line (games/s, ETA) under this line, and nothing else.
        result = run_sweep(sub, workers=workers, dask=dask, out=outdir / CHECKS_DIR / check.name, report=False,
                           quiet=True, stream=stream, progress=not quiet)
        played = played or result.games_played > 0
    write_index(outdir, checks)
    return played
