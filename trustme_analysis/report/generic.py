"""Report pages every game gets: seat balance, the Ludii balance metrics, and variant-vs-baseline comparisons.

Drawn from the results set's ``seat_win_rates``, ``equal_seats_test``, ``ludii_metrics`` and ``comparisons`` tables.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    draw_table,
    format_frame,
    format_p,
    interval_plot,
    new_page,
    table_pages,
    wrap,
)
from trustme_analysis.stats.balance import LUDII_METRICS

LUDII_DEFINITIONS = {
    "Balance": "1 - (largest - smallest seat win rate); 1 = every seat wins equally often.",
    "AdvantageP1": "win rate of the first seat (seat 0).",
    "Completion": "share of games that reached an ending of the rules.",
    "Drawishness": "share of games whose best final score was shared (decided by a tie-break).",
    "Duration": "mean turns per game (bonus turns included).",
    "LeadChange": "changes of the sole leader per turn (score after each turn), mean over games.",
    "Drama": "winner's largest deficit behind the leader / winner's final score, mean over games.",
    "Decisiveness": "share of turns from when the winner's sole lead became final to the end, mean over games.",
}


def add_balance_pages(ctx: Report) -> None:
    """Seat win rates with Wilson intervals, the chi-square test of equal seats, and the Ludii metrics."""
    rates = ctx["seat_win_rates"]
    tests = ctx["equal_seats_test"]
    metrics = ctx["ludii_metrics"]

    variants = ctx.variant_ids
    fig = new_page("Seat balance: win rate per seat", "Each point: share of games won from that seat, with its 95% "
                   "Wilson interval; dashed: the fair rate 1/players.")
    ax = fig.add_axes((0.07, 0.45, 0.78, 0.40))
    max_seats = int(rates["seat"].max()) + 1
    width = 0.8 / max_seats
    for seat in range(max_seats):
        sub = rates[rates["seat"] == seat].set_index("variant").reindex(variants)
        interval_plot(ax, variants, sub["win_rate"], sub["low"], sub["high"], "win rate (share of games)",
                      color=f"C{seat}", offset=(seat - (max_seats - 1) / 2) * width, label=f"seat {seat}")
    fair = rates.groupby("variant")["fair"].first().reindex(variants).to_numpy()
    for i, f in enumerate(fair):
        ax.hlines(f, i - 0.45, i + 0.45, color="0.4", linestyle="--", linewidth=1,
                  label="fair rate (1/players)" if i == 0 else None)
    ax.set_xlabel("variant (labels on the first pages)")
    ax.set_ylim(0, min(1.0, float(np.nanmax(rates["high"])) * 1.15 + 0.02))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7.5)
    table = tests.assign(
        first_seat_advantage=tests["first_seat_advantage"],
        verdict=np.where(tests["p_value"] < 0.05, "seats differ (p < 0.05)", "no evidence of a seat effect"),
    )[["variant", "seats", "games", "chi2", "dof", "p_value", "first_seat_advantage", "verdict"]]
    table["p_value"] = [format_p(p) for p in table["p_value"]]
    shown = table.head(14)
    tax = fig.add_axes((LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30))
    draw_table(tax, format_frame(shown.rename(columns={
        "chi2": "chi-square", "p_value": "p-value", "first_seat_advantage": "seat 0 win rate - 1/players"})),
        widths=[1, 1, 1, 1.2, 0.8, 1.2, 2.2, 3])
    ctx.add(fig, "Seat balance: win rate per seat", "balance")
    if len(table) > len(shown):
        ctx.add_all(table_pages("Seat balance: chi-square test of equal seats", format_frame(table)),
                    "Seat balance: chi-square test of equal seats", "balance")

    _ludii_page(ctx, metrics, variants)


def _ludii_page(ctx: Report, metrics: pd.DataFrame, variants: list[str]) -> None:
    title = "Balance metrics (Ludii)"
    fig = new_page(title, "Per variant, with 95% intervals (Wilson for shares, t for means, bootstrap over games "
                   "for Balance). Definitions below.")
    present = [m for m in LUDII_METRICS if m in set(metrics["metric"])]
    cols = 4
    rows = math.ceil(len(present) / cols)
    top, bottom = 0.86, 0.30
    h = (top - bottom) / rows
    for i, metric in enumerate(present):
        r, c = divmod(i, cols)
        ax = fig.add_axes((0.06 + c * 0.235, top - (r + 1) * h + 0.06, 0.18, h - 0.10))
        sub = metrics[metrics["metric"] == metric].set_index("variant").reindex(variants)
        unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
        interval_plot(ax, variants, sub["value"], sub["low"], sub["high"], wrap(unit, 24), title=metric)
        if metric in ("Balance", "AdvantageP1", "Completion", "Drawishness", "Decisiveness"):
            ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("variant")
    defs = "\n".join(f"{m}: {LUDII_DEFINITIONS[m]}" for m in present)
    fig.text(LEFT, BOTTOM, defs, fontsize=8, va="bottom")
    ctx.add(fig, title, "balance")


def add_comparison_pages(ctx: Report) -> None:
    """Every variant against the baseline on each comparison metric (the results set's ``comparisons``)."""
    comp = ctx["comparisons"]
    if len(ctx.variant_ids) < 2:
        return
    metric_names = list(dict.fromkeys(comp["metric"]))
    variants = [v for v in ctx.variant_ids if v != ctx.baseline]

    title = f"Variant vs baseline {ctx.baseline}: differences"
    per_page = 8
    for start in range(0, len(metric_names), per_page):
        names = metric_names[start : start + per_page]
        fig = new_page(title, "Variant minus baseline with unadjusted 95% intervals; filled marker: significant "
                       "after Holm's correction over all comparisons (family-wise 5%).")
        for i, name in enumerate(names):
            r, c = divmod(i, 4)
            ax = fig.add_axes((0.07 + c * 0.235, 0.50 - r * 0.41, 0.17, 0.29))
            sub = comp[comp["metric"] == name].set_index("variant").reindex(variants)
            unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
            interval_plot(ax, variants, sub["difference"], sub["low"], sub["high"], unit or "difference",
                          title=wrap(f"{name}: change", 34), reference=0.0)
            sig = sub["significant"].fillna(False).to_numpy(dtype=bool)
            x = np.arange(len(variants))
            ax.plot(x[sig], sub["difference"].to_numpy()[sig], "o", color="C3", markersize=6)
            ax.set_xlabel("variant")
        ctx.add(fig, title, "comparisons")

    shown = comp.assign(
        interval=[f"[{lo:+.3g}, {hi:+.3g}]" for lo, hi in zip(comp["low"], comp["high"])],
    )[["variant", "metric", "unit", "baseline_value", "value", "difference", "interval", "p_value", "p_holm",
       "significant"]]
    shown = shown.assign(p_value=[format_p(p) for p in shown["p_value"]],
                         p_holm=[format_p(p) for p in shown["p_holm"]])
    ctx.add_all(
        table_pages(
            f"Variant vs baseline {ctx.baseline}: all comparisons",
            format_frame(shown.rename(columns={"baseline_value": "baseline", "p_value": "p", "p_holm": "Holm p",
                                               "interval": "95% interval"})),
            widths=[0.8, 2.6, 1.5, 1, 1, 1, 1.6, 0.9, 0.9, 0.9],
            note="Intervals: unadjusted 95% (Newcombe for shares of games, Welch for means). Holm p: adjusted over "
            f"all {len(comp)} comparisons; significant when below 0.05.",
        ),
        f"Variant vs baseline {ctx.baseline}: all comparisons",
        "comparisons",
    )
