"""Trained line-ups in a tuning: the rulebook's base policy, one policy per candidate warm-started from it.

A line-up whose seats play a trained policy (bot ``"trained"``, a probe over one, a search seat with ``rollout =
"trained"``) needs a policy for every rule set it plays, and a policy trained from nothing for each candidate would
cost the full training budget per candidate. So a tuning with ``[train]``:

1. trains the **base policy** once: the rulebook's rule set (the spec's ``params`` and the searched rules' rulebook
   values) with the ``[train]`` settings, under ``OUT/train/<fingerprint>/`` (:func:`ensure_base`);
2. trains each **candidate's policy** before its first chunk: ``candidate_iterations`` iterations with a warm start
   from the base policy, named explicitly (``warm_from``), so a candidate's policy is the same whatever the order in
   which trials run and whatever other candidates are stored (:func:`ensure_candidate`). It is stored in the
   candidate's own folder, ``OUT/candidates/<id>/train/<fingerprint>/``, as a sweep stores its policies beside its
   games: a policy's fingerprint names the variant and the settings but not the warm start's source, and
   ``OUT/train/`` then holds the base policy alone;
3. resolves the candidate's trained seats against its folder (:func:`~trustme_analysis.sweep.policies.resolve_trained`
   with ``require``), so its manifest records the policy's digest and its chunks play it.

A rule set proposed again finds its policy stored (:func:`trustme_analysis.train.train` reuses it). The confirmation
plays the same stored policies (:func:`pin_to`). Trainings run one at a time (:data:`TRAIN_LOCK`), in the thread of the
trial that needs them; an iteration budget makes each policy the same on any number of workers.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trustme_analysis.sweep.policies import Training, resolve_trained, trainings
from trustme_analysis.sweep.spec import Spec, parse_spec
from trustme_analysis.train import TrainedPolicy, train
from trustme_analysis.tune.spec import TuneSpec

#: One training at a time in a tuning's process: trials share the machine's cores with the games, and a training
#: (numba code) uses one of them for its whole budget.
TRAIN_LOCK = threading.RLock()
#: Iterations of the stand-in policy the probe games of ``--check`` play (the figures' columns only are checked).
PROBE_ITERATIONS = 64
#: Seconds between two progress lines of the base policy's training.
PROGRESS_SECONDS = 10.0


def throttled(say: Callable[[str], None] | None, every: float = PROGRESS_SECONDS) -> Callable[[str], None] | None:
    """``say`` passing a training's progress lines at most every ``every`` seconds (its other lines always)."""
    if say is None:
        return None
    last = [0.0]

    def out(line: str) -> None:
        now = time.monotonic()
        if line.endswith(" s") and ", ETA " in line:  # a progress line (the trainer's others are rare)
            if now - last[0] < every:
                return
            last[0] = now
        say(line)

    return out


def only_training(spec: Spec, outdir: str | Path) -> Training:
    """The one policy a tuning's sweep spec trains (the spec's checks make sure there is exactly one)."""
    found = trainings(spec, outdir)
    assert len(found) == 1, found
    return found[0]


def base_spec(spec: TuneSpec) -> Spec:
    """The rulebook's sweep spec with the base policy's training settings."""
    return parse_spec(spec.candidate_data(spec.rulebook, spec.budget.games_per_candidate, train=spec.train),
                      name="base")


def base_training(spec: TuneSpec, outdir: str | Path) -> Training:
    """The base policy: the rulebook's rule set with the ``[train]`` settings, under ``OUT/train/``."""
    return only_training(base_spec(spec), Path(outdir).resolve())


def ensure_base(spec: TuneSpec, outdir: str | Path, say: Callable[[str], None] | None = None,
                stop: threading.Event | None = None) -> TrainedPolicy:
    """The base policy, trained now unless stored (a run resumes an interrupted training from its checkpoint).
    ``stop``: interrupts the training (:func:`~trustme_analysis.train.train`'s)."""
    t = base_training(spec, outdir)
    with TRAIN_LOCK:
        return train(t.game_string, t.settings, t.outdir, throttled(say), stop=stop)


