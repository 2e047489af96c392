"""Where a tuning's chunks of games are played: in this process, on a pool of local processes, or on a Dask cluster.

Workers only play: each returns a chunk's records as Parquet bytes (:func:`play_chunk`), and the tuning's own process
writes every file, as in a sweep, so a Dask cluster needs no access to the output folder and a killed run leaves only
whole chunk files.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol

from trustme_analysis.sweep.play import ChunkTask, encoded_chunk


def play_chunk(task: ChunkTask) -> bytes:
    """Play one chunk of a candidate's games; its records as Parquet bytes."""
    try:
        # A kernel's chunk goes through Arrow arrays (no Python object per game); the bytes are the row path's.
        return encoded_chunk(dataclasses.replace(task, own=True))[task.variant_id]
    except Exception as exc:
        # A worker's traceback alone does not say which rule set and chunk failed.
        raise RuntimeError(f"chunk {task.chunk_index} of {task.game_string} (seed {task.master_seed}) failed: "
                           f"{type(exc).__name__}: {exc}") from exc


class Executor(Protocol):
    """Plays chunks; ``submit`` may be called from several threads."""

    workers: int

    def submit(self, task: ChunkTask) -> Future: ...

    def close(self, interrupted: bool) -> None: ...


class InProcess:
    """Plays each chunk in the calling thread (``--workers 1``: deterministic and easy to debug)."""

    workers = 1

    def submit(self, task: ChunkTask) -> Future:
        future: Future = Future()
        try:
            future.set_result(play_chunk(task))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def close(self, interrupted: bool) -> None:
        pass


def _init_worker(parent_pid: int) -> None:
    # Ctrl-C reaches the whole process group; the parent decides how to stop, so workers ignore it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import trustme_analysis  # noqa: F401  (Python games register with pyspiel at import)

    # A parent killed with SIGKILL cannot stop its pool: each worker leaves when its parent is gone.
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


class LocalPool:
    """A pool of processes started with ``spawn`` (fork is unsafe with OpenSpiel's threads)."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_init_worker, initargs=(os.getpid(),))

    def submit(self, task: ChunkTask) -> Future:
        return self.pool.submit(play_chunk, task)

    def close(self, interrupted: bool) -> None:
        self.pool.shutdown(wait=not interrupted, cancel_futures=interrupted)


def require_dask() -> None:
    """Raise ``ImportError`` with the install hint when dask's distributed scheduler is missing."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ImportError("--dask needs dask's distributed scheduler: pip install 'trustme-analysis[dask]' "
                          "(or pip install 'dask[distributed]')") from None


class DaskCluster:
    """Chunks as futures on a Dask cluster: an address, ``"local"`` (a new LocalCluster) or a ``Client``."""

    def __init__(self, target: Any, workers: int):
        require_dask()
        from dask.distributed import Client, LocalCluster

        self._owned: list[Any] = []
        if isinstance(target, Client):
            self.client = target
        elif target == "local":
            import logging

            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   silence_logs=logging.ERROR, dashboard_address=None)
            self.client = Client(cluster)
            self._owned = [self.client, cluster]
        else:
            self.client = Client(str(target), timeout="30s")
            self._owned = [self.client]
        try:
            info = self.client.scheduler_info()["workers"].values()
            self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in info))
        except Exception:  # informational only
            self.workers = workers
        self._futures: list[Any] = []

    def submit(self, task: ChunkTask) -> Any:
        future = self.client.submit(play_chunk, task, pure=False)
        self._futures.append(future)
        return future

    def close(self, interrupted: bool) -> None:
        if interrupted and self._futures:
            self.client.cancel(self._futures)
        for thing in self._owned:
            thing.close()


def make_executor(workers: int, dask: Any = None) -> Executor:
    """The executor for ``workers`` processes (1: this process) or a Dask cluster."""
    if dask is not None:
        return DaskCluster(dask, workers)
    if workers <= 1:
        return InProcess()
    return LocalPool(workers)
