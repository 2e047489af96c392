"""The confirmation: the recommended rule sets and the rulebook's, replayed with fresh seeds as ordinary sweeps.

The search's figures are biased upwards for the candidates it picks (the winner's curse: among many noisy estimates,
the best-looking one is partly lucky). So every claim of the tuning report comes from games the search never saw:
each confirmed rule set is an ordinary one-variant sweep (``OUT/confirm/<candidate id>/``, with its own results set
and, by default, its ordinary sweep report), all played with the confirmation seed (``[confirm] seed``, by default the
search seed + 1) and so with the same fresh games for every rule set.

Which rule sets: with one objective, the ``best`` finished candidates with the lowest loss among those meeting the
constraints; with several, the Pareto front of those candidates (all of it when it holds at most ``best``, otherwise
the best candidate of each objective, then those closest to the front's ideal point in losses scaled by the front's
range).

With a trained line-up every confirmed rule set plays the policy its candidate played in the race
(``OUT/candidates/<id>/train/``: each trained seat's ``outdir`` knob points there), so the confirmation measures the
rules, not a new training. A rule set the race never played (the rulebook without ``rulebook_first``, a reference)
gets its policy trained there first, as the race would have: ``candidate_iterations`` from the base policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import optuna
from optuna.trial import FrozenTrial, TrialState

from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec
from trustme_analysis.tune import training
from trustme_analysis.tune.evaluate import CANDIDATES, candidate_id
from trustme_analysis.tune.racing import pareto_front
from trustme_analysis.tune.spec import TuneSpec
from trustme_analysis.tune.study import trial_info

CONFIRM = "confirm"
RULEBOOK = "rulebook"


@dataclass(frozen=True)
class Pick:
    """A rule set chosen for confirmation."""

    name: str
    rules: Mapping[str, Any]
    trial: int | None
    candidate: str
    #: "rulebook", "reference" (named in the spec) or "recommended" (found by the search).
    role: str = "recommended"


def _distinct_finished(study: optuna.Study) -> list[FrozenTrial]:
    """Complete trials, one per candidate (the one with the most games)."""
    best: dict[str, FrozenTrial] = {}
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        cid = trial_info(t)["candidate"] or f"trial-{t.number}"
        if cid not in best or trial_info(t)["games"] > trial_info(best[cid])["games"]:
            best[cid] = t
    return sorted(best.values(), key=lambda t: t.number)


def _feasible(t: FrozenTrial) -> bool:
    return all(v <= 0 for v in trial_info(t)["violations"])


def choose(study: optuna.Study, objectives: int, best: int) -> list[FrozenTrial]:
    """The finished trials to confirm (see the module docstring), best first."""
    trials = _distinct_finished(study)
    feasible = [t for t in trials if _feasible(t)]
    if not feasible:
        # No candidate met the constraints: confirm those closest to meeting them (the report says so).
        pool = sorted(trials, key=lambda t: (sum(trial_info(t)["violations"]), list(t.values)))
        return pool[:best]
    if objectives == 1:
        return sorted(feasible, key=lambda t: t.values[0])[:best]
    front = [t for t, keep in zip(feasible, pareto_front([list(t.values) for t in feasible])) if keep]
    if len(front) <= best:
        return sorted(front, key=lambda t: list(t.values))
    lows = [min(t.values[k] for t in front) for k in range(objectives)]
    highs = [max(t.values[k] for t in front) for k in range(objectives)]

    def scaled(t: FrozenTrial) -> float:
        return sum((t.values[k] - lows[k]) / (highs[k] - lows[k]) if highs[k] > lows[k] else 0.0
                   for k in range(objectives))

    picked: list[FrozenTrial] = []
    for k in range(objectives):
        top = min(front, key=lambda t: (t.values[k], scaled(t)))
        if top not in picked:
            picked.append(top)
    for t in sorted(front, key=scaled):
        if len(picked) >= best:
            break
        if t not in picked:
            picked.append(t)
    return sorted(picked[:best], key=scaled)


def picks(spec: TuneSpec, study: optuna.Study) -> list[Pick]:
    """The rulebook, the spec's named references, then the recommended rule sets (``best-1``, ...)."""
    out = [Pick(RULEBOOK, dict(spec.rulebook), None, _confirm_id(spec, spec.rulebook), "rulebook")]
    for name, changes in spec.confirm.references.items():
        rules = {**spec.rulebook, **changes}
        out.append(Pick(name, rules, None, _confirm_id(spec, rules), "reference"))
    for i, t in enumerate(choose(study, len(spec.objectives), spec.confirm.best), start=1):
        rules = dict(trial_info(t)["rules"])
        out.append(Pick(f"best-{i}", rules, t.number, _confirm_id(spec, rules)))
    return out