def ensure_candidate(spec: TuneSpec, sweep_spec: Spec, folder: str | Path, base: TrainedPolicy,
                     stop: threading.Event | None = None) -> tuple[Spec, TrainedPolicy]:
    """Train (or find stored) the policy of a candidate's sweep spec in its folder, warm-started from ``base``;
    returns the spec with its trained seats resolved against the folder (the policy's digest in
    :attr:`Spec.policies`) and the policy. ``stop``: interrupts the training (a checkpoint stays; the next run
    resumes it)."""
    folder = Path(folder).resolve()
    t = only_training(sweep_spec, folder)
    with TRAIN_LOCK:
        policy = train(t.game_string, t.settings, t.outdir, warm_from=base, stop=stop)
    return pin_to(sweep_spec, folder), policy


def pin_to(sweep_spec: Spec, folder: str | Path) -> Spec:
    """``sweep_spec`` with its trained seats playing the policies stored in ``folder``'s ``train/`` (each seat's
    ``outdir`` knob): a sweep elsewhere (the confirmation) plays them instead of training its own."""
    return resolve_trained(sweep_spec, Path(folder).resolve(), require=True)


def training_record(policy: TrainedPolicy) -> dict[str, Any]:
    """What a trial records of its candidate's policy (``summary.json``'s figures)."""
    s = policy.summary
    warm = s.get("warm_start_from") or {}
    return {"fingerprint": policy.fingerprint, "policy_digest": s.get("policy_digest"),
            "iterations": int(s.get("iterations", 0)), "cpu_seconds": round(float(s.get("cpu_seconds", 0.0)), 2),
            "warm_start_from": warm.get("fingerprint"), "trained_now": not policy.reused}


def stored_summaries(folder: str | Path) -> list[dict[str, Any]]:
    """The ``summary.json`` of every policy stored under ``folder/train/``."""
    out = []
    for path in sorted(Path(folder).glob("train/*/summary.json")):
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return out


def training_summary(spec: TuneSpec, outdir: str | Path) -> dict[str, Any]:
    """The cost of a tuning's training, for its summary: the base policy's iterations and CPU seconds, and the
    candidates' policies (how many, their iterations, CPU seconds in all and per candidate)."""
    if not spec.trained:
        return {}
    outdir = Path(outdir)
    base = stored_summaries(outdir)
    cands = [s for folder in sorted((outdir / "candidates").glob("*")) for s in stored_summaries(folder)]
    cpu = [float(s.get("cpu_seconds", 0.0)) for s in cands]
    return {
        "base_fingerprint": base[0]["fingerprint"] if base else None,
        "base_iterations": int(base[0]["iterations"]) if base else 0,
        "base_cpu_seconds": round(float(base[0]["cpu_seconds"]), 1) if base else 0.0,
        "candidate_iterations": spec.candidate_iterations,
        "candidate_policies": len(cands),
        "candidate_cpu_seconds": round(sum(cpu), 1),
        "candidate_cpu_seconds_mean": round(sum(cpu) / len(cpu), 2) if cpu else 0.0,
    }


def describe(spec: TuneSpec, outdir: str | Path) -> list[str]:
    """What a run will train (``--check``)."""
    if not spec.trained:
        return []
    t = base_training(spec, outdir)
    s = t.settings
    budget = f"{s.iterations:,} iterations" if s.iterations is not None else f"{s.seconds:g} CPU s"
    from trustme_analysis.train import stored

    state = "stored: reused" if stored(t.game_string, s, t.outdir) is not None else "to train"
    return [
        f"training: the rulebook's base policy [{t.fingerprint}], {budget}, seed {s.seed}, detail {s.detail} -> "
        f"{Path(outdir) / 'train'} ({state})",
        f"  then each candidate's policy: {spec.candidate_iterations:,} iterations warm-started from the base policy "
        f"-> {Path(outdir) / 'candidates'}/<id>/train/ (a rule set proposed again, and the confirmation, reuse it)",
    ]
