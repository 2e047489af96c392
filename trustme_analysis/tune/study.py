"""The search: an Optuna study in ``OUT/study.db`` (SQLite), whose trials are candidate rule sets raced on games.

One trial = one candidate rule set, played rung by rung (:mod:`~trustme_analysis.tune.evaluate`) and stopped early by
the race (:mod:`~trustme_analysis.tune.racing`); the trial's values are its losses at its last look. Two ways to run
trials:

- **a search** (TPE for one objective, NSGA-II for several, or random): the sampler proposes one candidate at a time,
  ``parallel`` trials run at once (default: one per worker) on one shared pool, and each candidate races against
  the candidates already finished;
- **a grid** (``sampler.kind = "grid"``): every candidate of the space, raced in step (F-Race): all play to the first
  look, those beaten with confidence by another at the same games stop, the rest play on to the next look.

Sampling, preparing candidates, reckoning the budget, telling and the race's decisions happen in this thread; only
playing and reading figures run in threads.

Stopping and resuming. The study lives in a SQLite file (every write is a transaction) and every chunk of games in its
own file, so a run killed at any moment (even by SIGKILL) loses at most the chunks being played. Running the same
command again finds the trials that were running (``RUNNING`` in the study: one run at a time holds the folder's lock,
so they are orphans), marks each as failed and queues a new trial with the same rule set, which finds that candidate's
chunks already stored and plays only the missing ones. So no candidate is lost and no game is played twice; finished
trials keep their values. The search stops when the budget of games could not pay for one more full candidate (the
budget is a ceiling), at ``max_trials`` finished trials, when the sampler has converged (it keeps proposing rule sets
already played), or when every candidate of a grid has been raced.
"""

from __future__ import annotations

import collections
import itertools
import math
import sqlite3
import sys
import threading
import time
import warnings
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import sqlalchemy.exc
import optuna
from optuna.trial import FrozenTrial, TrialState

from trustme_analysis.tune import racing
from trustme_analysis.tune.evaluate import Candidate, Evaluator, Interrupted, InvalidRules
from trustme_analysis.tune.racing import Look
from trustme_analysis.tune.space import Choice, IntRange, OrderedList, SearchSpace, as_game_value
from trustme_analysis.tune.spec import TuneSpec

STUDY_DB = "study.db"
STUDY_NAME = "tune"
#: The search has converged when, of the last STALL_WINDOW finished trials, at most STALL_NEW played any new game
#: (the sampler keeps proposing rule sets already played to the end, or already stopped by the race).
STALL_WINDOW = 40
STALL_NEW = 4
#: This many trials in a row failing with an error (not invalid rules) ends the search.
ERROR_LIMIT = 5
#: The most candidates ``sampler.kind = "grid"`` enumerates.
GRID_LIMIT = 20_000

optuna.logging.set_verbosity(optuna.logging.WARNING)


@dataclass(frozen=True)
class SearchSummary:
    """What one call of :func:`run_search` did."""

    trials_finished: int
    trials_now: int
    games_spent: int
    games_now: int
    seconds: float
    stopped: str


def storage_url(outdir: str | Path) -> str:
    """The study's database (SQLite, in the output folder)."""
    return f"sqlite:///{(Path(outdir) / STUDY_DB).resolve()}"


def _connector(path: Path) -> Any:
    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), timeout=60, check_same_thread=False)
        # Write-ahead log, synced at checkpoints: a commit survives the process being killed (only an operating
        # system crash could lose the last commits), and the many small commits of a study stay cheap.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    return connect


class TuneError(RuntimeError):
    """The tuning cannot run as asked (the folder holds another study or a damaged one, or another run is working
    in it)."""


