"""Report pages that say how far the players behind the figures can be trusted: challengers against each tested
line-up ("Can these players be trusted?"), the skill trace, and each measure under each line-up side by side.

Drawn from the results set's ``trust``, ``trust_verdicts``, ``skill_trace``, ``skill_summary`` and
``lineup_comparison`` tables; a page is drawn only when its tables are there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import versus
from trustme_analysis.report.layout import BOTTOM, LEFT, RIGHT, draw_table, interval_plot, new_page, percent_axis, wrap
from trustme_analysis.report.panels import pct
from trustme_analysis.report.words import count, estimate, percent
from trustme_analysis.results.checks import search_text, verdict_text

#: Measures drawn per page of the line-up comparison.
MEASURES_PER_PAGE = 8


def add_pages(ctx: Report) -> None:
    """The checks' pages, where the spec asked for checks (section ``checks``), and the line-up comparison."""
    if "trust" in ctx.results:
        for variant in dict.fromkeys(ctx["trust"]["variant"]):
            _trust_page(ctx, str(variant))
    if "skill_trace" in ctx.results:
        _skill_page(ctx)
    if "lineup_comparison" in ctx.results:
        _lineup_pages(ctx)


def _trust_page(ctx: Report, variant: str) -> None:
    table = ctx["trust"]
    rows = table[table["variant"] == variant].reset_index(drop=True)
    verdict = ctx["trust_verdicts"].set_index("variant").loc[variant]
    title = f"Can these players be trusted? {variant} ({rows['lineup'].iloc[0]})"
    fig = new_page(title, f"{variant} = {ctx.variant_label(variant)}. Each challenger sits in one seat against the "
                   "line-up's own bots in the others (seats rotating); its win rate with the 95% Wilson interval, "
                   "against the fair share (dashed).")
    ax = fig.add_axes((0.07, 0.47, 0.55, 0.38))
    labels = list(rows["challenger"])
    interval_plot(ax, labels, rows["win_rate"], rows["low"], rows["high"], "challenger's win rate",
                  reference=float(rows["fair"].iloc[0]), reference_label="fair share")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(loc="upper right", fontsize=7.5)
    findings = [_verdict_sentence(verdict, rows)]
    gain = search_text(verdict)
    if gain:
        findings.append(f"The search challenger does not decide the verdict: {gain}. "
                        + ("Stronger play moves the outcome, so weigh the figures against a stronger line-up where "
                           "the spec plays one." if verdict["search_low"] > 0 else
                           "Thinking ahead does not beat these players measurably at this number of games."))
    if verdict["verdict"] == "exploitable":
        findings.append("The figures of this line-up describe players a simple strategy beats: read them as the "
                        "behaviour of these bots, not of the game under good play.")
    shown = pd.DataFrame({
        "challenger": rows["challenger"],
        "games": rows["games"],
        "win rate [95%]": [pct(*r) for r in rows[["win_rate", "low", "high"]].to_numpy(dtype=float)],
        "fair share": [f"{100 * f:.0f}%" for f in rows["fair"]],
        "edge": [f"{100 * e:+.0f} pp" for e in rows["edge"]],
    })
    tax = fig.add_axes((LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30))
    draw_table(tax, shown, widths=[2.2, 0.8, 1.6, 1.0, 1.0])
    # Not offered to the first page: its "What the games say" already states each verdict (the headlines' trust rows).
    ctx.add(fig, title, "checks", findings=findings, variants=[variant])


def _verdict_sentence(verdict: pd.Series, rows: pd.DataFrame) -> str:
    """The verdict, and what the line-up holds against and what beats it, by name."""
    probes = rows[rows["kind"] == "probe"] if "kind" in rows.columns else rows
    if not len(probes):
        return "No probe played against this line-up: the search challenger's figure below is the only check."
    beaten = probes[probes["p_holm"] <= 0.05] if "p_holm" in probes.columns else probes.iloc[:0]
    beaten = beaten[beaten["edge"] > 0]
    holds = [str(c) for c in probes["challenger"] if c not in set(beaten["challenger"])]
    said = f"Verdict: {verdict_text(verdict)}."
    if len(beaten):
        said += " Beaten by: " + "; ".join(f"{r.challenger} ({100 * r.edge:+.1f} points)" for r in beaten.itertuples())
        said += "." if not holds else f". Holds against: {', '.join(holds)}."
    else:
        said += f" Holds against: {', '.join(holds)} ({count(int(probes['games'].min()))} games each or more)."
    return said


