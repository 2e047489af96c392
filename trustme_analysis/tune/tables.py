"""The tuning's results set: every figure of the tuning report, computed once from the study and the confirmation
sweeps and stored under ``OUT/stats/`` (the results layer's format: Parquet, CSV, ``index.json``); the pages only
draw it.

Objectives and constraints are numbered in the order of the spec (``obj0``, ``obj1``, ...; ``con0``, ...); the table
``tune_measures`` says what each one is. Tables:

- ``tune_measures``: each objective and constraint: its name, what it reads, what is wanted, its interval columns;
- ``tune_trials``: one row per trial: state, rule values, games, figures with intervals and losses after its last
  look, whether it meets the constraints and lies on the Pareto front, why the race stopped it; with a trained
  line-up, the CPU seconds its candidate's policy took to train and whether this trial trained it;
- ``tune_looks``: one row per look at a trial (rung): games and each objective's loss interval (the race);
- ``tune_progress``: per finished trial in order: games spent so far and the best loss so far per objective;
- ``tune_importance``: per objective and searched parameter, Optuna's importance (PED-ANOVA);
- ``tune_recommended``: the confirmed rule sets (rulebook first) and the search's figures for them;
- ``tune_confirmation``: per confirmed rule set and measure: the figure on fresh games with its interval, its loss or
  violation, and the difference in loss from the rulebook with its interval and verdict;
- ``tune_versus``: each recommended rule set against the rulebook and every reference named in the spec.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import optuna
import pandas as pd
from optuna.trial import TrialState

from trustme_analysis import results
from trustme_analysis.results import ResultSet, Table
from trustme_analysis.tune.confirm import Pick
from trustme_analysis.tune.evaluate import read_figures
from trustme_analysis.tune.measures import Figure, mover
from trustme_analysis.tune.racing import pareto_front
from trustme_analysis.tune.spec import TuneSpec
from trustme_analysis.tune.study import trial_info

STATES = {TrialState.COMPLETE: "complete", TrialState.PRUNED: "stopped by the race", TrialState.FAIL: "failed",
          TrialState.RUNNING: "running", TrialState.WAITING: "waiting"}


def _rules_text(rules: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in rules.items())


def measures_table(spec: TuneSpec, intervals: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``tune_measures``."""
    rows = []
    for kind, items, prefix in (("objective", spec.objectives, "obj"), ("constraint", spec.constraints, "con")):
        for i, item in enumerate(items):
            cols = (intervals or {}).get(item.name)
            rows.append({"key": f"{prefix}{i}", "kind": kind, "name": item.name, "reads": item.measure.describe(),
                         "wanted": item.wanted(), "interval": "/".join(cols) if cols else "none",
                         "low": item.bounds()[0] if kind == "objective" else item.at_least,
                         "high": item.bounds()[1] if kind == "objective" else item.at_most})
    return pd.DataFrame(rows)