def open_study(spec: TuneSpec, outdir: str | Path, sampler: optuna.samplers.BaseSampler | None = None) -> optuna.Study:
    """The study of ``outdir`` (created on first use); ``sampler`` None: one for reading only."""
    path = Path(outdir) / STUDY_DB
    pruner: optuna.pruners.BasePruner = optuna.pruners.NopPruner()
    if spec.budget.racing == "halving":
        pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=spec.budget.first_rung,
                                                        reduction_factor=spec.budget.reduction)
    try:
        storage = optuna.storages.RDBStorage(storage_url(outdir), engine_kwargs={"creator": _connector(path)})
        return optuna.create_study(storage=storage, study_name=STUDY_NAME,
                                   directions=["minimize"] * len(spec.objectives), sampler=sampler, pruner=pruner,
                                   load_if_exists=True)
    except (sqlalchemy.exc.DatabaseError, sqlite3.DatabaseError) as exc:  # not an SQLite file (sqlite3: "file is not a database"), or damaged
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise TuneError(f"{path} is not a tuning study's database ({reason}); restore it, or choose another --out "
                        "(a study database is read by SQLite, never unpickled)") from None


def trial_info(trial: FrozenTrial) -> dict[str, Any]:
    """What a finished trial stored, flattened: candidate id, rules, games (stored for its candidate), games it played,
    its last look's violations, its looks, and (trained line-ups) its candidate's policy's training
    (:func:`~trustme_analysis.tune.training.training_record`; ``None`` without)."""
    cand = trial.user_attrs.get("candidate") or {}
    looks = trial.user_attrs.get("looks") or []
    return {
        "candidate": cand.get("id") or "",
        "rules": cand.get("rules") or {},
        "invalid": cand.get("invalid"),
        "games": int(looks[-1]["games"]) if looks else 0,
        "played": int(sum(look.get("played", 0) for look in looks)),
        "violations": [v[0] for v in looks[-1]["violations"]] if looks else [],
        "looks": looks,
        "training": trial.user_attrs.get("training"),
    }


def make_sampler(spec: TuneSpec, seed: int) -> optuna.samplers.BaseSampler:
    """The spec's sampler, seeded by ``seed``."""
    kind = spec.sampler_kind
    # Constraints reach the samplers through each finished trial's set_constraint (see Search.evaluate).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if kind == "tpe":
            # Multivariate TPE models the steps of a generated chart together (they act together).
            return optuna.samplers.TPESampler(seed=seed, n_startup_trials=spec.sampler.startup_trials,
                                              multivariate=True)
        if kind == "nsga2":
            return optuna.samplers.NSGAIISampler(seed=seed, population_size=spec.sampler.population)
    return optuna.samplers.RandomSampler(seed=seed)


# ----------------------------------------------------------------------------------------------- grid enumeration


def _param_values(p: Any) -> list[dict[str, Any]]:
    """Every value of one parameter as Optuna parameters (distinct game values only)."""
    if isinstance(p, Choice):
        return [{p.name: c} for c in p.choices]
    if isinstance(p, IntRange):
        step = p.step or 1
        values = np.arange(p.low, p.high + step / 2, step)
        return [{p.name: (float(v) if p.is_float else int(v))} for v in values]
    assert isinstance(p, OrderedList)
    names = p.param_names()
    seen: dict[str, dict[str, Any]] = {}
    for first in range(p.low, p._first_high() + 1):
        for steps in itertools.product(range(p.min_step, p.top_step + 1), repeat=p.length - 1):
            value = as_game_value(p.build(first, list(steps)))
            if value not in seen:
                seen[value] = {names[0]: first, **dict(zip(names[1:], steps))}
            if len(seen) > GRID_LIMIT:
                raise ValueError(f"search.{p.name} holds more than {GRID_LIMIT} lists; too many for a grid")
    return list(seen.values())


def grid_params(space: SearchSpace) -> list[dict[str, Any]]:
    """Every candidate of a discrete search space, as Optuna parameters."""
    size = space.size()
    if size is None or size > GRID_LIMIT * 10:
        raise ValueError(f"the search space holds {'infinitely many' if size is None else size} candidates; a grid "
                         f"enumerates at most {GRID_LIMIT}")
    per_param = [_param_values(p) for p in space.parameters]
    out = [dict(kv for part in combo for kv in part.items()) for combo in itertools.product(*per_param)]
    if len(out) > GRID_LIMIT:
        raise ValueError(f"the search space holds {len(out)} candidates; a grid enumerates at most {GRID_LIMIT}")
    return out


# ------------------------------------------------------------------------------------------------------- the search