def _skill_page(ctx: Report) -> None:
    trace = ctx["skill_trace"]
    summary = ctx["skill_summary"].set_index("variant")
    title = "Skill trace: does thinking longer win more?"
    fig = new_page(title, "Search players of growing budget, each against the previous one (the stronger in one "
                   "seat, seats rotating): the stronger's win rate with its 95% Wilson interval; dashed: the fair "
                   "share.")
    ax = fig.add_axes((0.07, 0.47, 0.55, 0.38))
    for i, (variant, grp) in enumerate(trace.groupby("variant", sort=True)):
        x = np.arange(len(grp)) + (i - 0.5 * (trace["variant"].nunique() - 1)) * 0.08
        est = grp["win_rate"].to_numpy(dtype=float)
        yerr = np.clip(np.vstack([est - grp["low"].to_numpy(dtype=float), grp["high"].to_numpy(dtype=float) - est]),
                       0, None)
        ax.errorbar(x, est, yerr=yerr, marker="o", capsize=3, label=variant, color=f"C{i}")
    first = trace[trace["variant"] == trace["variant"].iloc[0]]
    ax.set_xticks(np.arange(len(first)),
                  [f"{b} vs {p}" for b, p in zip(first["budget"], first["previous"])])
    ax.axhline(float(trace["fair"].iloc[0]), color="0.4", linestyle="--", linewidth=1)
    ax.set_xlabel("rollouts per decision: stronger vs weaker")
    ax.set_ylabel("stronger player's win rate")
    ax.set_ylim(-0.02, 1.02)
    percent_axis(ax)
    ax.legend(loc="upper right", fontsize=7.5, title="variant")
    findings = [f"Skill vs luck in {ctx.variant_name(str(variant))}: {estimate(r['skill_vs_luck'], r['low'], r['high'])} "
                f"over {int(r['steps'])} step(s) of growing budget (0: thinking longer never helps; 1: the stronger "
                "player always wins)." for variant, r in summary.iterrows()][:3]
    shown = pd.DataFrame({
        "variant": trace["variant"],
        "stronger vs weaker": [f"{b} vs {p}" for b, p in zip(trace["budget"], trace["previous"])],
        "games": trace["games"],
        "stronger's win rate [95%]": [pct(*r) for r in trace[["win_rate", "low", "high"]].to_numpy(dtype=float)],
        "fair share": [f"{100 * f:.0f}%" for f in trace["fair"]],
    }).head(12)
    tax = fig.add_axes((LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30))
    draw_table(tax, shown, widths=[0.8, 1.6, 0.8, 2.0, 1.0])
    ctx.add(fig, title, "checks", findings=findings, front=1, variants=sorted(summary.index))


def _lineup_pages(ctx: Report) -> None:
    table = ctx["lineup_comparison"]
    # The rule variant of the baseline first: that is where the line-ups are compared on the first page.
    base_rules = table.loc[table["variant"] == ctx.baseline, "rules"]
    order = list(dict.fromkeys(list(base_rules) + list(table["rules"])))
    measures = list(dict.fromkeys(table["measure"]))
    lineups = list(dict.fromkeys(table["lineup"]))
    for rules in order:
        sub = table[table["rules"] == rules]
        findings = _lineup_findings(sub, lineups, measures, str(rules))
        for start in range(0, len(measures), MEASURES_PER_PAGE):
            names = measures[start : start + MEASURES_PER_PAGE]
            title = f"Each measure under each line-up: {rules}"
            fig = new_page(title, "The same rules played by each line-up, with 95% intervals: a conclusion holds under "
                           "competent play when it holds for the competent line-up too.")
            for i, name in enumerate(names):
                r, c = divmod(i, 4)
                ax = fig.add_axes((0.07 + c * 0.235, 0.50 - r * 0.41, 0.17, 0.29))
                m = sub[sub["measure"] == name].set_index("lineup").reindex(lineups)
                unit = str(m["unit"].dropna().iloc[0]) if m["unit"].notna().any() else ""
                interval_plot(ax, lineups, m["value"], m["low"], m["high"], wrap(unit, 24), title=wrap(name, 34))
                ax.set_xlabel("line-up")
            ctx.add(fig, title, "checks", findings=findings if start == 0 else (),
                    front=2 if start == 0 and rules == order[0] else 0, variants=sorted(set(sub["variant"])))


def _lineup_findings(sub: pd.DataFrame, lineups: list[str], measures: list[str], rules: str) -> list[str]:
    """Per line-up after the first (the reference, usually the heuristic), the measures whose 95% intervals do not
    overlap the reference's (the conclusions that move with the players), the largest moves first."""
    if len(lineups) < 2:
        return []
    reference = lineups[0]
    out = []
    for other in lineups[1:]:
        moved = []
        for name in measures:
            m = sub[sub["measure"] == name].set_index("lineup")
            if reference not in m.index or other not in m.index:
                continue
            a, b = m.loc[reference], m.loc[other]
            if pd.isna(a["low"]) or pd.isna(b["low"]) or (b["low"] <= a["high"] and a["low"] <= b["high"]):
                continue
            spread = max(float(a["high"] - a["low"]), float(b["high"] - b["low"]), 1e-12)
            unit = str(a["unit"]) if pd.notna(a["unit"]) else ""
            moved.append((abs(float(b["value"] - a["value"])) / spread, name,
                          estimate(a["value"], a["low"], a["high"], unit), estimate(b["value"], b["low"], b["high"], unit)))
        moved.sort(key=lambda item: -item[0])
        if not moved:
            out.append(f"With {rules}, every measure's interval under line-up {other} overlaps line-up {reference}'s: "
                       "these conclusions hold for both sets of players.")
            continue
        shown = "; ".join(f"{name} {a} under {reference}, {b} under {other}" for _, name, a, b in moved[:3])
        more = f" (and {len(moved) - 3} more)" if len(moved) > 3 else ""
        out.append(f"With {rules}, {len(moved)} of {len(measures)} measures move outside line-up {reference}'s "
                   f"interval under line-up {other}: {shown}{more}. Conclusions resting on them depend on who plays.")
    return out