def _confirm_data(spec: TuneSpec, rules: Mapping[str, Any], folder: Path, name: str) -> dict[str, Any]:
    return spec.candidate_data(rules, spec.confirm.games, seed=spec.confirm.seed, out=folder,
                               title=f"{spec.title}: confirmation of {name}")


def _confirm_id(spec: TuneSpec, rules: Mapping[str, Any]) -> str:
    sweep_spec = parse_spec(spec.candidate_data(rules, spec.confirm.games), name="confirm")
    return candidate_id(sweep_spec.variants[0].game_string, spec.lineup)


def _race_policy(spec: TuneSpec, outdir: str | Path, pick: Pick, sweep_spec: Any, base: Any) -> tuple[Any, Any]:
    """The confirmation sweep of ``pick`` with its trained seats playing the candidate's policy from the race (trained
    there now, the race's way, if the race never played the rule set), and that policy."""
    cand_folder = Path(outdir) / CANDIDATES / pick.candidate
    cand_spec = parse_spec(spec.candidate_data(pick.rules, spec.budget.games_per_candidate), name="candidate")
    _, policy = training.ensure_candidate(spec, cand_spec, cand_folder, base)
    return training.pin_to(sweep_spec, cand_folder), policy


def confirm_folder(outdir: str | Path, pick: Pick) -> Path:
    """Where a pick's confirmation sweep lives (named after the rule set, so a later run finds it)."""
    return Path(outdir) / CONFIRM / pick.candidate


def run_confirmation(spec: TuneSpec, outdir: str | Path, chosen: Sequence[Pick], *, workers: int | None = None,
                     dask: Any = None, quiet: bool = False, stream: TextIO | None = None) -> dict[str, Path]:
    """Play (or resume) the confirmation sweep of every pick; pick name -> its sweep folder."""
    folders: dict[str, Path] = {}
    say = (lambda line: print(line, file=stream, flush=True)) if not quiet and stream is not None else None
    base = training.ensure_base(spec, outdir, say) if spec.trained and chosen else None
    for pick in chosen:
        folder = confirm_folder(outdir, pick)
        if folder in folders.values():
            folders[pick.name] = folder  # the rulebook may also be a recommended set: played once
            continue
        sweep_spec = parse_spec(_confirm_data(spec, pick.rules, folder, pick.name), name=f"confirm-{pick.name}")
        rules = ", ".join(f"{k}={v}" for k, v in pick.rules.items())
        if base is not None:
            sweep_spec, policy = _race_policy(spec, outdir, pick, sweep_spec, base)
            if say is not None and not policy.reused:
                say(f"confirmation of {pick.name} [{rules}]: the race never played it; its policy trained now, "
                    f"{policy.summary['iterations']:,} iterations from the base policy in "
                    f"{policy.summary['cpu_seconds']:.1f} CPU s")
        if say is not None:
            say(f"confirmation of {pick.name} [{rules}]: {spec.confirm.games} fresh games")
        run_sweep(sweep_spec, workers=workers, dask=dask, out=folder, report=spec.confirm.reports, quiet=True,
                  stream=stream)
        folders[pick.name] = folder
    return folders
