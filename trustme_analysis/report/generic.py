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
from trustme_analysis.report.panels import axis_names
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    draw_table,
    foot_note,
    interval_plot,
    new_page,
    rows_that_fit,
    table_pages,
    wrap,
)
from trustme_analysis.report.words import (axis_parts, change_size, count, detectable_size, estimate, figure, interval,
                                           is_share, missing, number, p_value, pair_words, percent, points, setting,
                                           yes_no)
from trustme_analysis.stats.balance import LUDII_METRICS
from trustme_analysis.stats.compare import biggest_changes
from trustme_analysis.stats.power import detectable_change

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
    names = axis_names(ctx)
    title = "Seat balance: win rate per seat"
    fig = new_page(title, "Each point: the share of games won from that seat, with its 95% interval (Wilson); "
                   "dashed: the fair rate (one over the number of players; more where tied seats all win). Verdicts: "
                   "the chi-square test of equal "
                   "seats, Holm-corrected over the variants.")
    ax = fig.add_axes((0.07, 0.45, 0.78, 0.40))
    max_seats = int(rates["seat"].max()) + 1
    width = 0.8 / max_seats
    for seat in range(max_seats):
        sub = rates[rates["seat"] == seat].set_index("variant").reindex(variants)
        interval_plot(ax, variants, sub["win_rate"], sub["low"], sub["high"], "win rate (share of games)",
                      color=f"C{seat}", offset=(seat - (max_seats - 1) / 2) * width, label=f"seat {seat}",
                      names=names)
    fair = rates.groupby("variant")["fair"].first().reindex(variants).to_numpy()
    for i, f in enumerate(fair):
        ax.hlines(f, i - 0.45, i + 0.45, color="0.4", linestyle="--", linewidth=1,
                  label="fair rate" if i == 0 else None)
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
        "first seat advantage (win rate - fair rate)": [percent(x, signed=True) for x in
                                                            tests["first_seat_advantage"]],
        "verdict": [_verdict(p, e) for p, e in zip(_holm_column(tests), _edges(tests))],
    })
    widths = [0.8, 0.8, 0.8, 1, 0.8, 0.8, 2.2, 3]
    box = (LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.30)
    findings = seat_lines(ctx)[:3]
    # Verdicts wrap over two lines: as many rows as fit at that height, the rest on the next pages.
    shown = table.head(min(BALANCE_ROWS, rows_that_fit(box, table.head(BALANCE_ROWS), widths, findings=findings)))
    tax = fig.add_axes(box)
    draw_table(tax, shown, widths=widths)
    more = len(table) > len(shown)
    if more:
        foot_note(fig, f"The first {len(shown)} of {len(table)} variants; all are on the next pages and in "
                  "stats/equal_seats_test.csv.")
    ctx.add(fig, title, "balance", findings=findings, front=0)
    if more:
        ctx.add_all(table_pages("Seat balance: chi-square test of equal seats", table, widths=widths),
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
    return f"no evidence of a seat effect; these games see only a seat edge of {points(edge)} or more (80% power)"


#: The column naming the smallest change each comparison's games detect (:func:`~trustme_analysis.stats.power.
#: detectable_change`), so that a "not significant" is not read as "no change".
DETECTABLE = "detectable (80% power)"
#: Units whose range of detectable changes the comparison pages' findings name (the rest: in the tables).
POWER_UNITS = 2


def _power_lines(comp: pd.DataFrame) -> list[str]:
    """What the comparisons found not significant could have seen: per unit (shares first, at most
    :data:`POWER_UNITS` of them), the range of the smallest changes their games detect 80% of the time; each
    comparison's is in the tables' column :data:`DETECTABLE`."""
    quiet = comp[~comp["significant"].astype(bool)]
    sizes = [(detectable_change(r.low, r.high), str(r.unit), str(r.metric)) for r in quiet.itertuples()]
    # A zero-width interval (the same games, the same values) has nothing to detect against: left out.
    sizes = [x for x in sizes if not missing(x[0]) and x[0] > 0]
    if not sizes:
        return []
    units = sorted(dict.fromkeys(u for _, u, _ in sizes), key=lambda u: not is_share(u))
    spans = []
    for unit in units[:POWER_UNITS]:
        mine = sorted(x for x in sizes if x[1] == unit)
        low, high = mine[0], mine[-1]
        spans.append(f"{change_size(low[0], unit)} ({low[2]})" if len(mine) == 1 else
                     f"between {change_size(low[0], unit)} ({low[2]}) and {change_size(high[0], unit)} ({high[2]})")
    rest = len(units) - len(spans)
    if rest:
        spans.append(f"for {rest} more unit(s), see the tables")
    text = (f"Not significant is not \"no change\": the smallest change the {len(quiet)} comparison(s) found not "
            f"significant see 80% of the time is {'; '.join(spans)} (at the 5% level before Holm's correction, which "
            f"only raises it; each comparison's is in the tables' column \"{DETECTABLE}\", \"n/a\" where every game gave "
            "the same difference).")
    return [text]


def _ludii_page(ctx: Report, metrics: pd.DataFrame, variants: list[str]) -> None:
    title = "Balance metrics (after Ludii)"
    fig = new_page(title, "Per variant, with 95% intervals (Wilson for shares, t for means, bootstrap over games "
                   "for Balance). Definitions below and in the glossary.")
    present = [m for m in LUDII_METRICS if m in set(metrics["metric"])]
    names = axis_names(ctx)
    cols = 4
    rows = math.ceil(len(present) / cols)
    top, bottom = 0.86, 0.30
    h = (top - bottom) / max(rows, 1)
    for i, metric in enumerate(present):
        r, c = divmod(i, cols)
        ax = fig.add_axes((0.06 + c * 0.235, top - (r + 1) * h + 0.06, 0.18, h - 0.10))
        sub = metrics[metrics["metric"] == metric].set_index("variant").reindex(variants)
        unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
        interval_plot(ax, variants, sub["value"], sub["low"], sub["high"], wrap(unit, 24), title=LUDII_NAMES[metric],
                      names=names)
        if metric in ("Balance", "AdvantageP1", "Completion", "Drawishness", "Decisiveness"):
            ax.set_ylim(-0.02, 1.02)
        if i + cols < len(present):
            # Every panel has the same variants: their names under the lowest panel of each column only, so that
            # the upright names do not run into the titles of the row below.
            ax.tick_params(labelbottom=False)
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


def pairing_lines(ctx: Report, comp: pd.DataFrame | None = None) -> list[str]:
    """How the comparisons of one factor (``comp``, default all) were made: paired (the same seeds) or on
    independent games, and, in words, which rule variants play their reference's very games and differ only in how
    they are scored (the results set's ``variant_differences``)."""
    comp = ctx["comparisons"] if comp is None else comp
    out = []
    paired = comp["paired"].astype(bool) if len(comp) else pd.Series(dtype=bool)
    if len(comp) and paired.all():
        out.append("Game i of every variant was played from the same seed (the same deal and chance where the rules "
                   "and players allow), so each change is measured game by game (paired); the unpaired interval "
                   "beside it in the table shows how much wider it would be with independent games.")
    elif len(comp) and not paired.any():
        out.append("Each variant played other games than its reference (fewer games, or another way of drawing "
                   "chance), so each change is measured between independent samples (Newcombe's interval for shares "
                   "of games, Welch's for means).")
    elif len(comp):
        out.append(f"{int(paired.sum())} of the {len(comp)} comparisons are paired game by game (both variants "
                   "played the same games from the same seeds); the others compare independent games.")
    if "variant_differences" in ctx.results and ("factor" not in comp.columns or (comp["factor"] == "rules").any()):
        diffs = ctx["variant_differences"]
        same = diffs[diffs["same_play"].astype(bool)]
        for differs_in, group in same.groupby("differs_in", sort=False):
            names = [ctx.variant_name(v) for v in group["variant"]]
            who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verb = "differs" if len(names) == 1 else "differ"
            out.append(f"{who} {verb} from the baseline's rules only in {differs_in}, which changes only how a "
                       "finished game is scored and which the players do not read: the games are the reference's "
                       "games move for move, scored again, so a change in play (length, choices) is exactly zero and "
                       "a change in scoring is exact game by game.")
    return out


#: Titles of each factor's comparison pages, and what the findings say is set against what.
COMPARISON_TITLES = {
    "rules": ("The rules, one at a time", "each rule variant against the baseline's rules ({rules}) played by the "
              "same line-up"),
    "line-up": ("The players, one line-up at a time", "each line-up against the reference line-up {lineup} under "
                "the same rules"),
}


def add_comparison_pages(ctx: Report) -> None:
    """One factor at a time (the results set's ``comparisons``): the rule variants against the baseline's rules
    under the same line-up, then the line-ups against the reference line-up under the same rules; each kind with its
    own panels and table."""
    comparisons = ctx["comparisons"]
    if len(ctx.variant_ids) < 2 or comparisons.empty:
        return
    if "factor" not in comparisons.columns:  # a results set computed before the factors
        comparisons = comparisons.assign(factor="rules", reference=ctx.baseline, held="", moved="")
    base = next((v for v in ctx.manifest.get("variants", []) if str(v.get("id")) == ctx.baseline), {})
    rules = ", ".join(setting(k, v) for k, v in (base.get("grid") or {}).items()) or "(the spec's)"
    for factor in ("rules", "line-up"):
        comp = comparisons[comparisons["factor"] == factor].reset_index(drop=True)
        if len(comp):
            _factor_pages(ctx, comp, factor, rules)


def _short_lines(label: str, width: int = 10) -> str:
    """A tick label with each line longer than ``width`` broken after its "vs" ("trained vs" over "heuristic"),
    so that an upright label stays short."""
    return "\n".join(line.replace(" vs ", " vs\n", 1) if len(line) > width else line for line in label.split("\n"))


def _factor_pages(ctx: Report, comp: pd.DataFrame, factor: str, rules: str) -> None:
    name, what = COMPARISON_TITLES[factor]
    what = what.format(rules=rules, lineup=ctx.lineup_of(ctx.baseline))
    metric_names = list(dict.fromkeys(comp["metric"]))
    pairs = list(dict.fromkeys(zip(comp["variant"], comp["reference"])))
    parts = axis_parts({v: ctx.results.variant_label(v) for v in ctx.variant_ids})
    # Each tick says in words what moved and what was held ("2 vs 3 players" over "trained").
    labels = [_short_lines(pair_words(parts.get(v, [v]), parts.get(r, [r]))) for v, r in pairs]
    title = f"{name}: differences"
    per_page = 8
    n_sig = int(comp["significant"].astype(bool).sum())
    held = ("line-up" if factor == "rules" else "rules")
    first = pair_words(parts.get(pairs[0][0], [pairs[0][0]]), parts.get(pairs[0][1], [pairs[0][1]]), sep=", ")
    findings = [f"Only the {'rules' if factor == 'rules' else 'players'} move here: {what}. Each panel shows one "
                f"measure: each variant's value minus its reference's (a tick \"{first}\": {pairs[0][0]} against "
                f"its reference {pairs[0][1]}, the same {held}), with its 95% interval; a red dot marks a change too "
                "large to be chance (Holm's correction within this factor's comparisons).",
                f"{n_sig} of the {len(comp)} comparisons are significant.", *_power_lines(comp)]
    findings += pairing_lines(ctx, comp)
    findings += baseline_lines(ctx)
    bad = sorted({ctx.lineup_of(v) for pair in pairs for v in pair if ctx.exploitable(v)})
    if bad:
        findings.append(f"The trust check found the players of line-up {', '.join(bad)} exploitable: their figures "
                        "describe these bots, not the game under good play (marked * in the table).")
    kind = "paired" if comp["paired"].astype(bool).all() else (
        "unpaired" if not comp["paired"].astype(bool).any() else "paired or unpaired")
    for start in range(0, len(metric_names), per_page):
        names = metric_names[start : start + per_page]
        fig = new_page(title, f"Variant minus its reference with unadjusted {kind} 95% intervals; red dot: "
                       "significant after Holm's correction over this factor's comparisons (5% risk of any false "
                       "alarm).")
        for i, metric in enumerate(names):
            r, c = divmod(i, 4)
            ax = fig.add_axes((0.07 + c * 0.235, 0.56 - r * 0.36, 0.17, 0.25))
            sub = comp[comp["metric"] == metric].set_index(["variant", "reference"]).reindex(pairs)
            unit = str(sub["unit"].dropna().iloc[0]) if sub["unit"].notna().any() else ""
            interval_plot(ax, labels, sub["difference"], sub["low"], sub["high"],
                          f"change ({unit})" if unit else "change", title=wrap(metric, 34), reference=0.0)
            if np.nanmax(np.abs(sub[["difference", "low", "high"]].to_numpy(dtype=float)), initial=0.0) == 0.0:
                # Exactly no change (the same games): a plain zero axis, not one scaled to rounding noise.
                ax.set_ylim(-1.0, 1.0)
                ax.set_yticks([0.0])
            sig = sub["significant"].fillna(False).to_numpy(dtype=bool)
            x = np.arange(len(pairs))
            ax.plot(x[sig], sub["difference"].to_numpy()[sig], "o", color="C3", markersize=6)
            ax.set_xlabel("")
            if i + 4 < len(names):
                # The same pairs in every panel: named under the lowest panel of each column only.
                ax.tick_params(labelbottom=False)
        ctx.add(fig, title, "comparisons", findings=findings if start == 0 else (),
                variants=list(dict.fromkeys(v for pair in pairs for v in pair)))

    limit = 2 * COMPARISON_ROWS
    note = ("Change: paired (t on the per-game differences) where both played the same games from the same seeds, "
            "else between independent games; unpaired: Newcombe for shares, Welch for means, to show what pairing "
            f"gains. Unadjusted 95%. Holm p-value: over this factor's {len(comp)} comparisons; significant below 5%. "
            f"{DETECTABLE}: the smallest change the comparison's games see 80% of the time (5% level). "
            "* players the trust check found exploitable. ")
    full = len(comp)
    if full > limit:
        # A long family is cut to the changes that matter; the CSV holds every comparison.
        comp = biggest_changes(comp, limit=limit)
        note += f"The {limit} largest changes (significant first) of {full}; all are in stats/comparisons.csv."
    else:
        note += "Also in stats/comparisons.csv."
    units = [str(u) for u in comp["unit"]]
    paired = comp["paired"].astype(bool)
    shown = pd.DataFrame({
        "variant": [f"{v}{' *' if ctx.exploitable(v) else ''}" for v in comp["variant"]],
        "against": [f"{v}{' *' if ctx.exploitable(v) else ''}" for v in comp["reference"]],
        "measure (unit)": [f"{m} ({u})" for m, u in zip(comp["metric"], units)],
        "reference": [figure(x, u, with_unit=False) for x, u in zip(comp["baseline_value"], units)],
        "value": [figure(x, u, with_unit=False) for x, u in zip(comp["value"], units)],
        "change [95%]": [estimate(d, lo, hi, u, signed=True, with_unit=False)
                         for d, lo, hi, u in zip(comp["difference"], comp["low"], comp["high"], units)],
        "unpaired 95%": [interval(lo, hi, u, signed=True) if pair else "(the same)"
                         for lo, hi, u, pair in zip(comp["unpaired_low"], comp["unpaired_high"], units, paired)],
        "paired": [yes_no(x) for x in paired],
        "Holm p-value": [p_value(p) for p in comp["p_holm"]],
        "significant": ["yes" if s else "no" for s in comp["significant"].astype(bool)],
        DETECTABLE: [detectable_size(detectable_change(lo, hi), u)
                     for lo, hi, u in zip(comp["low"], comp["high"], units)],
    })
    widths = [0.7, 0.7, 2.7, 0.9, 0.9, 1.8, 1.5, 0.7, 0.7, 0.9, 0.9]
    if not paired.any():
        # No pair played the same games: every change is already the unpaired one.
        shown = shown.drop(columns=["unpaired 95%", "paired"])
        widths = widths[:6] + widths[8:]
    ctx.add_all(
        table_pages(
            f"{name}: all comparisons",
            shown,
            widths=widths,
            rows_per_page=COMPARISON_ROWS,
            note=note,
        ),
        f"{name}: all comparisons",
        "comparisons",
    )
