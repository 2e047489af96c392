"""The tuning report (``OUT/tuning.pdf``), drawn from the tuning's stored results set
(:mod:`~trustme_analysis.tune.tables`) only.

Pages: the answer (the recommended rule sets against the rulebook's, each objective with its interval from the fresh
games of the confirmation), what was searched, the confirmation figures, the Pareto front (several objectives), the
search's progress and the race, which parameters matter, and the trials. Each confirmed rule set's own sweep report is
``OUT/confirm/<candidate>/report.pdf``.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from trustme_analysis.atomic import atomic_path  # noqa: E402
from trustme_analysis.report.layout import (  # noqa: E402
    RC,
    Line,
    close,
    flow_pages,
    format_frame,
    interval_plot,
    new_page,
    table_pages,
    text_lines,
)
from trustme_analysis.results import ResultSet  # noqa: E402

TUNING_REPORT = "tuning.pdf"
#: Trials listed on the trials pages (the best by their first objective's loss).
TRIALS_LISTED = 60


def _fmt(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4g}"


def _iv(value: float, low: float, high: float) -> str:
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        return _fmt(value)
    return f"{_fmt(value)} [{_fmt(low)}, {_fmt(high)}]"


def answer_lines(res: ResultSet) -> list[str]:
    """The answer as sentences: for each recommended rule set, each objective on fresh games against the rulebook."""
    conf = res["tune_confirmation"]
    manifest = res.manifest
    out: list[str] = []
    if conf.empty:
        return ["No rule set was confirmed (the confirmation was not run, or no trial finished)."]
    rulebook = conf[conf["name"] == "rulebook"]
    games = int(rulebook["games"].iloc[0]) if len(rulebook) else int(conf["games"].iloc[0])
    out.append(f"Every figure below comes from {games} fresh games per rule set (confirmation seed "
               f"{manifest.get('spec', {}).get('confirm', {}).get('seed', '?')}), none of which the search saw; "
               "95% intervals in brackets.")
    base_missed = rulebook[(rulebook["kind"] == "constraint") & (rulebook["constraint"] == "missed")]
    if len(base_missed):
        out.append("The rulebook's rules miss " + "; ".join(
            f"{r.measure} ({r.wanted}): {_iv(r.value, r.low, r.high)}" for r in base_missed.itertuples()) + ".")
    improved = []
    for name, grp in conf[conf["name"] != "rulebook"].groupby("name", sort=False):
        objs = grp[grp["kind"] == "objective"]
        cons = grp[grp["kind"] == "constraint"]
        better = (objs["verdict"] == "better").sum()
        worse = (objs["verdict"] == "worse").sum()
        missed = (cons["constraint"] == "missed").sum()
        parts = []
        versus = res["tune_versus"] if "tune_versus" in res else None
        for r in objs.itertuples():
            base = rulebook[rulebook["key"] == r.key]
            b = f"; rulebook {_iv(base['value'].iloc[0], base['low'].iloc[0], base['high'].iloc[0])}" if len(base) \
                else ""
            others = ""
            if versus is not None and len(versus):
                refs = versus[(versus["name"] == name) & (versus["key"] == r.key) & (versus["against"] != "rulebook")]
                others = "".join(f"; against {v.against}: {v.verdict}" for v in refs.itertuples())
            parts.append(f"{r.measure} ({r.wanted}) {_iv(r.value, r.low, r.high)}{b}: {r.verdict}{others}")
        for r in cons.itertuples():
            parts.append(f"{r.measure} ({r.wanted}) {_iv(r.value, r.low, r.high)}: {r.constraint}")
        same = grp["candidate"].iloc[0] == (rulebook["candidate"].iloc[0] if len(rulebook) else None)
        reference = "role" in grp.columns and grp["role"].iloc[0] == "reference"
        label = f"{name} [{grp['rules'].iloc[0]}]" + (" (the rulebook's rule set)" if same else "") + \
            (" (a reference named in the spec)" if reference else "")
        out.append(f"{label}: " + "; ".join(parts) + ".")
        if same or missed or reference:
            continue
        if (better and not worse) or (len(base_missed) and not (cons["constraint"] == "uncertain").any()):
            improved.append(name)
    if improved:
        first = conf[conf["name"] == improved[0]]["rules"].iloc[0]
        why = ("it meets the constraints the rulebook misses" if len(base_missed) else
               "better than the rulebook with confidence on at least one objective and worse on none")
        out.insert(1, f"Recommended: {improved[0]} ({first}): {why}"
                   + (f"; also {', '.join(improved[1:])}." if len(improved) > 1 else "."))
    else:
        out.insert(1, "No better rule set: no confirmed rule set beats the rulebook with confidence on an objective "
                   "without being worse on another or missing a constraint, on the fresh games.")
    return out


def _answer_pages(res: ResultSet) -> list[Figure]:
    m = res.manifest
    lines: list[Line] = [Line("The question", "h1")]
    lines += text_lines(m.get("question", ""))
    lines += [Line(""), Line("The answer", "h1")]
    for sentence in answer_lines(res):
        lines += text_lines(sentence, indent=2)
        lines.append(Line(""))
    s = m.get("summary", {})
    lines += [Line("The search", "h2")]
    lines += text_lines(
        f"{s.get('trials_finished', 0)} trials evaluated {s.get('candidates', 0)} distinct rule sets "
        f"({s.get('complete', 0)} trials to the full "
        f"{m.get('spec', {}).get('budget', {}).get('games_per_candidate', '?')} games, {s.get('pruned', 0)} stopped "
        f"early by the race, {s.get('failed', 0)} failed or rejected by the game; {s.get('interrupted', 0)} "
        f"interrupted by a stop and re-run) with {s.get('games_spent', 0)} of "
        f"the budget's {m.get('spec', {}).get('budget', {}).get('games', '?')} games; stopped because "
        f"{s.get('stopped') or 'the run ended'}.")
    t = s.get("training")
    if t:
        lines += text_lines(
            f"Trained players: the rulebook's base policy trained {t['base_iterations']:,} iterations in "
            f"{t['base_cpu_seconds']:.0f} CPU s; each candidate's policy {t['candidate_iterations']:,} more from it, "
            f"{t['candidate_cpu_seconds_mean']:.1f} CPU s on average ({t['candidate_policies']} policies, "
            f"{t['candidate_cpu_seconds']:.0f} CPU s in all).")
    return flow_pages(m.get("title", "Rule tuning"), lines)


def _setup_pages(res: ResultSet) -> list[Figure]:
    m = res.manifest
    spec = m.get("spec", {})
    lines: list[Line] = [Line("Game and players", "h2")]
    lines += text_lines(f"Game {spec.get('game')}; fixed rules: "
                        + (", ".join(f"{k}={v}" for k, v in spec.get("params", {}).items()) or "none")
                        + "; line-up: " + ", ".join(f"{k} {v}" for k, v in spec.get("lineups", {}).items()))
    lines += text_lines("Rulebook values of the searched rules: "
                        + ", ".join(f"{k}={v}" for k, v in spec.get("rulebook", {}).items()))
    lines += [Line(""), Line("Search space", "h2")]
    for k, v in spec.get("search", {}).items():
        lines += text_lines(f"{k}: {v}", indent=2)
    lines += [Line(""), Line("Objectives and constraints", "h2")]
    for r in res["tune_measures"].itertuples():
        lines += text_lines(f"{r.kind} {r.name}: {r.reads}, wanted {r.wanted} (interval columns: {r.interval})",
                            indent=2)
    b = spec.get("budget", {})
    smp = spec.get("sampler", {})
    c = spec.get("confirm", {})
    lines += [Line(""), Line("Budget, racing and sampler", "h2")]
    lines += text_lines(
        f"Budget {b.get('games')} games, at most {b.get('games_per_candidate')} per candidate, looked at after "
        f"{', '.join(str(x) for x in b.get('rungs', []))} games (racing: {b.get('racing')}); chunks of "
        f"{b.get('chunk_size')} games. Every candidate plays the same game seeds (search seed {spec.get('seed')}): "
        f"common random numbers. Sampler: {smp.get('used')} (population {smp.get('population')}, "
        f"{smp.get('startup_trials')} random start-up trials; rulebook first: {smp.get('rulebook_first')}). "
        f"Confirmation: the rulebook and up to {c.get('best')} best rule sets, {c.get('games')} games each, seed "
        f"{c.get('seed')}.")
    lines += [Line(""), Line("Reading the figures", "h2")]
    lines += text_lines(
        "A loss is what the search minimises: the figure itself (minimize), its negative (maximize), its distance "
        "from the target, or its distance outside the wanted range. The search's own figures are optimistic for the "
        "rule sets it picks (the best-looking of many noisy estimates is partly lucky): the claims are the "
        "confirmation's, on fresh games. Differences from the rulebook use MOVER intervals (Zou and Donner, 2008).")
    return flow_pages("What was searched", lines)


def _confirmation_pages(res: ResultSet) -> list[Figure]:
    conf = res["tune_confirmation"]
    if conf.empty:
        return []
    measures = res["tune_measures"].set_index("key")
    keys = list(dict.fromkeys(conf["key"]))
    figs = []
    per_page = 4
    for start in range(0, len(keys), per_page):
        fig = new_page("Confirmation on fresh games", "Each point: the rule set's figure on the confirmation's games "
                       "with its 95% interval; dashed: the target, shaded: the wanted range or limit.")
        chunk = keys[start:start + per_page]
        for j, key in enumerate(chunk):
            ax = fig.add_axes((0.07 + (j % 2) * 0.47, 0.52 - (j // 2) * 0.42, 0.40, 0.32))
            sub = conf[conf["key"] == key]
            meta = measures.loc[key]
            interval_plot(ax, list(sub["name"]), sub["value"], sub["low"], sub["high"], str(meta["name"]),
                          title=f"{meta['name']} ({meta['wanted']})")
            lo, hi = float(meta["low"]), float(meta["high"])
            if math.isfinite(lo) and math.isfinite(hi) and lo == hi:
                ax.axhline(lo, color="0.4", linestyle="--", linewidth=1)
            elif math.isfinite(lo) or math.isfinite(hi):
                y0, y1 = ax.get_ylim()
                ax.axhspan(lo if math.isfinite(lo) else y0, hi if math.isfinite(hi) else y1, color="C2", alpha=0.12)
                ax.set_ylim(y0, y1)
        figs.append(fig)
    table = conf[["name", "measure", "value", "low", "high", "loss", "diff", "diff_low", "diff_high", "verdict",
                  "constraint", "games"]].copy()
    figs += table_pages("Confirmation: figures, losses and differences from the rulebook",
                        format_frame(table, 4), widths=[1.0, 2.2, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 1.4, 0.9, 0.7],
                        note="diff: loss minus the rulebook's loss (negative: closer to what is wanted), with its "
                        "MOVER 95% interval; verdict 'better'/'worse' when that interval excludes 0.")
    return figs


def _pareto_pages(res: ResultSet) -> list[Figure]:
    measures = res["tune_measures"]
    objs = measures[measures["kind"] == "objective"]
    if len(objs) < 2:
        return []
    trials = res["tune_trials"]
    done = trials[trials["state"] == "complete"]
    rec = res["tune_recommended"]
    pairs = [(a, b) for i, a in enumerate(objs["key"]) for b in list(objs["key"])[i + 1:]][:4]
    fig = new_page("The Pareto front", "Complete trials by their objectives' figures (search estimates); filled: on "
                   "the front of the candidates meeting the constraints; squares: the confirmed rule sets.")
    names = dict(zip(objs["key"], objs["name"]))
    for j, (a, b) in enumerate(pairs):
        ax = fig.add_axes((0.07 + (j % 2) * 0.47, 0.52 - (j // 2) * 0.42, 0.40, 0.32))
        other = done[~done["pareto"].astype(bool)]
        front = done[done["pareto"].astype(bool)].sort_values(a)
        ax.scatter(other[a], other[b], s=14, facecolors="none", edgecolors="0.5", label="trials")
        ax.plot(front[a], front[b], "o-", color="C0", markersize=5, label="Pareto front")
        for r in rec.itertuples():
            x, y = getattr(r, a), getattr(r, b)
            if not (math.isnan(x) or math.isnan(y)):
                ax.plot(x, y, "s", color="C3" if r.name == "rulebook" else "C1", markersize=7)
                ax.annotate(r.name, (x, y), fontsize=7, xytext=(4, 4), textcoords="offset points")
        ax.set_xlabel(names[a])
        ax.set_ylabel(names[b])
        ax.legend(loc="best")
    return [fig]


def _progress_pages(res: ResultSet) -> list[Figure]:
    prog = res["tune_progress"]
    trials = res["tune_trials"]
    measures = res["tune_measures"]
    objs = measures[measures["kind"] == "objective"]
    if prog.empty:
        return []
    fig = new_page("How the search progressed", "Left: each trial's loss (after its last look) against the games the "
                   "search had spent; line: the best complete trial meeting the constraints so far. Right: games "
                   "played per trial (the race stops hopeless candidates early).")
    for j, r in enumerate(objs.itertuples()):
        if j >= 2:
            break
        ax = fig.add_axes((0.07, 0.52 - j * 0.42, 0.50, 0.32))
        for state, marker, color in (("complete", "o", "C0"), ("stopped by the race", "x", "C3")):
            sub = prog[prog["state"] == state]
            ax.scatter(sub["games_spent"], sub[f"{r.key}_loss"], marker=marker, s=16, color=color, label=state)
        ax.step(prog["games_spent"], prog[f"{r.key}_best"], where="post", color="k", linewidth=1.2, label="best so far")
        ax.set_xlabel("games spent by the search")
        ax.set_ylabel(f"loss: {r.name}")
        ax.legend(loc="best")
    ax = fig.add_axes((0.65, 0.10, 0.30, 0.74))
    t = trials.sort_values("trial")
    colors = ["C0" if s == "complete" else "C3" if s == "stopped by the race" else "0.6" for s in t["state"]]
    ax.barh(t["trial"], t["played"], color=colors)
    ax.set_xlabel("games played for the trial")
    ax.set_ylabel("trial")
    ax.invert_yaxis()
    return [fig]


def _race_pages(res: ResultSet) -> list[Figure]:
    looks = res["tune_looks"]
    if looks.empty or looks["rung"].max() == 0:
        return []
    # A rule set proposed again shows its stored games again: only trials that played games are drawn.
    played = looks.groupby("trial")["played"].sum()
    looks = looks[looks["trial"].isin(played[played > 0].index)]
    fig = new_page("The race", "First objective's loss with its 95% interval at each look (rung) of every trial that "
                   "played games; red: trials the race stopped, blue: trials played to the end.")
    ax = fig.add_axes((0.07, 0.10, 0.88, 0.74))
    for trial, grp in looks.groupby("trial"):
        color = "C3" if grp["state"].iloc[0] == "stopped by the race" else "C0"
        x = grp["games"].to_numpy(dtype=float) * (1 + 0.01 * (trial % 7 - 3))
        ax.errorbar(x, grp["obj0_loss"], yerr=np.nan_to_num(np.clip(np.vstack(
            [grp["obj0_loss"] - grp["obj0_loss_low"], grp["obj0_loss_high"] - grp["obj0_loss"]]), 0, None)),
            color=color, alpha=0.5, linewidth=0.8, marker=".", capsize=2)
    ax.set_xscale("log")
    ax.set_xlabel("games played for the trial (log scale)")
    ax.set_ylabel(f"loss: {res['tune_measures']['name'].iloc[0]}")
    return [fig]


def _importance_pages(res: ResultSet) -> list[Figure]:
    imp = res["tune_importance"]
    fig = new_page("Which parameters matter", "Optuna's PED-ANOVA importance of each searched parameter for each "
                   "objective's loss (complete trials); a generated list is searched as its first value and steps.")
    if imp.empty:
        fig.text(0.07, 0.8, "Too few complete trials to estimate importances.", fontsize=10)
        return [fig]
    keys = list(dict.fromkeys(imp["key"]))
    for j, key in enumerate(keys[:4]):
        ax = fig.add_axes((0.20 + (j % 2) * 0.45, 0.52 - (j // 2) * 0.42, 0.30, 0.32))
        sub = imp[imp["key"] == key].sort_values("importance")
        ax.barh(sub["parameter"], sub["importance"], color="C0")
        ax.set_title(str(sub["objective"].iloc[0]))
        ax.set_xlabel("importance")
    return [fig]


def _trial_pages(res: ResultSet) -> list[Figure]:
    trials = res["tune_trials"]
    if trials.empty:
        return []
    objs = res["tune_measures"]
    keys = list(objs[objs["kind"] == "objective"]["key"])
    listed = trials.sort_values([f"{keys[0]}_loss", "trial"], na_position="last").head(TRIALS_LISTED)
    trained = "training_cpu_s" in trials.columns
    cols = ["trial", "state", "rules", "games"] + [f"{k}_loss" for k in keys] + ["feasible", "pareto"] \
        + (["training_cpu_s"] if trained else []) + ["note"]
    table = listed[[c for c in cols if c in listed.columns]]
    names = dict(zip(objs["key"], objs["name"]))
    table = table.rename(columns={**{f"{k}_loss": f"loss: {names[k]}" for k in keys},
                                  "training_cpu_s": "training CPU s"})
    widths = [0.5, 1.1, 3.6, 0.6] + [1.0] * len(keys) + [0.6, 0.6] + ([0.8] if trained else []) + [2.6]
    return table_pages(f"Trials (the best {min(len(trials), TRIALS_LISTED)} by the first objective's loss)",
                       format_frame(table, 4), widths=widths[: len(table.columns)], rows_per_page=24)


def build_tuning_report(outdir: str | Path, res: ResultSet) -> Path:
    """Draw ``OUT/tuning.pdf`` from the tuning's results set; returns its path."""
    path = Path(outdir) / TUNING_REPORT
    with matplotlib.rc_context(RC):
        figs: list[Figure] = []
        try:
            for make in (_answer_pages, _setup_pages, _confirmation_pages, _pareto_pages, _progress_pages,
                         _race_pages, _importance_pages, _trial_pages):
                figs += make(res)
            title = str(res.manifest.get("title", "Rule tuning"))
            metadata = {"Title": title, "Subject": "Trust Me rule tuning report", "CreationDate": None}
            with atomic_path(path) as tmp, PdfPages(tmp, metadata=metadata) as pdf:
                for number, fig in enumerate(figs, start=1):
                    fig.text(0.95, 0.025, f"{title} \u2014 page {number} of {len(figs)}", ha="right", fontsize=7,
                             color="0.4")
                    pdf.savefig(fig)
        finally:
            close(figs)
            plt.close("all")
    return path