def trials_table(spec: TuneSpec, study: optuna.Study) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``tune_trials`` and ``tune_looks``."""
    rows, looks = [], []
    retries = {t.user_attrs.get("retry_of"): t.number for t in study.trials if "retry_of" in t.user_attrs}
    for t in study.trials:
        info = trial_info(t)
        rules = info["rules"]
        row: dict[str, Any] = {
            "trial": t.number,
            "state": STATES.get(t.state, str(t.state)),
            "candidate": info["candidate"],
            "rules": _rules_text(rules),
            **{f"rule_{k}": str(v) for k, v in rules.items()},
            "games": info["games"],
            "played": info["played"],
            "rulebook": bool(t.user_attrs.get("rulebook", False)),
            "retry_of": t.user_attrs.get("retry_of", -1),
            "retried_as": retries.get(t.number, -1),
            "note": t.user_attrs.get("stopped") or info["invalid"] or t.user_attrs.get("error") or "",
        }
        if spec.trained:
            trained = info["training"] or {}
            row["training_cpu_s"] = float(trained.get("cpu_seconds", math.nan))
            row["trained_now"] = bool(trained.get("trained_now", False))
        history = info["looks"]
        last = history[-1] if history else None
        for i, o in enumerate(spec.objectives):
            fig = last["figures"].get(o.name) if last else None
            loss = last["losses"][i] if last else [math.nan] * 3
            row.update({f"obj{i}": fig[0] if fig else math.nan, f"obj{i}_low": fig[1] if fig else math.nan,
                        f"obj{i}_high": fig[2] if fig else math.nan, f"obj{i}_loss": loss[0],
                        f"obj{i}_loss_low": loss[1], f"obj{i}_loss_high": loss[2]})
        for i, c in enumerate(spec.constraints):
            fig = last["figures"].get(c.name) if last else None
            viol = last["violations"][i] if last else [math.nan] * 3
            row.update({f"con{i}": fig[0] if fig else math.nan, f"con{i}_low": fig[1] if fig else math.nan,
                        f"con{i}_high": fig[2] if fig else math.nan, f"con{i}_violation": viol[0]})
        row["feasible"] = bool(last) and all(v[0] <= 0 for v in last["violations"])
        rows.append(row)
        for r, h in enumerate(history):
            entry = {"trial": t.number, "rung": r, "games": h["games"], "played": int(h.get("played", 0)),
                     "state": row["state"]}
            for i in range(len(spec.objectives)):
                entry.update({f"obj{i}_loss": h["losses"][i][0], f"obj{i}_loss_low": h["losses"][i][1],
                              f"obj{i}_loss_high": h["losses"][i][2]})
            looks.append(entry)
    trials = pd.DataFrame(rows)
    if len(trials):
        done = (trials["state"] == "complete") & trials["feasible"]
        losses = trials.loc[done, [f"obj{i}_loss" for i in range(len(spec.objectives))]].to_numpy(dtype=float)
        trials["pareto"] = False
        if len(losses):  # no complete, feasible trial: none is on the front
            trials.loc[done, "pareto"] = pareto_front(losses.tolist())
    return trials, pd.DataFrame(looks)


def progress_table(spec: TuneSpec, trials: pd.DataFrame) -> pd.DataFrame:
    """``tune_progress``: games spent and the best loss so far, in trial order."""
    rows = []
    spent = 0
    best = [math.inf] * len(spec.objectives)
    for r in trials.sort_values("trial").itertuples(index=False):
        spent += int(r.played)
        if r.state == "complete" and r.feasible:
            best = [min(b, getattr(r, f"obj{i}_loss")) for i, b in enumerate(best)]
        rows.append({"trial": r.trial, "state": r.state, "games_spent": spent,
                     **{f"obj{i}_loss": getattr(r, f"obj{i}_loss") for i in range(len(spec.objectives))},
                     **{f"obj{i}_best": (b if math.isfinite(b) else math.nan) for i, b in enumerate(best)}})
    return pd.DataFrame(rows)


def importance_table(spec: TuneSpec, study: optuna.Study) -> pd.DataFrame:
    """``tune_importance``: Optuna's PED-ANOVA importance of each searched parameter, per objective (empty when too
    few trials finished)."""
    rows = []
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    for i, o in enumerate(spec.objectives):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                imp = optuna.importance.get_param_importances(
                    study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(), target=lambda t, i=i: t.values[i])
        except (ValueError, RuntimeError, ZeroDivisionError):
            imp = {}
        if len(complete) < 2:
            imp = {}
        for param, value in imp.items():
            rows.append({"key": f"obj{i}", "objective": o.name, "parameter": param,
                         "rule": param.split(".")[0], "importance": float(value)})
    return pd.DataFrame(rows, columns=["key", "objective", "parameter", "rule", "importance"])


def recommended_table(spec: TuneSpec, chosen: Sequence[Pick], trials: pd.DataFrame) -> pd.DataFrame:
    """``tune_recommended``: the confirmed rule sets with the search's own figures (biased: the winner's curse)."""
    rows = []
    by_trial = trials.set_index("trial") if len(trials) else None
    for p in chosen:
        row: dict[str, Any] = {"name": p.name, "role": p.role, "trial": -1 if p.trial is None else p.trial,
                               "candidate": p.candidate,
                               "rules": _rules_text(p.rules), **{f"rule_{k}": str(v) for k, v in p.rules.items()}}
        src = None
        if by_trial is not None:
            if p.trial is not None:
                src = by_trial.loc[p.trial]
            else:
                same = trials[(trials["candidate"] == p.candidate) & (trials["state"] == "complete")]
                src = same.iloc[-1] if len(same) else None
        row["search_games"] = int(src["games"]) if src is not None else 0
        if spec.trained:
            row["training_cpu_s"] = float(src["training_cpu_s"]) if src is not None else math.nan
        for i in range(len(spec.objectives)):
            for suffix in ("", "_low", "_high", "_loss"):
                row[f"obj{i}{suffix}"] = float(src[f"obj{i}{suffix}"]) if src is not None else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def confirmation_table(spec: TuneSpec, chosen: Sequence[Pick], folders: Mapping[str, Path]) -> pd.DataFrame:
    """``tune_confirmation``: each confirmed rule set on fresh games, against the rulebook's."""
    figures: dict[str, dict[str, Figure]] = {}
    games: dict[str, int] = {}
    for p in chosen:
        if p.name in folders:
            res = results.load(folders[p.name])
            figures[p.name] = read_figures(spec, res)
            games[p.name] = int(res["variants"]["games"].sum())
    rows = []
    items = [("objective", f"obj{i}", o) for i, o in enumerate(spec.objectives)]
    items += [("constraint", f"con{i}", c) for i, c in enumerate(spec.constraints)]
    base = figures.get(chosen[0].name) if chosen else None
    for p in chosen:
        if p.name not in figures:
            continue
        for kind, key, item in items:
            fig = figures[p.name][item.name]
            loss = item.loss(fig) if kind == "objective" else item.violation(fig)
            row = {"name": p.name, "role": p.role, "candidate": p.candidate, "rules": _rules_text(p.rules),
                   "games": games[p.name],
                   "key": key, "kind": kind, "measure": item.name, "wanted": item.wanted(),
                   "value": fig.value, "low": fig.low, "high": fig.high,
                   "loss": loss.value, "loss_low": loss.low, "loss_high": loss.high}
            if base is not None and p.name != chosen[0].name:
                b = item.loss(base[item.name]) if kind == "objective" else item.violation(base[item.name])
                d, lo, hi = mover(loss.value, loss.low, loss.high, b.value, b.low, b.high)
                verdict = "better" if hi < 0 else "worse" if lo > 0 else "no clear difference"
            else:
                d = lo = hi = math.nan
                verdict = "reference"
            if kind == "constraint":
                status = "met" if loss.high == 0 else "missed" if loss.low > 0 else "uncertain"
            else:
                status = ""
            row.update({"diff": d, "diff_low": lo, "diff_high": hi, "verdict": verdict, "constraint": status})
            rows.append(row)
    return pd.DataFrame(rows)


