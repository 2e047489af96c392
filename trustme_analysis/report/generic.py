"""Report pages every game gets: seat balance, the Ludii balance metrics, and variant-vs-baseline comparisons.

Drawn from the results set's ``seat_win_rates``, ``equal_seats_test``, ``ludii_metrics`` and ``comparisons`` tables.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import extremes
from trustme_analysis.report.front import baseline_lines, seat_lines
from trustme_analysis.report.glossary import LUDII_NAMES, TERMS
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    draw_table,
    foot_note,
    interval_plot,
    new_page,
    table_pages,
    wrap,
)
from trustme_analysis.report.words import (count, estimate, figure, interval, missing, number, p_value, percent,
                                           points)
from trustme_analysis.stats.balance import LUDII_METRICS
from trustme_analysis.stats.compare import biggest_changes

#: Rows of the equal-seats table on the seat-balance page; the rest go on their own pages.
BALANCE_ROWS = 12
#: Comparison rows per table page.
COMPARISON_ROWS = 30


def add_balance_pages(ctx: Report) -> None:
    """Seat win rates with Wilson intervals, the chi-square test of equal seats, and the Ludii metrics."""
    rates = ctx["seat_win_rates"]
    tests = ctx["equal_seats_test"]
    metrics = ctx["ludii_metrics"]

    variants = ctx.variant_ids
    title = "Seat balance: win rate per seat"
    fig = new_page(title, "Each point: the share of games won from that seat, with its 95% interval (Wilson); "
                   "dashed: the fair rate, one over the number of players. Verdicts: the chi-square test of equal "
                   "seats, Holm-corrected over the variants.")
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
                  label="fair rate" if i == 0 else None)
    ax.set_xlabel("variant (codes explained at the foot of the page)")
    top = float(np.nanmax(rates["high"])) if rates["high"].notna().any() else 1.0
    ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7.5)
    table = pd.DataFrame({
        "variant": tests["variant"],
        "players": tests["seats"].astype(int),
        "games": [count(g) for g in tests["games"]],
        "chi-square": [number(x) for x in tests["chi2"]],
        "p-value": [p_value(p) for p in tests["p_value"]],
        "Holm p-value": [p_value(p) for p in _holm_column(tests)],
        "first seat advantage (win rate - 1/players)": [percent(x, signed=True) for x in
                                                            tests["first_seat_advantage"]],
        "verdict": [_verdict(p, e) for p, e in zip(_holm_column(tests), _edges(tests))],
    })
    shown = table.head(BALANCE_ROWS)
    tax = fig.add_axes((LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30))
    draw_table(tax, shown, widths=[0.8, 0.8, 0.8, 1, 0.8, 0.8, 2.2, 3])
    more = len(table) > len(shown)
    if more:
        foot_note(fig, f"The first {len(shown)} of {len(table)} variants; all are on the next pages and in "
                  "stats/equal_seats_test.csv.")
    ctx.add(fig, title, "balance", findings=seat_lines(ctx)[:3], front=0)
    if more:
        ctx.add_all(table_pages("Seat balance: chi-square test of equal seats", table,
                                widths=[0.8, 0.8, 0.8, 1, 0.8, 0.8, 2.2, 3]),
                    "Seat balance: chi-square test of equal seats", "balance")

    _ludii_page(ctx, metrics, variants)


def _holm_column(tests: pd.DataFrame) -> pd.Series:
    # Results sets computed before the correction have no p_holm: their verdicts stay uncorrected.
    return tests["p_holm"] if "p_holm" in tests.columns else tests["p_value"]


def _edges(tests: pd.DataFrame) -> list[float]:
    # Results sets computed before the power statement have no detectable_edge: their verdicts say none.
    return tests["detectable_edge"].tolist() if "detectable_edge" in tests.columns else [math.nan] * len(tests)


def _verdict(p: float, edge: float = math.nan) -> str:
    """The test's verdict; a "no evidence" one names the smallest seat edge the games could have seen (80% power),
    so silence is not read as balance."""
    if missing(p):
        return "no test (too few games)"
    if p < 0.05:
        return "some seat wins more often (Holm p < 5%)"
    if missing(edge):
        return "no evidence of a seat effect"
    return f"no evidence of a seat effect; these games see only a seat edge of {points(edge)} or more"


def _ludii_page(ctx: Report, metrics: pd.DataFrame, variants: list[str]) -> None:
    title = "Balance metrics (after Ludii)"
    fig = new_page(title, "Per variant, with 95% intervals (Wilson for shares, t for means, bootstrap over games "
                   "for Balance). Definitions below and in the glossary.")
    present = [m for m in LUDII_METRICS if m in set(metrics["metric"])]
    cols = 4
    rows = math.ceil(len(present) / cols)
    top, bottom = 0.86, 0.30
    h = (top - bottom) / max(rows, 1)
    for i, metric in enumerate(present):
        r, c = divmod(i, cols)
        ax = fig.add_axes((0.06 + c * 0.235, top - (r + 1) * h + 0.06, 0.18, h - 0.10))
        sub = metrics[metrics["metric"] == metric].set_index("variant").reindex(variants)
        unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
        interval_plot(ax, variants, sub["value"], sub["low"], sub["high"], wrap(unit, 24), title=LUDII_NAMES[metric])
        if metric in ("Balance", "AdvantageP1", "Completion", "Drawishness", "Decisiveness"):
            ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("variant")
    defs = "\n".join(f"{LUDII_NAMES[m]}: {TERMS.get(LUDII_NAMES[m], '')}" for m in present)
    fig.text(LEFT, BOTTOM + 0.01, defs, fontsize=8, va="bottom")
    findings = []
    for metric, subject in (("Balance", "Balance"), ("Drama", "Drama (how far behind the winner fell)"),
                            ("Duration", "The game")):
        sub = metrics[metrics["metric"] == metric]
        if sub.empty:
            continue
        unit = str(sub["unit"].iloc[0])
        if metric == "Duration":
            findings.append(extremes(ctx, sub, "value", "the length of a game", unit, "low", "high"))
        else:
            findings.append(extremes(ctx, sub, "value", subject, unit, "low", "high"))
    ctx.add(fig, title, "balance", findings=findings[:3])


def pairing_lines(ctx: Report) -> list[str]:
    """How the variants' games were compared: paired (the same seeds), and, in words, which variants play the
    baseline's very games and differ only in how they are scored (the results set's ``variant_differences``)."""
    comp = ctx["comparisons"]
    out = []
    if len(comp) and comp["paired"].astype(bool).all():
        out.append("Game i of every variant was played from the same seed (the same deal and chance where the rules "
                   "allow), so each change is measured game by game (paired); the unpaired interval beside it in the "
                   "table shows how much wider it would be with independent games.")
    if "variant_differences" in ctx.results:
        diffs = ctx["variant_differences"]
        same = diffs[diffs["same_play"].astype(bool)]
        for differs_in, group in same.groupby("differs_in", sort=False):
            names = [ctx.variant_name(v) for v in group["variant"]]
            who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verb = "differs" if len(names) == 1 else "differ"
            out.append(f"{who} {verb} from the baseline only in {differs_in}, which changes only how a finished game "
                       "is scored and which the players do not read: the games are the baseline's games move for "
                       "move, scored again, so a change in play (length, choices) is exactly zero and a change in "
                       "scoring is exact game by game.")
    return out


def add_comparison_pages(ctx: Report) -> None:
    """Every variant against the baseline on each comparison measure (the results set's ``comparisons``)."""
    comp = ctx["comparisons"]
    if len(ctx.variant_ids) < 2:
        return
    metric_names = list(dict.fromkeys(comp["metric"]))
    variants = [v for v in ctx.variant_ids if v != ctx.baseline]

    title = f"Every variant against the baseline {ctx.baseline}: differences"
    per_page = 8
    n_sig = int(comp["significant"].astype(bool).sum())
    findings = [f"Each panel shows one measure: each variant's value minus the baseline "
                f"{ctx.variant_name(ctx.baseline)}'s, with its 95% interval; a red dot marks a change too large to "
                "be chance (Holm's correction).",
                f"{n_sig} of the {len(comp)} comparisons are significant."]
    findings += pairing_lines(ctx)
    findings += baseline_lines(ctx)
    kind = "paired" if comp["paired"].astype(bool).any() else "unpaired"
    for start in range(0, len(metric_names), per_page):
        names = metric_names[start : start + per_page]
        fig = new_page(title, f"Variant minus baseline with unadjusted {kind} 95% intervals; red dot: significant "
                       "after Holm's correction over all comparisons (5% risk of any false alarm).")
        for i, name in enumerate(names):
            r, c = divmod(i, 4)
            ax = fig.add_axes((0.07 + c * 0.235, 0.50 - r * 0.41, 0.17, 0.29))
            sub = comp[comp["metric"] == name].set_index("variant").reindex(variants)
            unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
            interval_plot(ax, variants, sub["difference"], sub["low"], sub["high"],
                          f"change ({unit})" if unit else "change", title=wrap(name, 34), reference=0.0)
            if np.nanmax(np.abs(sub[["difference", "low", "high"]].to_numpy(dtype=float)), initial=0.0) == 0.0:
                # Exactly no change (the same games): a plain zero axis, not one scaled to rounding noise.
                ax.set_ylim(-1.0, 1.0)
                ax.set_yticks([0.0])
            sig = sub["significant"].fillna(False).to_numpy(dtype=bool)
            x = np.arange(len(variants))
            ax.plot(x[sig], sub["difference"].to_numpy()[sig], "o", color="C3", markersize=6)
            ax.set_xlabel("variant")
        ctx.add(fig, title, "comparisons", findings=findings if start == 0 else ())

    limit = 2 * COMPARISON_ROWS
    note = ("Change: paired over the games both variants played from the same seeds (t interval on the per-game "
            "differences); unpaired: the same change treating the two variants' games as independent samples "
            "(Newcombe for shares of games, Welch for means), shown to give the gain of pairing. Both unadjusted 95%. "
            f"Holm p-value: the paired test adjusted over all {len(comp)} comparisons; significant when below 5%. ")
    if len(comp) > limit:
        # A long family is cut to the changes that matter; the CSV holds every comparison.
        comp = biggest_changes(comp, limit=limit)
        note += (f"The {limit} largest changes (significant first) of {len(ctx['comparisons'])}; all are in "
                 "stats/comparisons.csv.")
    else:
        note += "Also in stats/comparisons.csv."
    units = [str(u) for u in comp["unit"]]
    shown = pd.DataFrame({
        "variant": comp["variant"],
        "measure (unit)": [f"{m} ({u})" for m, u in zip(comp["metric"], units)],
        "baseline": [figure(x, u, with_unit=False) for x, u in zip(comp["baseline_value"], units)],
        "variant's value": [figure(x, u, with_unit=False) for x, u in zip(comp["value"], units)],
        "change [paired 95%]": [estimate(d, lo, hi, u, signed=True, with_unit=False)
                                for d, lo, hi, u in zip(comp["difference"], comp["low"], comp["high"], units)],
        "unpaired 95%": [interval(lo, hi, u, signed=True) if paired else "(the same)"
                         for lo, hi, u, paired in zip(comp["unpaired_low"], comp["unpaired_high"], units,
                                                      comp["paired"].astype(bool))],
        "p-value": [p_value(p) for p in comp["p_value"]],
        "Holm p-value": [p_value(p) for p in comp["p_holm"]],
        "significant": ["yes" if s else "no" for s in comp["significant"].astype(bool)],
    })
    ctx.add_all(
        table_pages(
            f"Every variant against the baseline {ctx.baseline}: all comparisons",
            shown,
            widths=[0.7, 3.2, 0.8, 0.8, 1.9, 1.5, 0.7, 0.7, 0.85],
            rows_per_page=COMPARISON_ROWS,
            note=note,
        ),
        f"Every variant against the baseline {ctx.baseline}: all comparisons",
        "comparisons",
    )
