"""Training a policy for one game variant: budget, progress, checkpoints, storage and reuse.

:func:`train` runs a game's Monte Carlo CFR traversal (the ``trained`` part of the game's kernel entry, a
:class:`GameTrainer`) for a budget of iterations or CPU seconds and stores the average strategy under
``OUTDIR/train/<fingerprint>/``:

- ``settings.json``: the game string, the settings, the trainer's version and code digest (written first);
- ``checkpoint.npz``: the tables and the iteration reached, rewritten atomically every ``checkpoint_seconds`` and when
  the training is interrupted (Ctrl-C); removed once the policy is stored;
- ``policy.npz``: the stored policy, slot keys (sorted) and average-strategy mass;
- ``summary.json``: what :func:`train` returns as :class:`TrainedPolicy` (iterations, CPU seconds, slots, the quality
  proxy, the curve of the optional evaluator, the code digest, the policy's own digest).

The fingerprint is 16 hex digits of the SHA-256 of the canonical game string, the settings
(:meth:`TrainSettings.inputs`) and the trainer's version, so the same variant with the same settings finds its
stored policy again and reuses it. A stored policy whose code digest differs (the kernel, the abstraction or the
traversal changed since) is *stale*: :func:`train` trains it again, or refuses with :class:`StalePolicyError` when
``retrain_stale=False``. A checkpoint is resumed only under the same code.

Determinism: iteration ``t`` of a game's traversal depends only on the seed, ``t`` and the tables, so an iteration
budget gives the same policy whether the training ran through or was resumed from any checkpoint (kill -9
included). A seconds budget stops wherever the time runs out; the summary says how many iterations that was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyspiel

from trustme_analysis.atomic import atomic_path
from trustme_analysis.registry import find_game
from trustme_analysis.train import tables as T

TRAIN_DIR = "train"
SETTINGS = "settings.json"
CHECKPOINT = "checkpoint.npz"
POLICY_FILE = "policy.npz"
SUMMARY = "summary.json"
AVERAGING = ("simple", "unbiased")
WEIGHTING = ("importance", "on_policy")
OPPONENTS = ("current", "average")
#: The settings a game's traversal may or may not play (its trainer's ``offers``), each with its neutral value (what
#: a traversal that does not play it does).
OPTIONAL = {"baseline": False, "shaping": 0.0, "prior": 0.0, "population": 0.0, "opponents": "current"}


class StalePolicyError(RuntimeError):
    """A stored policy was trained by other code than the one running now (and retraining was not allowed)."""


class GameTrainer(Protocol):
    """What a game supplies to get a trained player (its kernel entry's ``trained`` part, ``"kernel.training:TRAINER"``).

    - ``version``: names the abstraction and traversal (bump it when their meaning changes);
    - ``config_size``: length of the float64 settings vector :meth:`run` takes (:func:`config_vector`);
    - ``slots_per_iteration``: the most table slots one iteration may add (room kept free);
    - ``code_digest()``: a digest of the sources the tables depend on;
    - ``prepare(game)``: whatever :meth:`run` needs for the variant (rules arrays, scratch);
    - ``run(ctx, tables, t0, t1, seed, cfg) -> t``: iterations ``t0 .. t1 - 1``, each a function of ``(seed, t)``
      and the tables alone; returns the next iteration (earlier when the tables need room).

    Optionally ``defaults`` (the game's own values of :class:`TrainSettings` fields, used wherever a setting is
    not given: :func:`game_settings`), ``detail_defaults`` (by abstraction level, over them),
    ``variant_defaults(game, detail)`` (by rule variant, over both) and ``offers`` (the optional settings of :data:`OPTIONAL` its traversal
    plays; :func:`train` refuses a value other than the neutral one for the others).

    The bot side (playing the stored tables) is the game's too: see :mod:`trustme_analysis.players.trained`.
    """

    version: str
    config_size: int
    slots_per_iteration: int

    def code_digest(self) -> str: ...

    def prepare(self, game: pyspiel.Game) -> Any: ...

    def run(self, ctx: Any, tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int: ...


#: The most iterations one training may run: 2 to 8 CPU hours on today's kernels (70,000 to 250,000 iterations
#: a CPU second); a larger number is a slip, not a plan.
MAX_ITERATIONS = 2_000_000_000
#: The most CPU seconds a timed training may run: a week.
MAX_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class TrainSettings:
    """How a policy is trained.

    Attributes:
        iterations: the budget in iterations (one sampled game each; deterministic); ``None`` with ``seconds``.
        seconds: the budget in CPU seconds instead (not reproducible: it stops where the time runs out).
        seed: seeds every iteration's generator.
        epsilon: the traverser's exploration (share of uniform sampling; 1: robust sampling).
        averaging: ``"simple"`` (the other seats' average strategy takes each visit with weight 1) or
            ``"unbiased"`` (weighted by reach over sampling probability).
        epoch: DCFR discounting is applied after every ``epoch`` iterations (0: never; plain averaging).
        alpha, beta, gamma: DCFR's exponents (Brown and Sandholm 2019 recommend 1.5, 0, 2).
        detail: the level of the game's abstraction (0: its coarsest; each game documents its levels).
        weighting: ``"importance"`` (outcome sampling's unbiased regret estimate, weighted by the inverse of the
            traverser's sampling probability of the whole game) or ``"on_policy"`` (without the inverse sampling
            probability of the path to the decision: each decision's regrets are scaled by how likely the traverser's
            own sampling reached it; biased, but bounded where the unbiased weights of a deep game explode).
        baseline: with ``"on_policy"`` weighting, cut the variance of the sampled values by a learned baseline per
            slot (VR-MCCFR, Schmid et al. AAAI 2019), where the game's traversal offers one.
        shaping: weight of a game's denser training signal added to its returns (Pinocchio: the Ticket-score
            margin over 10 points), where the game's traversal offers one; 0: the returns alone.
        warm_start: start from the nearest stored policy of another variant of the same game (same trainer version,
            code and abstraction level) instead of from nothing; the summary names the policy it started from.
        prior: weight, in visits, of the heuristic's row as the starting regrets and average mass of every row entry
            new to the table (a strategy-based warm start in the spirit of Brown and Sandholm, "Strategy-Based
            Warm Starting for Regret Minimization in Games", AAAI 2016), where the game's traversal offers it; 0:
            rows start uniform.
        population: share of the traverser's opponent seats that play a whole training game as a fixed persona
            (the heuristic or one of the game's probes, drawn evenly) instead of the learned strategy, where the
            game's traversal offers it; the learner then minimises regret against that mixture too, so the probes
            cannot exploit it (a population of fixed opponents as in PSRO, Lanctot et al. NeurIPS 2017); 0:
            pure self-play.
        opponents: what the traverser's opponents play, where the game's traversal offers a choice: ``"current"``
            (their current strategy: MCCFR) or ``"average"`` (their average strategy, which then averages the
            traverser's current strategies: fictitious play with regret matching as the best-response learner, as in
            Heinrich, Lanctot and Silver, "Fictitious Self-Play in Extensive-Form Games", ICML 2015).
    """

    iterations: int | None = 400_000
    seconds: float | None = None
    seed: int = 0
    epsilon: float = 0.1
    averaging: str = "simple"
    epoch: int = 10_000
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    detail: int = 0
    weighting: str = "on_policy"
    baseline: bool = False
    shaping: float = 0.0
    warm_start: bool = False
    prior: float = 0.0
    population: float = 0.0
    opponents: str = "current"

    def __post_init__(self):
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("give exactly one budget: iterations or seconds")
        if self.iterations is not None and (isinstance(self.iterations, bool) or not isinstance(self.iterations, int)
                                            or not 1 <= self.iterations <= MAX_ITERATIONS):
            raise ValueError(f"iterations={self.iterations!r} is not allowed; allowed: an integer from 1 to "
                             f"{MAX_ITERATIONS:,}")
        if self.seconds is not None and not 0 < self.seconds <= MAX_SECONDS:
            raise ValueError(f"seconds={self.seconds!r} is not allowed; allowed: a number > 0 and <= {MAX_SECONDS:,}"
                             " (a week)")
        if not 0.0 < self.epsilon <= 1.0:
            raise ValueError(f"epsilon={self.epsilon!r} is not allowed; allowed: 0 < epsilon <= 1")
        if self.averaging not in AVERAGING:
            raise ValueError(f"averaging={self.averaging!r} is not allowed; allowed: {', '.join(AVERAGING)}")
        if self.weighting not in WEIGHTING:
            raise ValueError(f"weighting={self.weighting!r} is not allowed; allowed: {', '.join(WEIGHTING)}")
        if not isinstance(self.detail, int) or self.detail < 0:
            raise ValueError(f"detail={self.detail!r} is not allowed; allowed: 0 (the coarsest) or more")
        if not self.shaping >= 0.0:
            raise ValueError(f"shaping={self.shaping!r} is not allowed; allowed: 0 (the returns alone) or more")
        if not self.prior >= 0.0:
            raise ValueError(f"prior={self.prior!r} is not allowed; allowed: 0 (rows start uniform) or more")
        if self.opponents not in OPPONENTS:
            raise ValueError(f"opponents={self.opponents!r} is not allowed; allowed: {', '.join(OPPONENTS)}")
        if not 0.0 <= self.population < 1.0:
            raise ValueError(f"population={self.population!r} is not allowed; allowed: 0 <= population < 1")
        if self.epoch < 0:
            raise ValueError(f"epoch={self.epoch!r} is not allowed; allowed: 0 (no discounting) or more")

    def inputs(self) -> dict[str, Any]:
        """Everything the trained policy depends on, as plain data (the fingerprint's input). A warm start also names
        how it seeds the tables (:func:`warm_start_tables`; 2: the source's own weights and DCFR clock), so a policy
        warm-started the earlier way is never taken for one started this way."""
        d = asdict(self)
        if self.warm_start:
            d["warm_scheme"] = WARM_SCHEME
        return d


@dataclass
class TrainedPolicy:
    """A stored trained policy: where it is and what made it (``summary.json``)."""

    folder: Path
    summary: dict[str, Any]
    reused: bool = False
    _table: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def fingerprint(self) -> str:
        """The variant's and settings' fingerprint (the folder's name)."""
        return str(self.summary["fingerprint"])

    def lookup(self) -> tuple[np.ndarray, np.ndarray]:
        """The policy as a hash table (``keys``, ``avg``) for :func:`trustme_analysis.train.tables.average_row`."""
        if self._table is None:
            self._table = load_table(self.folder)
        return self._table


def fingerprint(game: str, settings: TrainSettings, version: str) -> str:
    """16 hex digits of the SHA-256 of the canonical game string, the settings and the trainer's version."""
    text = json.dumps({"game": game, "settings": settings.inputs(), "version": version}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def trainer_for(game: pyspiel.Game) -> GameTrainer:
    """The game's trainer (its kernel entry's ``trained`` part); a clear error when the game has none."""
    short = game.get_type().short_name
    entry = find_game(short)
    trainer = entry.kernel_part("trained") if entry is not None else None
    if trainer is None:
        raise ValueError(f"game {short!r} has no trained player yet (its kernel entry gives no 'trained' part)")
    return trainer


def game_settings(game: pyspiel.Game | str, **given: Any) -> TrainSettings:
    """The training settings for ``game``: the fields ``given``, else the game's trainer's defaults for the variant
    and the abstraction level asked for (its ``variant_defaults(game, detail)`` where it has one, over its
    ``detail_defaults[detail]``, over its ``defaults``), else :class:`TrainSettings`' own defaults."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    trainer = trainer_for(game)
    kw = dict(getattr(trainer, "defaults", {}))
    detail = given.get("detail", TrainSettings.detail)
    kw.update(getattr(trainer, "detail_defaults", {}).get(detail, {}))
    variant = getattr(trainer, "variant_defaults", None)
    if variant is not None:
        kw.update(variant(game, detail))
    kw.update(given)
    return TrainSettings(**kw)


def refuse_unplayed(trainer: Any, settings: TrainSettings) -> None:
    """Raise ``ValueError`` naming a setting of :data:`OPTIONAL` that ``settings`` give a value other than the
    neutral one but ``trainer``'s traversal does not play (a setting is refused, never ignored)."""
    offers = set(getattr(trainer, "offers", ()))
    for name, neutral in OPTIONAL.items():
        value = getattr(settings, name)
        if name not in offers and value != neutral:
            plays = ", ".join(sorted(offers)) or "none of them"
            raise ValueError(f"{name}={value!r} is not allowed for this game's trainer ({trainer.version}); allowed: "
                             f"{name}={neutral!r} (its traversal plays {plays})")


def config_vector(settings: TrainSettings, size: int) -> np.ndarray:
    """The settings as the float64 vector a trainer's ``run`` reads: epsilon, averaging (0/1), epoch, alpha, beta,
    gamma, detail, weighting (0/1), baseline (0/1), shaping, then zeros up to ``size``."""
    cfg = np.zeros(max(size, 13))
    cfg[:13] = [settings.epsilon, AVERAGING.index(settings.averaging), settings.epoch, settings.alpha, settings.beta,
                settings.gamma, settings.detail, WEIGHTING.index(settings.weighting), float(settings.baseline),
                settings.shaping, settings.prior, settings.population, OPPONENTS.index(settings.opponents)]
    return cfg


def train_dir(outdir: str | Path, fp: str) -> Path:
    """``OUTDIR/train/<fingerprint>``."""
    return Path(outdir) / TRAIN_DIR / fp


def _write_json(path: Path, data: Any) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)


def _save_npz(path: Path, **arrays: np.ndarray) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)


def load_table(folder: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """A stored policy (``policy.npz``) as a lookup hash table."""
    with np.load(Path(folder) / POLICY_FILE) as data:
        return T.policy_table(data["keys"], data["avg"])


def policy_digest(keys: np.ndarray, avg: np.ndarray) -> str:
    """16 hex digits of the SHA-256 of a policy's arrays (two equal digests: the same policy)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(keys, np.int64).tobytes())
    h.update(np.ascontiguousarray(avg, np.float64).tobytes())
    return h.hexdigest()[:16]


def _quality(tables: T.Tables, t: int) -> float:
    # Average regret per slot and iteration: CFR's bound on exploitability shrinks with it (a proxy, not a measure).
    return T.positive_regret_sum(tables.keys, tables.regret) / max(tables.size, 1) / max(t, 1)


def _line(game: str, t: int, end: int | None, tables: T.Tables, rate: float, cpu: float,
          seconds: float | None, proxy: float, extra: str) -> str:
    if end is not None:
        left = (end - t) / rate if rate > 0 else float("nan")
        head = f"{t:,}/{end:,} it ({100 * t / end:.0f}%)"
    else:
        left = max(seconds - cpu, 0.0) if seconds is not None else float("nan")
        head = f"{t:,} it ({cpu:.0f}/{seconds:.0f} CPU s)"
    return (f"train {game}: {head}, {tables.size:,} slots, regret proxy {proxy:.3g}{extra}, {rate:,.0f} it/s, "
            f"ETA {left:.0f} s")


def train(
    game: pyspiel.Game | str,
    settings: TrainSettings,
    outdir: str | Path,
    progress: Callable[[str], None] | None = None,
    *,
    retrain_stale: bool = True,
    evaluate: Callable[[tuple[np.ndarray, np.ndarray]], float] | None = None,
    eval_every: int | None = None,
    checkpoint_seconds: float = 30.0,
    stop_after: int | None = None,
    warm_from: TrainedPolicy | str | Path | None = None,
    stop: threading.Event | None = None,
) -> TrainedPolicy:
    """Train (or find stored) the policy of ``game`` under ``settings``; returns the stored policy.

    Args:
        game: a loaded game or its game string.
        settings: the training settings (budget, seed, sampling, discounting).
        outdir: the output folder; the policy goes to ``OUTDIR/train/<fingerprint>/``.
        progress: called with a one-line progress report every few seconds (``print``, a logger); ``None``: quiet.
        retrain_stale: train again when the stored policy is stale (else raise :class:`StalePolicyError`).
        evaluate: optional judge of the current average policy (given as a lookup table), e.g. the exact
            exploitability on a compiled tree; its values go into the progress line and the summary's curve.
        eval_every: iterations between evaluations (default: 10 evaluations over an iteration budget).
        checkpoint_seconds: CPU seconds between checkpoints.
        stop_after: stop (as an interruption would, leaving a checkpoint) once this many iterations are done
            (tests of resuming).
        warm_from: where a warm start (``settings.warm_start``) starts from: a stored policy, used as it is, or a
            folder whose ``train/`` :func:`nearest_stored` searches. ``None``: ``outdir``'s own ``train/``. A caller
            that needs the same start whatever else is stored (a tuning, whose candidates train in any order) names
            the policy.
        stop: an event that interrupts the training as Ctrl-C does (a checkpoint, then :class:`KeyboardInterrupt`),
            read between batches (about half a CPU second apart): how a training in another thread than the main
            one (whose Ctrl-C it never sees) is stopped, e.g. a tuning's candidate.

    Raises:
        KeyboardInterrupt: passed on after the checkpoint is written; the next call resumes.
        ValueError: ``warm_from`` without ``settings.warm_start``, or a ``warm_from`` policy another trainer, code
            or abstraction level made.
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    game_string = str(game)
    trainer = trainer_for(game)
    refuse_unplayed(trainer, settings)
    fp = fingerprint(game_string, settings, trainer.version)
    folder = train_dir(outdir, fp)
    code = trainer.code_digest()
    if warm_from is not None and not settings.warm_start:
        raise ValueError("warm_from names a warm start's source, but settings.warm_start is False")
    if isinstance(warm_from, TrainedPolicy):
        _check_warm_source(warm_from, game, trainer.version, code, settings.detail)
    say = progress or (lambda _line: None)
    label = f"{game.get_type().short_name} [{fp}]"
    summary_path = folder / SUMMARY
    if summary_path.is_file():
        with open(summary_path, encoding="utf-8") as fh:
            summary = json.load(fh)
        if summary.get("code") == code and (folder / POLICY_FILE).is_file():
            return TrainedPolicy(folder, summary, reused=True)
        if not retrain_stale:
            raise StalePolicyError(f"the trained policy at {folder} was made by other code (the kernel, abstraction "
                                   "or traversal changed since); train it again")
        say(f"train {game_string}: the stored policy at {folder} is stale (other code); training again")
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _write_json(folder / SETTINGS, {"game": game_string, "settings": settings.inputs(), "version": trainer.version,
                                    "code": code, "fingerprint": fp})
    ctx = trainer.prepare(game)
    cfg = config_vector(settings, trainer.config_size)
    tables, t, cpu_before, curve, warm = _resume(folder, code)
    if t:
        say(f"train {label}: resuming at iteration {t:,} from {folder / CHECKPOINT}")
    elif settings.warm_start:
        if isinstance(warm_from, TrainedPolicy):
            source: TrainedPolicy | None = warm_from
        else:
            source = nearest_stored(game, settings, warm_from if warm_from is not None else outdir, exclude=fp)
        if source is not None:
            warm = warm_start_tables(tables, source)
            say(f"train {label}: warm start from {warm['game']} [{warm['fingerprint']}]")
        else:
            say(f"train {label}: warm start asked for, but no other variant of the game is stored; starting empty")
    # A warm start resumes its source's DCFR clock: iteration t of this training is iteration clock + t of the
    # traversal (its samples and its epoch's discount), so the first epochs do not discount the seeded mass away.
    clock = int(warm.get("clock", 0)) if warm else 0
    end = settings.iterations
    if evaluate is not None and eval_every is None and end is not None:
        eval_every = max(end // 10, 1)
    cpu0 = time.process_time() - cpu_before
    last_line = last_ckpt = time.process_time()
    chunk = 256
    rate = 0.0
    next_eval = ((t // eval_every) + 1) * eval_every if eval_every else None
    proxy_text = ""

    def checkpoint() -> None:
        _save_npz(folder / CHECKPOINT, keys=tables.keys, regret=tables.regret, avg=tables.avg, used=tables.used,
                  base=tables.base, visits=tables.visits,
                  iteration=np.array([t]), cpu=np.array([time.process_time() - cpu0]),
                  warm=np.array([json.dumps(warm)]),
                  curve=np.array(curve, dtype=np.float64).reshape(-1, 2), code=np.array([code]))

    # Ctrl-C only sets a flag, read between batches: an interrupt landing between a batch and the bookkeeping after
    # it would otherwise checkpoint tables one batch ahead of their iteration count (and the resumed policy differ).
    interrupted: list[bool] = []
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))
    try:
        while True:
            if interrupted or (stop is not None and stop.is_set()):
                raise KeyboardInterrupt
            cpu = time.process_time() - cpu0
            if end is not None and t >= end:
                break
            if settings.seconds is not None and cpu >= settings.seconds:
                break
            if stop_after is not None and t >= stop_after:
                raise KeyboardInterrupt
            upto = t + chunk
            if end is not None:
                upto = min(upto, end)
            if next_eval is not None:
                upto = min(upto, next_eval)
            if stop_after is not None:
                upto = min(upto, stop_after)
            tables.ensure_room(2 * trainer.slots_per_iteration)
            c0 = time.process_time()
            t_new = trainer.run(ctx, tables, clock + t, clock + upto, settings.seed, cfg) - clock
            spent = time.process_time() - c0
            if t_new > t and spent > 0:
                rate = (t_new - t) / spent
                # About half a CPU second a batch: progress and Ctrl-C answer quickly, the calls cost nothing.
                chunk = int(min(max(rate * 0.5, 64), 1 << 20))
            t = t_new
            if next_eval is not None and t >= next_eval:
                value = float(evaluate(T.policy_table(*tables.policy_arrays())))
                curve.append((t, value))
                proxy_text = f", evaluated {value:.4g}"
                next_eval += eval_every
            now = time.process_time()
            if now - last_line >= 2.0:
                say(_line(label, t, end, tables, rate, now - cpu0, settings.seconds, _quality(tables, t),
                          proxy_text))
                last_line = now
            if now - last_ckpt >= checkpoint_seconds:
                checkpoint()
                last_ckpt = now
    except KeyboardInterrupt:
        if t > 0:
            checkpoint()
            say(f"train {label}: interrupted at iteration {t:,}; checkpoint written, run again to resume")
        else:
            # Nothing trained yet: no checkpoint, since one of iteration 0 would hold a warm start's tables that a
            # resumed run (which warm-starts only at iteration 0) would seed a second time.
            say(f"train {label}: interrupted before its first iteration; nothing to keep")
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    cpu = time.process_time() - cpu0
    keys, avg = tables.policy_arrays()
    _save_npz(folder / POLICY_FILE, keys=keys, avg=avg)
    summary = {
        "game": game_string, "settings": settings.inputs(), "version": trainer.version, "code": code,
        "fingerprint": fp, "iterations": int(t), "cpu_seconds": cpu, "slots": int(len(keys)),
        "quality_proxy": _quality(tables, t), "curve": [[int(a), float(b)] for a, b in curve],
        "policy_digest": policy_digest(keys, avg), "warm_start_from": warm,
        "versions": {"python": sys.version.split()[0], "numpy": np.__version__},
    }
    _write_json(summary_path, summary)
    if (folder / CHECKPOINT).exists():
        os.unlink(folder / CHECKPOINT)
    say(f"train {label}: done, {t:,} iterations in {cpu:.1f} CPU s, {len(keys):,} slots -> {folder}")
    return TrainedPolicy(folder, summary)


def _resume(folder: Path, code: str) -> tuple[T.Tables, int, float, list[tuple[int, float]], dict | None]:
    path = folder / CHECKPOINT
    if path.is_file():
        try:
            with np.load(path) as data:
                if str(data["code"][0]) == code:
                    extra = [data[k].copy() if k in data.files else None for k in ("base", "visits")]
                    tables = T.Tables(data["keys"].copy(), data["regret"].copy(), data["avg"].copy(),
                                      data["used"].copy(), *extra)
                    curve = [(int(a), float(b)) for a, b in data["curve"]]
                    warm = json.loads(str(data["warm"][0])) if "warm" in data.files else None
                    return tables, int(data["iteration"][0]), float(data["cpu"][0]), curve, warm
        except (OSError, ValueError, KeyError):
            pass  # a damaged checkpoint (cannot happen with atomic writes, but): start over
    return T.Tables.empty(), 0, 0.0, [], None


#: The warm start's scheme, part of a warm-started policy's fingerprint (:meth:`TrainSettings.inputs`).
WARM_SCHEME = 2


def _game_parameters(game_string: str) -> tuple[str, dict[str, Any]]:
    game = pyspiel.load_game(game_string)
    return game.get_type().short_name, dict(game.get_parameters())


def nearest_stored(game: pyspiel.Game | str, settings: TrainSettings, outdir: str | Path,
                   exclude: str | None = None) -> TrainedPolicy | None:
    """The stored, current policy of another variant of ``game`` nearest to it: same game, trainer version, code and
    abstraction level (``settings.detail``); nearest by the number of game parameters that differ, then the most
    iterations, then the fingerprint (so the choice is deterministic for a given store). ``None`` when there is none."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    trainer = trainer_for(game)
    code = trainer.code_digest()
    short, params = game.get_type().short_name, dict(game.get_parameters())
    best: tuple[Any, ...] | None = None
    for path in sorted((Path(outdir) / TRAIN_DIR).glob(f"*/{SUMMARY}")):
        try:
            with open(path, encoding="utf-8") as fh:
                summary = json.load(fh)
        except (OSError, ValueError):
            continue
        folder = path.parent
        if (summary.get("fingerprint") == exclude or summary.get("version") != trainer.version
                or summary.get("code") != code or summary.get("settings", {}).get("detail") != settings.detail
                or not (folder / POLICY_FILE).is_file()):
            continue
        other_short, other = _game_parameters(summary["game"])
        if other_short != short:
            continue
        distance = sum(1 for k in set(params) | set(other) if params.get(k) != other.get(k))
        rank = (distance, -int(summary.get("iterations", 0)), summary["fingerprint"])
        if best is None or rank < best[0]:
            best = (rank, TrainedPolicy(folder, summary, reused=True))
    return None if best is None else best[1]


def _check_warm_source(source: TrainedPolicy, game: pyspiel.Game, version: str, code: str, detail: int) -> None:
    """Refuse a warm start's source whose slots mean something else (another game, trainer, code or level)."""
    s = source.summary
    other = _game_parameters(s["game"])[0] if "game" in s else None
    if (other != game.get_type().short_name or s.get("version") != version or s.get("code") != code
            or s.get("settings", {}).get("detail") != detail or not (source.folder / POLICY_FILE).is_file()):
        raise ValueError(f"warm_from {source.folder}: not a stored policy of {game.get_type().short_name} made by "
                         f"this trainer ({version}, current code) at detail {detail}")


def warm_start_tables(tables: T.Tables, source: TrainedPolicy) -> dict[str, Any]:
    """Seed empty ``tables`` with a stored policy: each slot's stored average mass, as it is, as its regret (so regret
    matching starts from the stored average strategy, row by row) and as its average mass, so each row keeps the
    weight its own training gave it (a row the source visited often moves as slowly as it would have there). Returns
    what the summary records of the source, ``clock`` included: the source's iterations, where the warm-started
    training's DCFR clock resumes (:func:`train`). (Until 2026-12-04 the mass was rescaled to 1 per slot on average
    and the clock restarted at 0: the first epochs' discounting then wiped the source out, and a 1981 rulebook policy
    warm-started from its own 400,000-iteration policy for 100,000 iterations ended its games with a mean wealth of
    $446 where its source's players end with $6,519.)"""
    with np.load(source.folder / POLICY_FILE) as data:
        keys, avg = data["keys"], data["avg"]
    tables.ensure_room(len(keys))
    T.seed_slots(tables.keys, tables.used, tables.regret, tables.avg, np.asarray(keys, np.int64),
                 np.asarray(avg, np.float64))
    return {"fingerprint": source.fingerprint, "game": source.summary["game"],
            "policy_digest": source.summary.get("policy_digest"), "slots": int(len(keys)),
            "clock": int(source.summary.get("iterations", 0))}


def stored(game: pyspiel.Game | str, settings: TrainSettings, outdir: str | Path) -> TrainedPolicy | None:
    """The stored, current policy of ``game`` under ``settings``, or ``None`` (none stored, or stale)."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    trainer = trainer_for(game)
    folder = train_dir(outdir, fingerprint(str(game), settings, trainer.version))
    try:
        with open(folder / SUMMARY, encoding="utf-8") as fh:
            summary = json.load(fh)
    except OSError:
        return None
    if summary.get("code") != trainer.code_digest() or not (folder / POLICY_FILE).is_file():
        return None
    return TrainedPolicy(folder, summary, reused=True)