def versus_table(confirmation: pd.DataFrame) -> pd.DataFrame:
    """``tune_versus``: every recommended rule set against the rulebook's and each named reference, per measure: the
    difference in loss (or violation) with its MOVER interval and verdict."""
    columns = ["name", "against", "key", "measure", "kind", "diff", "diff_low", "diff_high", "verdict"]
    if confirmation.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    found = confirmation[confirmation["role"] == "recommended"]
    bases = confirmation[confirmation["role"].isin(["rulebook", "reference"])]
    for r in found.itertuples():
        for b in bases[bases["key"] == r.key].itertuples():
            d, lo, hi = mover(r.loss, r.loss_low, r.loss_high, b.loss, b.loss_low, b.loss_high)
            verdict = "better" if hi < 0 else "worse" if lo > 0 else "no clear difference"
            rows.append({"name": r.name, "against": b.name, "key": r.key, "measure": r.measure, "kind": r.kind,
                         "diff": d, "diff_low": lo, "diff_high": hi, "verdict": verdict})
    return pd.DataFrame(rows, columns=columns)


def compute(spec: TuneSpec, study: optuna.Study, chosen: Sequence[Pick], folders: Mapping[str, Path],
            manifest: dict[str, Any], intervals: Mapping[str, Any] | None = None) -> ResultSet:
    """The tuning's results set (see the module docstring)."""
    res = ResultSet(manifest=manifest)

    def add(name: str, frame: pd.DataFrame, title: str, definition: str, interval: str = "",
            units: dict[str, str] | None = None) -> None:
        res.add(Table(name, frame, title, definition, interval, units or {}))

    add("tune_measures", measures_table(spec, intervals), "Objectives and constraints",
        "Each objective (what the search minimises: its loss) and constraint (where its figure must lie): the results "
        "set figure it reads, what is wanted, and the table's interval columns.")
    trials, looks = trials_table(spec, study)
    add("tune_trials", trials, "Every trial of the search",
        "One row per trial (candidate rule set): its state, rule values, games played for it, each objective's figure "
        "(objK, with its interval) and loss after its last look, each constraint's figure and violation, whether it "
        "meets the constraints by estimate (feasible) and lies on the Pareto front of the complete feasible trials; "
        "with a trained line-up, the CPU seconds its candidate's policy took to train (training_cpu_s, warm-started "
        "from the rulebook's base policy) and whether this trial trained it (trained_now; else it was stored).",
        "the results set's 95% intervals (aggregates bounded conservatively)", units={"training_cpu_s": "CPU s"})
    add("tune_looks", looks, "The race: each look at each trial",
        "One row per look (rung) at a trial: games so far and each objective's loss with its interval.",
        "the results set's 95% intervals")
    add("tune_progress", progress_table(spec, trials), "Search progress",
        "Per trial in order: games spent by the search so far and the lowest loss so far of each objective among "
        "complete trials that meet the constraints.", units={"games_spent": "games"})
    add("tune_importance", importance_table(spec, study), "Which parameters matter",
        "Optuna's PED-ANOVA importance of each searched parameter for each objective's loss over the complete trials "
        "(Watanabe et al., 2023): how much the parameter's values differ between the best trials and all trials; "
        "empty when too few trials finished.")
    chosen_list = list(chosen)
    add("tune_recommended", recommended_table(spec, chosen_list, trials), "The confirmed rule sets",
        "The rulebook's rule set and the recommended ones, with the search's own figures (biased upwards for the "
        "picked sets: only the confirmation's figures are claims).")
    confirmation = confirmation_table(spec, chosen_list, folders)
    add("tune_confirmation", confirmation, "Confirmation on fresh games",
        "Each confirmed rule set on games the search never saw: each measure's figure with its interval, its loss "
        "(objectives) or violation (constraints), and the difference in loss from the rulebook's (negative: better) "
        "with its MOVER interval; verdict 'better'/'worse' when that interval excludes 0.",
        "the results set's 95% intervals; differences: MOVER (Zou and Donner, 2008), conservative under common "
        "random numbers")
    add("tune_versus", versus_table(confirmation), "Recommended rule sets against the rulebook and the references",
        "Each recommended rule set against the rulebook's and each reference named in the spec, per measure: its loss "
        "(or violation) minus the other's (negative: closer to what is wanted) with the MOVER interval; verdict "
        "'better'/'worse' when that interval excludes 0.",
        "MOVER (Zou and Donner, 2008) from the confirmation's 95% intervals")
    return res


def inputs_key(study: optuna.Study, folders: Mapping[str, Path]) -> dict[str, Any]:
    """What the tuning's tables were computed from (trials and their states, confirmation chunks)."""
    trials = [[t.number, t.state.name, len(t.user_attrs.get("looks") or [])] for t in study.trials]
    chunks = {name: sorted(p.name for p in Path(f).glob("records/*/chunk-*.parquet")) for name, f in folders.items()}
    return {"trials": trials, "confirm": {k: len(v) for k, v in chunks.items()}}


def save(res: ResultSet, outdir: str | Path, key: dict[str, Any]) -> Path:
    """Store the tuning's results set under ``OUT/stats/``."""
    return results.store.save(res, outdir, key)


def load(outdir: str | Path) -> ResultSet:
    """The stored tuning results set."""
    return results.store.load(outdir)