class Search:
    """One run of the search loop over a study (see the module docstring)."""

    def __init__(self, spec: TuneSpec, outdir: str | Path, evaluator: Evaluator, *, parallel: int = 1,
                 quiet: bool = False, stream: TextIO | None = None):
        self.spec = spec
        self.outdir = Path(outdir)
        self.evaluator = evaluator
        self.parallel = max(1, parallel)
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.stop_event = threading.Event()
        self._lock = threading.Lock()
        self._playing: dict[int, int] = {}  # running trial number -> games it has played so far
        # Running trial number -> its candidate's id and the games it had stored when the trial started (this
        # thread's alone: the budget is reckoned here).
        self._running: dict[int, tuple[str, int]] = {}
        self.games_now = 0

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.stream, flush=True)

    # --- setting up ---------------------------------------------------------------------------------------------

    def prepare_study(self) -> optuna.Study:
        """Open the study, reseed its sampler for this run, re-queue trials a killed run left running, and (first
        run) queue the rulebook's rule set or, for a grid, every candidate."""
        probe = open_study(self.spec, self.outdir)
        existing = probe.get_trials(deepcopy=False)
        # A fresh seed per run (the search seed and how many trials exist): a resumed run does not repeat the
        # proposals of the first one, and the same history gives the same proposals.
        seed = int(np.random.SeedSequence([self.spec.seed, len(existing)]).generate_state(1)[0])
        study = open_study(self.spec, self.outdir, make_sampler(self.spec, seed))
        retried = {t.user_attrs.get("retry_of") for t in existing}
        for t in existing:
            if t.state == TrialState.RUNNING:
                # One run at a time holds the folder (its lock), so a running trial is an orphan of a killed run.
                study.tell(t.number, state=TrialState.FAIL)
                if not t.params:
                    # Killed before it drew a rule set: it played nothing, and there is nothing to re-run.
                    self.say(f"trial {t.number} was interrupted before it drew a rule set; nothing to re-run")
                elif t.number not in retried:
                    study.enqueue_trial(dict(t.params), user_attrs={"retry_of": t.number})
                    self.say(f"trial {t.number} was interrupted; its rule set is queued again (its games are kept)")
        if not existing:
            if self.spec.sampler_kind == "grid":
                params = grid_params(self.spec.space)
                order = np.random.default_rng(self.spec.seed).permutation(len(params))
                for i in order:
                    study.enqueue_trial(params[int(i)])
            elif self.spec.sampler.rulebook_first:
                encoded = self.spec.space.encode(self.spec.rulebook)
                if encoded is not None:
                    study.enqueue_trial(encoded, user_attrs={"rulebook": True})
        return study

    # --- one trial ----------------------------------------------------------------------------------------------

    def finished_looks(self, study: optuna.Study, exclude: int) -> list[Look]:
        """The last looks of the finished (complete) trials: the candidates to beat."""
        out = []
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            looks = t.user_attrs.get("looks")
            if t.number != exclude and looks:
                out.append(Look.from_attr(looks[-1], trial=t.number))
        return out

    def prepare(self, trial: optuna.Trial, rules: Mapping[str, Any]) -> Candidate | None:
        """The trial's candidate, noted in the trial (``None``, noted as invalid, when the game rejects the rules)."""
        game_rules = {k: as_game_value(v) for k, v in rules.items()}
        try:
            cand = self.evaluator.prepare(rules)
        except InvalidRules as exc:
            trial.set_user_attr("candidate", {"id": None, "rules": game_rules, "invalid": str(exc)})
            return None
        trial.set_user_attr("candidate", {"id": cand.id, "rules": game_rules})
        return cand

    def evaluate(self, study: optuna.Study, trial: optuna.Trial, cand: Candidate
                 ) -> tuple[TrialState, list[float] | None]:
        """Play one trial's candidate rung by rung; its final state and values (losses).

        What the trial stores (each a single write, so a study stays quick on its database): ``candidate`` (id and
        rules, or why the game rejects them: :meth:`prepare`), ``looks`` (every look: games, games played now,
        figures, losses, violations), and ``stopped`` or ``error``.
        """
        rungs = self.spec.budget.rungs
        looks: list[dict[str, Any]] = []
        last: Look | None = None
        for i, games in enumerate(rungs):
            if self.stop_event.is_set():
                raise Interrupted()
            last, played = self._look((trial, cand), games)
            looks.append({**last.as_attr(), "played": played})
            trial.set_user_attr("looks", looks)
            if any(math.isnan(f.value) for f in (*last.losses, *last.violations)):
                missing = [name for name, f in last.figures.items() if math.isnan(f.value)]
                trial.set_user_attr("error", f"no figure for {', '.join(missing)} after {games} games")
                return TrialState.FAIL, None
            if len(self.spec.objectives) == 1:
                trial.report(last.losses[0].value, step=games)
            if i == len(rungs) - 1 or cand.games_stored >= rungs[-1]:
                break  # a rule set proposed again may already have all its games
            reason = None
            if self.spec.budget.racing == "interval":
                reason = racing.stop_reason(last, self.finished_looks(study, trial.number))
            elif self.spec.budget.racing == "halving" and trial.should_prune():
                reason = f"successive halving after {games} games"
            if reason is not None:
                trial.set_user_attr("stopped", reason)
                self._constrain(trial, last)
                return TrialState.PRUNED, None
        assert last is not None
        self._constrain(trial, last)
        return TrialState.COMPLETE, [f.value for f in last.losses]

    def _constrain(self, trial: optuna.Trial, last: Look) -> None:
        # The samplers' constraint convention: a value <= 0 is met (a violation of 0 is).
        for c, v in zip(self.spec.constraints, last.violations):
            trial.set_constraint(c.name, v.value)

    def _play(self, number: int, cand: Candidate, games: int) -> int:
        played = self.evaluator.play_to(cand, games)
        with self._lock:
            self._playing[number] = self._playing.get(number, 0) + played
            self.games_now += played
        return played

    # --- the loop -----------------------------------------------------------------------------------------------

    def _may_start(self, finished: int) -> str | None:
        """Why no new trial may start now (``None``: one may).

        The budget is reckoned as if every running trial played its candidate in full: the games stored for the
        candidates no trial is playing, plus a full candidate's games (or more, when more were stored before) for
        each candidate being played. Neither changes while a trial plays, so the answer does not depend on how far
        the running trials have got: one worker and several start the same trials.
        """
        b = self.spec.budget
        playing: dict[str, int] = {}
        for cid, stored in self._running.values():
            playing[cid] = max(playing.get(cid, 0), b.games_per_candidate, stored)
        if b.max_trials is not None and finished + len(self._running) >= b.max_trials:
            return f"{b.max_trials} trials finished (max_trials)"
        committed = self.evaluator.games_spent(exclude=frozenset(playing)) + sum(playing.values())
        if committed + b.games_per_candidate > b.games:
            return f"the budget of {b.games} games cannot pay for another full candidate"
        return None

    def run(self) -> SearchSummary:
        """Run trials until the search stops (see the module docstring)."""
        started = time.perf_counter()
        study = self.prepare_study()
        finished_states = (TrialState.COMPLETE, TrialState.PRUNED)
        finished_before = len(study.get_trials(deepcopy=False, states=finished_states))
        try:
            if self.spec.sampler_kind == "grid":
                stopped = self._race_in_step(study)
            else:
                stopped = self._search(study, finished_before)
        except KeyboardInterrupt:
            self._stop()
            raise
        finished = len(study.get_trials(deepcopy=False, states=finished_states))
        return SearchSummary(
            trials_finished=finished,
            trials_now=finished - finished_before,
            games_spent=self.evaluator.games_spent(),
            games_now=self.games_now,
            seconds=time.perf_counter() - started,
            stopped=stopped,
        )

    def _stop(self) -> None:
        """Ask running trials to stop after the chunks being played (Ctrl-C, SIGTERM)."""
        self.stop_event.set()
        stop = getattr(self.evaluator, "stop_event", None)
        if stop is not None:
            stop.set()

    def _search(self, study: optuna.Study, finished: int) -> str:
        """Trials proposed one by one by the sampler, ``parallel`` at a time, each raced against the finished ones."""
        finished_states = (TrialState.COMPLETE, TrialState.PRUNED)
        recent: collections.deque[bool] = collections.deque(maxlen=STALL_WINDOW)  # did the trial play new games?
        errors = 0
        stopped = ""
        running: dict[Future, optuna.Trial] = {}
        threads = ThreadPoolExecutor(self.parallel, thread_name_prefix="tune-trial")
        try:
            while True:
                while len(running) < self.parallel and not stopped:
                    why = self._may_start(finished)
                    if why is None and len(recent) == STALL_WINDOW and sum(recent) <= STALL_NEW:
                        why = (f"the search converged: {STALL_WINDOW - sum(recent)} of the last {STALL_WINDOW} trials "
                               "proposed rule sets already played")
                    if why is None and errors >= ERROR_LIMIT:
                        why = f"{ERROR_LIMIT} trials in a row failed with an error"
                    if why is not None:
                        stopped = why
                        break
                    trial = study.ask()
                    # The candidate is prepared here, not in the trial's thread, so the budget knows it.
                    try:
                        cand = self.prepare(trial, self.spec.space.suggest(trial))
                    except Exception as exc:  # as a trial's thread would: noted, and counted towards ERROR_LIMIT
                        trial.set_user_attr("error", f"{type(exc).__name__}: {exc}")
                        self.say(f"trial {trial.number} failed: {type(exc).__name__}: {exc}")
                        cand, errors = None, errors + 1
                    if cand is None:
                        study.tell(trial, state=TrialState.FAIL)
                        self._progress(study, trial.number, TrialState.FAIL)
                        continue
                    with self._lock:
                        self._playing[trial.number] = 0
                    self._running[trial.number] = (cand.id, cand.games_stored)
                    running[threads.submit(self.evaluate, study, trial, cand)] = trial
                if not running:
                    break
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    trial = running.pop(future)
                    with self._lock:
                        played = self._playing.pop(trial.number, 0)
                    del self._running[trial.number]
                    try:
                        state, values = future.result()
                        errors = 0
                    except Interrupted:
                        continue  # left running: the next run queues it again
                    except Exception as exc:
                        trial.set_user_attr("error", f"{type(exc).__name__}: {exc}")
                        self.say(f"trial {trial.number} failed: {type(exc).__name__}: {exc}")
                        state, values = TrialState.FAIL, None
                        errors += 1
                    study.tell(trial, values, state=state)
                    if state in finished_states:
                        finished += 1
                    if state in finished_states:
                        recent.append(played > 0)
                    self._progress(study, trial.number, state)
        except KeyboardInterrupt:
            self._stop()  # before waiting for the threads: they stop at their next chunk (the stored ones stay)
            raise
        finally:
            threads.shutdown(wait=True, cancel_futures=True)
        return stopped

    def _race_in_step(self, study: optuna.Study) -> str:
        """Every queued candidate of a grid, raced in step (F-Race): all play to the first look, those beaten with
        confidence by another at the same games stop, the others play on to the next look, and so on. As many
        candidates as the budget can pay in full are raced; the rest stay queued for a larger budget."""
        b = self.spec.budget
        queued = study.get_trials(deepcopy=False, states=(TrialState.WAITING,))
        affordable = max(0, (b.games - self.evaluator.games_spent()) // b.games_per_candidate)
        if b.max_trials is not None:
            done = len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))
            affordable = min(affordable, max(0, b.max_trials - done))
        if not queued:
            return "every candidate of the grid was tried"
        if affordable == 0:
            return f"the budget of {b.games} games cannot pay for another full candidate"
        alive: dict[int, tuple[optuna.Trial, Candidate]] = {}
        for _ in range(min(len(queued), affordable)):
            trial = study.ask()
            cand = self.prepare(trial, self.spec.space.suggest(trial))
            if cand is None:
                study.tell(trial, state=TrialState.FAIL)
                continue
            alive[trial.number] = (trial, cand)
        history: dict[int, list[dict[str, Any]]] = {n: [] for n in alive}
        threads = ThreadPoolExecutor(self.parallel, thread_name_prefix="tune-race")
        try:
            for i, games in enumerate(b.rungs):
                if self.stop_event.is_set():
                    raise Interrupted()
                numbers = list(alive)
                looked = dict(zip(numbers, threads.map(lambda n: self._look(alive[n], games), numbers)))
                for n, (look, played) in looked.items():
                    trial = alive[n][0]
                    history[n].append({**look.as_attr(), "played": played})
                    trial.set_user_attr("looks", history[n])
                    if len(self.spec.objectives) == 1:
                        trial.report(look.losses[0].value, step=games)
                last_rung = i == len(b.rungs) - 1
                for n, (look, _) in looked.items():
                    trial = alive[n][0]
                    if any(math.isnan(f.value) for f in (*look.losses, *look.violations)):
                        missing = [name for name, f in look.figures.items() if math.isnan(f.value)]
                        trial.set_user_attr("error", f"no figure for {', '.join(missing)} after {games} games")
                        study.tell(trial, state=TrialState.FAIL)
                        del alive[n]
                        continue
                    reason = None
                    if not last_rung and b.racing == "interval":
                        others = [other for m, (other, _) in looked.items() if m != n and m in alive]
                        reason = racing.stop_reason(look, others)
                    elif not last_rung and b.racing == "halving" and trial.should_prune():
                        reason = f"successive halving after {games} games"
                    if reason is not None or last_rung:
                        self._constrain(trial, look)
                    if reason is not None:
                        trial.set_user_attr("stopped", reason)
                        study.tell(trial, state=TrialState.PRUNED)
                        del alive[n]
                    elif last_rung:
                        study.tell(trial, [f.value for f in look.losses])
                        del alive[n]
                    self._progress(study, n, study.get_trials(deepcopy=False)[n].state)
        except KeyboardInterrupt:
            self._stop()
            raise
        finally:
            threads.shutdown(wait=True, cancel_futures=True)
        left = len(queued) - len(history)
        return "every candidate of the grid was tried" if left <= 0 else \
            f"the budget of {b.games} games paid for {len(history)} of the grid's {len(queued)} candidates"

    def _look(self, entry: tuple[optuna.Trial, Candidate], games: int) -> tuple[Look, int]:
        trial, cand = entry
        played = self._play(trial.number, cand, games)
        if cand.training is not None and "training" not in trial.user_attrs:
            self._note_training(trial, cand)
        figures = self.evaluator.figures(cand)
        return racing.look(cand.games_stored, figures, self.spec.objectives, self.spec.constraints,
                           trial=trial.number), played

    def _note_training(self, trial: optuna.Trial, cand: Candidate) -> None:
        """Record the candidate's policy's training in the trial, and say what it cost."""
        t = cand.training
        assert t is not None
        trial.set_user_attr("training", t)
        rules = ", ".join(f"{k}={as_game_value(v)}" for k, v in cand.rules.items())
        how = "trained now" if t["trained_now"] else "stored: reused"
        self.say(f"trial {trial.number}: policy of [{rules}] {how}: {t['iterations']:,} iterations, "
                 f"{t['cpu_seconds']:.1f} training CPU s, warm-started from the base policy [{t['warm_start_from']}]")

    def _progress(self, study: optuna.Study, number: int, state: TrialState) -> None:
        if self.quiet:
            return
        trials = study.get_trials(deepcopy=False)
        t = trials[number] if number < len(trials) else None
        what = {TrialState.COMPLETE: "done", TrialState.PRUNED: "stopped by the race",
                TrialState.FAIL: "failed"}.get(state, str(state))
        info = trial_info(t) if t is not None else {"games": 0, "rules": {}}
        games = info["games"]
        rules = ", ".join(f"{k}={v}" for k, v in info["rules"].items())
        values = f" losses {', '.join(f'{v:.4g}' for v in t.values)}" if t is not None and t.values else ""
        trained = info.get("training")
        cost = ""
        if trained:
            cost = f", {trained['cpu_seconds']:.1f} training CPU s" if trained["trained_now"] else ", policy reused"
        self.say(f"trial {number} {what} after {games} games:{values} [{rules}] "
                 f"({self.evaluator.games_spent()}/{self.spec.budget.games} games spent{cost})")


def run_search(spec: TuneSpec, outdir: str | Path, evaluator: Evaluator, *, parallel: int = 1, quiet: bool = False,
               stream: TextIO | None = None) -> SearchSummary:
    """Run (or continue) the search of ``spec`` in ``outdir``; see :class:`Search`."""
    return Search(spec, outdir, evaluator, parallel=parallel, quiet=quiet, stream=stream).run()
