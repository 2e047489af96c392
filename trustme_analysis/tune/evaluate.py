"""Playing a candidate rule set: its own folder of chunks under ``OUT/candidates/``, grown rung by rung.

A candidate is an ordinary one-variant sweep (the spec of :meth:`TuneSpec.candidate_data`): its folder holds the
sweep's manifest, its record chunks and, once looked at, its results set (``stats/``), exactly like a sweep's output
folder, so ``results.load`` reads it and ``python -m trustme_analysis.report`` can draw it. The folder is named after
the candidate's canonical game string, so a rule set proposed twice (or re-run after an interrupted run) finds its
chunks already played: no game is ever played twice.

Every candidate uses the same seed; with one variant, chunk ``c`` of every candidate has the same game seeds
(:mod:`trustme_analysis.sweep.seeding`): common random numbers, so differences between candidates are differences of
rules, not of luck. Looking at a candidate after ``n`` games plays its first ``n / chunk_size`` chunks.

With a trained line-up, a candidate's policy is trained (or found stored) in its folder before its first chunk,
warm-started from the rulebook's base policy (:mod:`~trustme_analysis.tune.training`).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import threading
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from trustme_analysis import results
from trustme_analysis.outdir import chunk_path, manifest_path
from trustme_analysis.registry import game_entry
from trustme_analysis.results import ResultSet
from trustme_analysis.specfile import SpecError
from trustme_analysis.sweep import storage
from trustme_analysis.sweep.manifest import build_manifest, now_iso, write_manifest
from trustme_analysis.sweep.play import ChunkTask, chunk_tasks
from trustme_analysis.sweep.spec import Spec, parse_spec
from trustme_analysis.train import TrainedPolicy, train
from trustme_analysis.tune import training
from trustme_analysis.tune.measures import Figure, check_measure
from trustme_analysis.tune.spec import TuneSpec
from trustme_analysis.tune.workers import Executor, InProcess

CANDIDATES = "candidates"
#: Games of the rulebook played to check that every objective and constraint can be read (``--check`` too).
PROBE_GAMES = 4


class Interrupted(Exception):
    """Playing stopped because the run was asked to stop (Ctrl-C or SIGTERM); the chunks stored so far stay."""


class InvalidRules(ValueError):
    """The game rejects a candidate rule set (the message is the game's)."""


@dataclass
class Candidate:
    """One rule set being played."""

    rules: dict[str, Any]
    id: str
    folder: Path
    spec: Spec | None = None
    tasks: tuple[ChunkTask, ...] = ()
    games_stored: int = 0
    #: With a trained line-up, once its policy is trained or found: :func:`.training.training_record` of it.
    training: dict[str, Any] | None = None


class Evaluator(Protocol):
    """What the search needs of the games: a candidate, games played up to a rung, and its figures."""

    def prepare(self, rules: Mapping[str, Any]) -> Candidate:
        """The candidate playing ``rules`` (raises :class:`InvalidRules` when the game rejects them)."""
        ...

    def play_to(self, candidate: Candidate, games: int) -> int:
        """Play the candidate's first ``games`` games (those not stored yet); returns the games played now."""
        ...

    def figures(self, candidate: Candidate) -> dict[str, Figure]:
        """Every objective's and constraint's figure from the candidate's games so far, by name."""
        ...

    def games_spent(self, exclude: Collection[str] = ()) -> int:
        """Games stored for all candidates (but those whose ids are in ``exclude``)."""
        ...


def candidate_id(game_string: str, lineup: Mapping[str, Any]) -> str:
    """A short stable name for a rule set played by a line-up."""
    key = json.dumps([game_string, lineup], sort_keys=True, default=str)
    return "c-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


class GameEvaluator:
    """Plays candidates' games through the sweep's chunks and reads their figures from their results sets."""

    def __init__(self, spec: TuneSpec, outdir: str | Path, executor: Executor | None = None,
                 on_chunk: Callable[[Candidate, int], None] | None = None):
        self.spec = spec
        self.root = Path(outdir) / CANDIDATES
        self.executor = executor or InProcess()
        self.on_chunk = on_chunk
        self.records = game_entry(spec.game).part("records")
        self.outdir = Path(outdir)
        self._base: TrainedPolicy | None = None
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._figures: dict[tuple[str, int], dict[str, Figure]] = {}
        #: Set to stop playing (Ctrl-C): the chunk being played is finished and stored, then :class:`Interrupted`.
        self.stop_event = threading.Event()

    def prepare(self, rules: Mapping[str, Any]) -> Candidate:
        data = self.spec.candidate_data(rules, self.spec.budget.games_per_candidate)
        try:
            sweep_spec = parse_spec(data, name="candidate")
        except SpecError as exc:
            raise InvalidRules(str(exc)) from None
        variant = sweep_spec.variants[0]
        cid = candidate_id(variant.game_string, self.spec.lineup)
        folder = self.root / cid
        tasks = tuple(chunk_tasks(sweep_spec, self.records))
        cand = Candidate(dict(rules), cid, folder, sweep_spec, tasks)
        cand.games_stored = sum(t.num_games for t in tasks if chunk_path(folder, t.variant_id, t.chunk_index).is_file())
        return cand

    def _ensure_manifest(self, cand: Candidate) -> None:
        if manifest_path(cand.folder).is_file():
            return
        assert cand.spec is not None
        timing = {"started": now_iso(), "finished": None, "seconds": 0.0, "games": 0, "games_per_second": None,
                  "workers": self.executor.workers, "backend": "tune", "runs": 0}
        cand.folder.mkdir(parents=True, exist_ok=True)
        write_manifest(cand.folder, build_manifest(cand.spec, cand.folder, timing, complete=False))

    def base_policy(self, say: Callable[[str], None] | None = None) -> TrainedPolicy:
        """The rulebook's base policy (trained on first use unless stored); only with a trained line-up."""
        with training.TRAIN_LOCK:
            if self._base is None:
                self._base = self._stoppable(training.ensure_base, self.spec, self.outdir, say)
            return self._base

    def _stoppable(self, training_call: Callable[..., Any], *args: Any) -> Any:
        # A training in a trial's thread never sees Ctrl-C: the stop event interrupts it (its checkpoint stays) and
        # the trial ends as interrupted, as between chunks, instead of the run waiting for the training to end.
        try:
            return training_call(*args, stop=self.stop_event)
        except KeyboardInterrupt:
            if self.stop_event.is_set() and threading.current_thread() is not threading.main_thread():
                raise Interrupted() from None
            raise

    def _train(self, cand: Candidate) -> None:
        # Before the first chunk: the candidate's policy, then its seats and chunk tasks resolved to play it.
        assert cand.spec is not None
        cand.spec, policy = self._stoppable(training.ensure_candidate, self.spec, cand.spec, cand.folder,
                                            self.base_policy())
        cand.tasks = tuple(chunk_tasks(cand.spec, self.records))
        cand.training = training.training_record(policy)

    def play_to(self, cand: Candidate, games: int) -> int:
        with self._candidate_lock(cand.id):
            if self.spec.trained and cand.training is None:
                self._train(cand)
            self._ensure_manifest(cand)
            storage.remove_temp_files(cand.folder)
            todo = [t for t in cand.tasks if t.first_game < games
                    and not chunk_path(cand.folder, t.variant_id, t.chunk_index).is_file()]
            played = 0
            # At most one chunk per worker in flight for this candidate: other trials share the workers, and a stop
            # request is seen between chunks.
            window = max(1, self.executor.workers)
            in_flight: list[tuple[ChunkTask, Any]] = []
            try:
                while todo or in_flight:
                    while todo and len(in_flight) < window:
                        if self.stop_event.is_set():
                            raise Interrupted()
                        task = todo.pop(0)
                        in_flight.append((task, self.executor.submit(task)))
                    task, future = in_flight.pop(0)
                    storage.write_chunk(cand.folder, task.variant_id, task.chunk_index, future.result())
                    played += task.num_games
                    if self.on_chunk is not None:
                        self.on_chunk(cand, task.num_games)
            finally:
                for _, future in in_flight:
                    future.cancel()
            cand.games_stored = sum(t.num_games for t in cand.tasks
                                    if chunk_path(cand.folder, t.variant_id, t.chunk_index).is_file())
            return played

    def _candidate_lock(self, cid: str) -> threading.Lock:
        # Two running trials may propose the same rule set: one plays, the other then finds the chunks stored.
        with self._lock:
            return self._locks.setdefault(cid, threading.Lock())

    def results(self, cand: Candidate) -> ResultSet:
        """The candidate's results set (computed once per set of stored chunks, kept in its folder)."""
        return results.load(cand.folder)

    def figures(self, cand: Candidate) -> dict[str, Figure]:
        key = (cand.id, cand.games_stored)
        with self._candidate_lock(cand.id):
            # A rule set proposed again with no new games has the figures already read.
            if key not in self._figures:
                self._figures[key] = read_figures(self.spec, self.results(cand))
        return dict(self._figures[key])

    def games_spent(self, exclude: Collection[str] = ()) -> int:
        if not self.root.is_dir():
            return 0
        chunks = sum(1 for path in self.root.glob("*/records/*/chunk-*.parquet")
                     if path.relative_to(self.root).parts[0] not in exclude)
        # Every rung is a multiple of the chunk size, so every stored chunk is full.
        return chunks * self.spec.budget.chunk_size


def read_figures(spec: TuneSpec, res: ResultSet) -> dict[str, Figure]:
    """The figures of every objective and constraint of ``spec`` in a results set, by name."""
    out = {}
    for item in (*spec.objectives, *spec.constraints):
        out[item.name] = item.measure.read(res)
    return out


def probe_results(spec: TuneSpec, games: int = PROBE_GAMES) -> ResultSet:
    """A results set of a few games of the rulebook's rules, played in a temporary folder (nothing else is
    written): what the objectives are checked against. A trained line-up plays a stand-in policy trained there for
    :data:`~.training.PROBE_ITERATIONS` iterations (the figures' columns, not their values, are checked)."""
    stand_in = None
    if spec.trained:
        assert spec.train is not None
        stand_in = {**{k: v for k, v in spec.train.items() if k != "seconds"},
                    "iterations": training.PROBE_ITERATIONS}
    data = spec.candidate_data(spec.rulebook, games, train=stand_in)
    data["chunk_size"] = games
    sweep_spec = parse_spec(data, name="probe")
    records = game_entry(spec.game).part("records")
    with tempfile.TemporaryDirectory(prefix="tune-probe-") as tmp:
        if stand_in is not None:
            t = training.only_training(sweep_spec, tmp)
            with training.TRAIN_LOCK:
                train(t.game_string, t.settings, t.outdir)
            sweep_spec = training.pin_to(sweep_spec, tmp)
        timing = {"started": now_iso(), "seconds": 0.0, "games": 0}
        write_manifest(tmp, build_manifest(sweep_spec, tmp, timing, complete=False))
        for task in chunk_tasks(sweep_spec, records):
            storage.write_chunk(tmp, task.variant_id, task.chunk_index, InProcess().submit(task).result())
        return results.compute(tmp)


def check_measures(spec: TuneSpec, res: ResultSet | None = None) -> dict[str, tuple[str, str] | None]:
    """Check every objective and constraint against a probe results set of the game; the first problem raises a
    :class:`SpecError` naming its key. Returns each one's interval columns (``None``: its table gives none)."""
    res = res if res is not None else probe_results(spec)
    out = {}
    for kind, items in (("objective", spec.objectives), ("constraint", spec.constraints)):
        for i, item in enumerate(items):
            out[item.name] = check_measure(f"{kind}[{i}]", item.measure, res, spec.game)
    return out
