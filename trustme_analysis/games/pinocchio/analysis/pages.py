"""The Pinocchio pages of the report: scores, the score over the game, the scoring chart, Ticket values, game length
and end triggers, and bluffing and trust per row of the tale table.

The game's registry ``pages`` part (:func:`draw`). Every figure comes from the results set's tables (computed by
:func:`trustme_analysis.games.pinocchio.analysis.stats.compute`, stored under ``OUTDIR/stats/``); every plot shows 95%
intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import capital, extremes, value_of
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    draw_table,
    foot_note,
    format_frame,
    interval_plot,
    new_page,
    percent_axis,
)
from trustme_analysis.report.panels import ci, pct, share_cells, small_cell_note
from trustme_analysis.report.words import DASH, MIN_CELL, count, estimate, missing, number, percent, rate_cell

#: Rows of a page's table; a longer table is cut there (the results set's CSV holds it all).
TABLE_ROWS = 12

#: At most this many variants share one line plot; more go to further panels/pages.
LINES_PER_PANEL = 8


def _variant_lines(
    ax: Axes, table: pd.DataFrame, variants: list[str], x: str, est: str, low: str, high: str, colors: dict[str, str]
) -> None:
    """One line per variant over ``x`` with error bars; small x offsets keep overlapping intervals readable."""
    n = len(variants)
    for i, v in enumerate(variants):
        sub = table[table["variant"] == v].sort_values(x)
        xs = sub[x].to_numpy(dtype=float) + (i - (n - 1) / 2) * min(0.08, 0.6 / max(n, 1))
        e = sub[est].to_numpy(dtype=float)
        lo = sub[low].to_numpy(dtype=float)
        hi = sub[high].to_numpy(dtype=float)
        # Clip rounding noise: an interval end may sit a hair on the wrong side of its estimate.
        yerr = np.clip(np.vstack([np.nan_to_num(e - lo), np.nan_to_num(hi - e)]), 0.0, None)
        ax.errorbar(xs, e, yerr=yerr, marker="o", markersize=3, capsize=2, linewidth=1, color=colors[v], label=v)


def _colors(variants: list[str]) -> dict[str, str]:
    palette = "tab10" if len(variants) <= 10 else "tab20"
    import matplotlib

    cmap = matplotlib.colormaps[palette]
    return {v: cmap(i % cmap.N) for i, v in enumerate(variants)}


def _panels(variants: list[str]) -> list[list[str]]:
    return [variants[i : i + LINES_PER_PANEL] for i in range(0, len(variants), LINES_PER_PANEL)] or [[]]


def draw(ctx: Report) -> None:
    """Add the Pinocchio pages to the report, drawn from the results set."""
    _scores_page(ctx)
    _trace_page(ctx)
    _chart_page(ctx)
    _tickets_pages(ctx)
    _length_page(ctx)
    _tales_page(ctx)


def _scores_page(ctx: Report) -> None:
    summary = ctx["score_summary"]
    variants = ctx.variant_ids
    title = "Scores"
    fig = new_page(title, "Final scores per variant: mean per seat, winner's score and winner's margin with 95% t "
                   "intervals over games; right: spread of seat scores.")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    s = summary.set_index("variant").reindex(variants)
    for off, (col, label, color) in zip(
        (-0.2, 0.0, 0.2),
        (("score", "mean score per seat", "C0"), ("winner_score", "winner's score", "C1"),
         ("margin", "winner's margin", "C2")),
    ):
        interval_plot(ax, variants, s[f"{col}_mean"], s[f"{col}_low"], s[f"{col}_high"], "points", color=color,
                      offset=off, label=label)
    ax.set_xlabel("variant")
    ax.set_title("Means with 95% intervals")
    ax.legend(loc="best")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    x = np.arange(len(variants))
    ax2.vlines(x, s["score_q10"], s["score_q90"], color="0.75", linewidth=8, label="10%-90% of seats")
    ax2.plot(x, s["score_median"], "_", color="k", markersize=14, label="median seat score")
    interval_plot(ax2, variants, s["score_mean"], s["score_low"], s["score_high"], "points", color="C0",
                  label="mean (95% interval)")
    ax2.set_xlabel("variant")
    ax2.set_title("Spread of final seat scores")
    ax2.legend(loc="best")
    table = pd.DataFrame(
        {
            "variant": variants,
            "games": [count(g) for g in s["games"]],
            "mean score per seat, points [95%]": [ci(*r) for r in
                                                  s[["score_mean", "score_low", "score_high"]].to_numpy()],
            "spread (standard deviation), points": [number(x) for x in s["score_sd"]],
            "10% / median / 90% of seats, points": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in
                                                    s[["score_q10", "score_median", "score_q90"]].to_numpy()],
            "winner's score, points [95%]": [ci(*r) for r in
                                             s[["winner_score_mean", "winner_score_low", "winner_score_high"]]
                                             .to_numpy()],
            "winner's margin, points [95%]": [ci(*r) for r in s[["margin_mean", "margin_low", "margin_high"]]
                                              .to_numpy()],
        }
    )
    if "lead_changes_mean" in s.columns:
        table["lead changes per game [95%]"] = [
            ci(*r) for r in s[["lead_changes_mean", "lead_changes_low", "lead_changes_high"]].to_numpy()
        ]
    _table(fig, table, [0.7, 0.6, 1.6, 1.2, 1.4, 1.6, 1.6, 1.6], "score_summary")
    t = summary
    findings = [
        extremes(ctx, t, "score_mean", "the mean final score per seat", "points", "score_low", "score_high"),
        extremes(ctx, t, "margin_mean", "the winner's margin over the next best seat", "points", "margin_low",
                 "margin_high"),
    ]
    if "lead_changes_mean" in t.columns:
        findings.append(extremes(ctx, t, "lead_changes_mean", "the number of lead changes per game", "changes",
                                 "lead_changes_low", "lead_changes_high"))
    ctx.add(fig, title, "game", findings=findings, front=1)


def _table(fig, table: pd.DataFrame, widths: list[float], source: str, height: float = 0.33,
           fontsize: float = 7.0, left: float = LEFT, width: float = RIGHT - LEFT) -> None:
    """The first rows of ``table`` at the foot of ``fig``; a longer table is cut, and the note names the CSV."""
    shown = table.head(TABLE_ROWS)
    tax = fig.add_axes((left, BOTTOM + 0.01, width, height))
    draw_table(tax, format_frame(shown), widths=widths[: len(shown.columns)], fontsize=fontsize)
    if len(table) > len(shown):
        foot_note(fig, f"The first {len(shown)} of {len(table)} rows; every row is in stats/{source}.csv.", x=left)


def _trace_page(ctx: Report) -> None:
    """Mean score after each turn for the winner and the other seats, with a 95% band, one panel per variant."""
    variants = ctx.variant_ids
    bands = ctx["score_trace"]
    # The baseline first; every variant's curve is in the table, the first six are drawn.
    order = [ctx.baseline] + [v for v in variants if v != ctx.baseline]
    shown = order[:6]
    title = "Score over the game"
    fig = new_page(title, "Mean score after each turn (bonus turns count as turns), winner vs the other seats, "
                   "with 95% t bands; drawn up to the turn that half of the games reached.")
    for i, v in enumerate(shown):
        r, c = divmod(i, 3)
        ax = fig.add_axes((0.07 + c * 0.32, 0.54 - r * 0.41, 0.26, 0.30))
        for label, color in (("winner", "C1"), ("other seats", "C0")):
            band = bands[(bands["variant"] == v) & (bands["group"] == label)]
            xs = band["turn"].to_numpy(dtype=float)
            ax.plot(xs, band["mean"].to_numpy(dtype=float), color=color, label=label)
            ax.fill_between(xs, band["low"].to_numpy(dtype=float), band["high"].to_numpy(dtype=float), color=color,
                            alpha=0.25, linewidth=0)
        ax.set_title(f"{v}" + (" (baseline)" if v == ctx.baseline else ""))
        ax.set_xlabel("turn")
        ax.set_ylabel("score (points)")
        ax.legend(loc="upper left")
    if len(variants) > len(shown):
        foot_note(fig, f"Shown: the baseline and {len(shown) - 1} more of {len(variants)} variants; all are in "
                  "stats/score_trace.csv.")
    findings = []
    for v in shown[:2]:
        band = bands[bands["variant"] == v]
        if band.empty:
            continue
        last = int(band["turn"].max())
        win = band[(band["group"] == "winner") & (band["turn"] == last)]
        rest = band[(band["group"] == "other seats") & (band["turn"] == last)]
        if len(win) and len(rest):
            w, o = win.iloc[0], rest.iloc[0]
            findings.append(f"In {ctx.variant_name(v)}, after turn {last} (reached by half the games) the eventual "
                            f"winner has {value_of(w, 'mean', 'points', 'low', 'high')} and the other seats "
                            f"{value_of(o, 'mean', 'points', 'low', 'high')} on average.")
    ctx.add(fig, title, "game", findings=findings)


def _chart_page(ctx: Report) -> None:
    shares = ctx["chart_shares"]
    dist = ctx["different_values"]
    charts = dict(zip(ctx["charts"]["variant"], ctx["charts"]["chart"]))
    variants = ctx.variant_ids
    colors = _colors(variants)
    title = "Scoring chart: Ticket face value vs set bonus"
    fig = new_page(title, "Left: share of all points that came from the set bonus (bootstrap 95% intervals over "
                   "games). Right: share of seats ending with k different Ticket values (Wilson 95%).")
    ax = fig.add_axes((0.07, 0.50, 0.38, 0.36))
    for off, group, color in ((-0.12, "all seats", "C0"), (0.12, "winners", "C1")):
        sub = shares[shares["group"] == group].set_index("variant").reindex(variants)
        interval_plot(ax, variants, sub["set_bonus_share"], sub["set_bonus_low"], sub["set_bonus_high"],
                      "set-bonus share of all points", color=color, offset=off, label=group)
    ax.set_xlabel("variant")
    ax.set_title("Points from the set bonus")
    ax.legend(loc="best")
    # At most two panels fit beside the bonus plot; the baseline comes first and the rest are in the CSV.
    ordered = [ctx.baseline] + [v for v in variants if v != ctx.baseline]
    panels = _panels(ordered)[:2]
    if len(ordered) > sum(len(p) for p in panels):
        fig.text(0.53, 0.44, f"Drawn: {sum(len(p) for p in panels)} of {len(ordered)} variants; all are in "
                 "stats/different_values.csv.", fontsize=7.5)
    width = 0.42 / len(panels)
    for j, group in enumerate(panels):
        ax2 = fig.add_axes((0.53 + j * width, 0.50, width - 0.04, 0.36))
        _variant_lines(ax2, dist, group, "k", "share", "share_low", "share_high", colors)
        ax2.set_xlabel("different Ticket values held (k)")
        ax2.set_ylabel("share of seats")
        percent_axis(ax2)
        ax2.set_title("Different values at the end")
        ax2.legend(loc="upper right", ncol=1, title="variant", fontsize=6.5, title_fontsize=7, framealpha=0.7)
    # Marginal value of each chart step: what the k-th different value adds, and how many seats got there.
    rows = []
    for v in variants:
        sub = dist[(dist["variant"] == v) & (dist["k"] >= 1)].sort_values("k")
        row = {"variant": v, "chart": charts[v]}
        # reach is a share of all the variant's seats (every k, 0 included): counts when they are few.
        all_seats = dist.loc[dist["variant"] == v, "seats"].sum() if "seats" in dist.columns else None
        for _, r in sub.iterrows():
            # A win rate of a few seats (or none) shows its counts: "win 1 of 1" is not a finding.
            win = rate_cell(r["win_rate"], r["seats"]) if "seats" in r else percent(r["win_rate"])
            reach = (rate_cell(r["reached"], all_seats) if all_seats is not None and all_seats < MIN_CELL
                     else percent(r["reached"]))
            row[f"{int(r['k'])} values"] = f"+{int(r['step_points'])} points; {reach} reach; win {win}"
        rows.append(row)
    table = pd.DataFrame(rows).fillna("")
    shown = table.head(10)
    tax = fig.add_axes((LEFT, BOTTOM + 0.04, RIGHT - LEFT, 0.30))
    draw_table(tax, shown, widths=[0.6, 1.3] + [1.6] * (len(shown.columns) - 2), fontsize=7)
    foot_note(fig, "win = win rate of seats ending with exactly k (wins of seats, e.g. 0 of 4, when fewer than 30 "
              "seats ended with k)." + (f" The first {len(shown)} of {len(table)} variants; all are in "
                                        "stats/different_values.csv." if len(table) > len(shown) else ""))
    foot_note(fig, "What each step of the chart is worth: the k-th different value adds its points to the set bonus; "
              "reach = share of seats holding at least k values.")
    everyone = shares[shares["group"] == "all seats"]
    winners = shares[shares["group"] == "winners"]
    findings = [extremes(ctx, everyone, "set_bonus_share", "the set bonus's share of all points", "share",
                         "set_bonus_low", "set_bonus_high")]
    base_w = winners[winners["variant"] == ctx.baseline]
    if len(base_w):
        findings.append(f"Winners get {value_of(base_w.iloc[0], 'set_bonus_share', 'share', 'set_bonus_low', 'set_bonus_high')}"
                        f" of their points from the set bonus in {ctx.variant_name(ctx.baseline)}.")
    base_d = dist[(dist["variant"] == ctx.baseline) & dist["share"].notna()]
    if len(base_d):
        top = base_d.loc[base_d["share"].idxmax()]
        findings.append(f"Most often a seat ends with {int(top['k'])} different Ticket values "
                        f"({value_of(top, 'share', 'share', 'share_low', 'share_high')} of seats in "
                        f"{ctx.variant_name(ctx.baseline)}).")
    ctx.add(fig, title, "game", findings=findings, front=1)


def _ticket_findings(ctx: Report, tv: pd.DataFrame) -> list[str]:
    """The baseline's most taken Ticket value, the stack that runs out most often, and what winners hold."""
    base = tv[tv["variant"] == ctx.baseline]
    where = ctx.variant_name(ctx.baseline)
    out = []
    taken = base[base["per_game"].notna()]
    if len(taken):
        r = taken.loc[taken["per_game"].idxmax()]
        out.append(f"In {where}, Tickets of value {int(r['value'])} are taken most: "
                   f"{value_of(r, 'per_game', 'per game', 'per_game_low', 'per_game_high')}.")
    out_of = base[base["stack_out"].notna()]
    if len(out_of):
        r = out_of.loc[out_of["stack_out"].idxmax()]
        out.append(f"The stack of value {int(r['value'])} runs out most often: in "
                   f"{value_of(r, 'stack_out', 'share', 'stack_out_low', 'stack_out_high')} of games.")
    held = base[base["winner_share"].notna()]
    if len(held):
        r = held.loc[held["winner_share"].idxmax()]
        out.append(f"Winners hold {value_of(r, 'winner_share', 'share', 'winner_share_low', 'winner_share_high')} "
                   f"of the Tickets of value {int(r['value'])}, more than of any other value.")
    return out


def _tickets_pages(ctx: Report) -> None:
    tv = ctx["ticket_values"]
    tall = ctx["tall_tale_tickets"]
    variants = ctx.variant_ids
    colors = _colors(variants)
    title = "Ticket values: how often taken, by whom, and when stacks run out"
    for panel_no, group in enumerate(_panels(variants)):
        fig = new_page(title if panel_no == 0 else title + " (continued)",
                       "By Ticket value, one line per variant, with 95% intervals (t for per-game means, bootstrap "
                       "over games for shares, Wilson for shares of games).")
        specs = (
            ("per_game", "per_game_low", "per_game_high", "Tickets per game", "Tickets taken per game"),
            ("winner_share", "winner_share_low", "winner_share_high", "share held by the winner",
             "Share of those Tickets held by the winner"),
            ("stack_out", "stack_out_low", "stack_out_high", "share of games", "Stack ran out during the game"),
            ("end_trigger_share", "end_trigger_low", "end_trigger_high", "share of stack-ended games",
             "Stack that emptied last when the stacks ended the game"),
        )
        for i, (est, lo, hi, ylabel, sub_title) in enumerate(specs):
            r, c = divmod(i, 2)
            ax = fig.add_axes((0.07 + c * 0.47, 0.52 - r * 0.42, 0.36, 0.31))
            _variant_lines(ax, tv, group, "value", est, lo, hi, colors)
            if tv.loc[tv["variant"].isin(group), est].isna().all():
                ax.text(0.5, 0.5, "no game of these variants ended by the stacks" if est == "end_trigger_share"
                        else "no data", transform=ax.transAxes, ha="center", va="center", color="0.4")
            ax.set_xlabel("Ticket value")
            ax.set_ylabel(ylabel)
            ax.set_title(sub_title)
            ax.set_xticks(sorted(tv["value"].unique()))
            if est != "per_game":
                ax.set_ylim(-0.02, 1.02)
                percent_axis(ax)
            if i == 1:
                ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="variant")
        ctx.add(fig, title, "game", findings=_ticket_findings(ctx, tv) if panel_no == 0 else ())

    title = "Ticket routes and tall-tale Tickets"
    fig = new_page(title, "Left: of the trusted tall tales, the share whose Ticket fell to a lower value than the "
                   "difference, or to none (bootstrap 95% over games). Right: how each value's Tickets were gained.")
    ax = fig.add_axes((0.07, 0.50, 0.33, 0.33))
    t = tall.set_index("variant").reindex(variants)
    interval_plot(ax, variants, t["lower_share"], t["lower_low"], t["lower_high"], "share of trusted tall tales",
                  color="C3", offset=-0.1, label="lower value (or none)")
    interval_plot(ax, variants, t["none_share"], t["none_low"], t["none_high"], "share of trusted tall tales",
                  color="C4", offset=0.1, label="no Ticket left")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("variant")
    ax.set_title("Tall tale's Ticket fell to a lower value")
    ax.legend(loc="best")
    # Compact pivots: one row per variant, one column per Ticket value.
    values = sorted(tv["value"].unique())
    route_rows, out_rows = [], []
    for v in variants:
        sub = tv[tv["variant"] == v].set_index("value")
        route, out = {"variant": v}, {"variant": v}
        for val in values:
            r = sub.loc[val] if val in sub.index else None
            if r is None or np.isnan(r["tale_share"]):
                route[f"value {val}"] = DASH
            else:
                # Shares of a value's Tickets: of fewer than MIN_CELL Tickets, the counts ("2 of 3").
                n = r["tickets"] if "tickets" in r.index else None

                def share(x, n=n):
                    return rate_cell(x, n) if n is not None and n < MIN_CELL else percent(x)

                text = f"{share(r['tale_share'])} / {share(r['reputation_share'])}"
                route[f"value {val}"] = text + (f" / {share(r['free_share'])}" if r["free_share"] >= 0.005 else "")
            turn = r["stack_out_turn_median"] if r is not None else np.nan
            out[f"value {val}"] = DASH if np.isnan(turn) else f"{turn:.0f}"
        route_rows.append(route)
        out_rows.append(out)
    routes_all = pd.DataFrame(route_rows)
    routes = routes_all.head(TABLE_ROWS)
    tax = fig.add_axes((0.47, 0.52, 0.50, 0.31))
    draw_table(tax, routes, widths=[0.8] + [1.2] * len(values), fontsize=6.5)
    fig.text(0.47, 0.845, "How Tickets of each value were gained: tall tale / Reputation (/ free Reputation)",
             fontsize=8.5, fontweight="bold")
    outs_all = pd.DataFrame(out_rows)
    outs = outs_all.head(TABLE_ROWS)
    tax3 = fig.add_axes((0.47, BOTTOM + 0.02, 0.50, 0.30))
    draw_table(tax3, outs, widths=[0.8] + [1.2] * len(values), fontsize=6.5)
    fig.text(0.47, BOTTOM + 0.335, "Median turn in which the stack of each value ran out (games where it did)",
             fontsize=8.5, fontweight="bold")
    def tall_share(col: str) -> list[str]:
        # A share of the trusted tall tales: of fewer than MIN_CELL of them, the counts ("1 of 2").
        return [rate_cell(r[0], n) if not missing(n) and n < MIN_CELL else pct(*r) for r, n in
                zip(t[[f"{col}_share", f"{col}_low", f"{col}_high"]].to_numpy(), t["tall_trusted"])]

    tally = pd.DataFrame({"variant": variants, "trusted tall tales": [count(x) for x in t["tall_trusted"]],
                          "Ticket of a lower value [95%]": tall_share("lower"),
                          "no Ticket left [95%]": tall_share("none")})
    tax2 = fig.add_axes((0.05, BOTTOM + 0.02, 0.37, 0.30))
    draw_table(tax2, format_frame(tally.head(TABLE_ROWS)), widths=[0.7, 1.1, 1.3, 1.3], fontsize=7)
    if len(variants) > TABLE_ROWS:
        foot_note(fig, f"The first {TABLE_ROWS} of {len(variants)} variants; all are in stats/ticket_values.csv and "
                  "stats/tall_tale_tickets.csv.")
    note = small_cell_note(t["tall_trusted"], tv["tickets"] if "tickets" in tv.columns else [])
    if note:
        foot_note(fig, note)
    findings = [extremes(ctx, tall.reset_index(drop=True), "lower_share",
                         "the share of trusted tall tales whose Ticket fell to a lower value (or none)", "share",
                         "lower_low", "lower_high")]
    base = tv[(tv["variant"] == ctx.baseline) & tv["tale_share"].notna()]
    if len(base):
        r = base.loc[base["tale_share"].idxmax()]
        findings.append(f"Tall tales win Tickets of value {int(r['value'])} more than any other: "
                        f"{percent(r['tale_share'])} of them in {ctx.variant_name(ctx.baseline)}; the rest come "
                        "from the Reputation action.")
    ctx.add(fig, title, "game", findings=findings)


def _length_page(ctx: Report) -> None:
    length = ctx["game_length"]
    variants = ctx.variant_ids
    s = length.set_index("variant").reindex(variants)
    title = "Game length and what ends the game"
    fig = new_page(title, "Left: turns per game (bonus turns included), mean with 95% t interval and the 10%-90% "
                   "range. Right: share of games ended by the deck's run-out or by emptied stacks (Wilson 95%).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    x = np.arange(len(variants))
    ax.vlines(x, s["turns_q10"], s["turns_q90"], color="0.75", linewidth=8, label="10%-90% of games")
    interval_plot(ax, variants, s["turns_mean"], s["turns_low"], s["turns_high"], "turns per game", color="C0",
                  label="mean (95% interval)")
    ax.set_xlabel("variant")
    ax.set_title("Game length")
    ax.legend(loc="best")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    interval_plot(ax2, variants, s["end_deck"], s["end_deck_low"], s["end_deck_high"], "share of games",
                  color="C0", offset=-0.1, label="deck ran out (last time)")
    interval_plot(ax2, variants, s["end_stacks"], s["end_stacks_low"], s["end_stacks_high"], "share of games",
                  color="C1", offset=0.1, label="stacks emptied")
    ax2.set_ylim(-0.02, 1.02)
    ax2.set_xlabel("variant")
    ax2.set_title("End trigger")
    ax2.legend(loc="best")
    table = pd.DataFrame({
        "variant": variants,
        "games": [count(g) for g in s["games"]],
        "turns per game [95%]": [ci(*r) for r in s[["turns_mean", "turns_low", "turns_high"]].to_numpy()],
        "10% / median / 90% of games, turns": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in
                                               s[["turns_q10", "turns_median", "turns_q90"]].to_numpy()],
        # Shares of games: counts below MIN_CELL games (a costly line-up's few games).
        "ended by the deck [95%]": share_cells(s, "end_deck", "games"),
        "ended by the stacks [95%]": share_cells(s, "end_stacks", "games"),
        "reached the night [95%]": share_cells(s, "reached_night", "games"),
        "bonus turns per game [95%]": [ci(*r) for r in
                                       s[["bonus_turns_mean", "bonus_turns_low", "bonus_turns_high"]].to_numpy()],
        "Coin tosses per game [95%]": [ci(*r) for r in
                                       s[["coin_tosses_mean", "coin_tosses_low", "coin_tosses_high"]].to_numpy()],
    })
    _table(fig, table, [0.6, 0.5, 1.4, 1.3, 1.3, 1.3, 1.3, 1.4, 1.4], "game_length")
    note = small_cell_note(s["games"])
    if note:
        foot_note(fig, note)
    findings = [
        extremes(ctx, length, "turns_mean", "the length of a game", "turns", "turns_low", "turns_high"),
        extremes(ctx, length, "end_stacks", "the share of games ended by the emptied Ticket stacks", "share",
                 "end_stacks_low", "end_stacks_high"),
        extremes(ctx, length, "bonus_turns_mean", "the number of bonus turns per game", "turns",
                 "bonus_turns_low", "bonus_turns_high"),
    ]
    ctx.add(fig, title, "game", findings=findings, front=1)


TALE_ROW_LABELS = {
    "true_trusted": "true tale, trusted",
    "true_distrusted": "true tale, not trusted (bonus turn)",
    "tall_trusted": "tall tale, trusted (Ticket)",
    "tall_distrusted": "tall tale, caught",
}


def _tales_page(ctx: Report) -> None:
    tales = ctx["tale_table"]
    variants = ctx.variant_ids
    title = "Tales: bluffing and trust per row of the tale table"
    fig = new_page(title, "Left: share of all tales in each row of the rulebook's table. Right: bluff rate and trust "
                   "rates. Bootstrap 95% intervals over games.")
    ax = fig.add_axes((0.07, 0.58, 0.40, 0.28))
    rows = list(TALE_ROW_LABELS)
    for i, row in enumerate(rows):
        sub = tales[tales["row"] == row].set_index("variant").reindex(variants)
        interval_plot(ax, variants, sub["share"], sub["low"], sub["high"], "share of tales", color=f"C{i}",
                      offset=(i - 1.5) * 0.15, label=TALE_ROW_LABELS[row])
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("variant")
    ax.set_title("Outcome of tales")
    # Legends under the plots: inside they would hide points near the top.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=7)
    ax2 = fig.add_axes((0.56, 0.58, 0.40, 0.28))
    rates = {"tall": "tales that are tall (bluffs)", "trusted|true": "true tales trusted",
             "trusted|tall": "tall tales trusted", "votes_correct": "votes that were right"}
    for i, (row, label) in enumerate(rates.items()):
        sub = tales[tales["row"] == row].set_index("variant").reindex(variants)
        interval_plot(ax2, variants, sub["share"], sub["low"], sub["high"], "share", color=f"C{i + 4}",
                      offset=(i - 1.5) * 0.15, label=label)
    ax2.set_ylim(-0.02, 1.02)
    ax2.set_xlabel("variant")
    ax2.set_title("Bluffing and trust")
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=7)
    wide = tales.pivot(index="variant", columns="row", values="per_game").reindex(variants)
    share = tales.pivot(index="variant", columns="row", values="share").reindex(variants)
    # The cases behind each share (tales, or trusted tall tales): of fewer than MIN_CELL, the counts ("1 of 2").
    cases = tales.pivot(index="variant", columns="row", values="out_of").reindex(variants)

    def shares(row: str) -> list[str]:
        return [rate_cell(b, n) if not missing(n) and n < MIN_CELL else percent(b)
                for b, n in zip(share[row].to_numpy(dtype=float), cases[row].to_numpy(dtype=float))]

    table = pd.DataFrame({"variant": variants})
    for row in rows:
        table[TALE_ROW_LABELS[row] + " (tales per game; share of tales)"] = [
            f"{number(a)}; {b}" for a, b in zip(wide[row].to_numpy(dtype=float), shares(row))
        ]
    table["bluff rate (share of tales that are tall)"] = shares("tall")
    if "no_ticket|tall_trusted" in wide.columns:  # (results sets computed before this row existed lack it)
        table["trusted tall tales with no Ticket left (per game; share)"] = [
            f"{number(a)}; {b}" for a, b in zip(wide["no_ticket|tall_trusted"].to_numpy(dtype=float),
                                                shares("no_ticket|tall_trusted"))
        ]
    _table(fig, table, [0.6, 1.5, 1.5, 1.5, 1.5, 1.0, 1.3], "tale_table", height=0.31, fontsize=6.5)
    note = small_cell_note(tales["out_of"])
    if note:
        foot_note(fig, note)
    findings = []
    base = tales[tales["variant"] == ctx.baseline].set_index("row")
    where = ctx.variant_name(ctx.baseline)
    if "tall" in base.index:
        r = base.loc["tall"]
        findings.append(f"In {where}, {estimate(r['share'], r['low'], r['high'], 'share')} of tales are tall "
                        "(bluffs).")
    if "trusted|tall" in base.index and "trusted|true" in base.index:
        a, b = base.loc["trusted|tall"], base.loc["trusted|true"]
        findings.append(f"The table trusts {estimate(a['share'], a['low'], a['high'], 'share')} of tall tales and "
                        f"{estimate(b['share'], b['low'], b['high'], 'share')} of true ones.")
    if "no_ticket|tall_trusted" in base.index:
        r = base.loc["no_ticket|tall_trusted"]
        if r["out_of"] > 0:
            findings.append(f"In {where}, {number(r['per_game'])} trusted tall tales per game gain no Ticket because "
                            f"no stack of the difference's value or lower is left "
                            f"({estimate(r['share'], r['low'], r['high'], 'share')} of trusted tall tales; the "
                            "tale still succeeds, as the assumptions page says).")
    findings.append(extremes(ctx, tales[tales["row"] == "tall"], "share", "the bluff rate", "share", "low", "high"))
    ctx.add(fig, title, "game", findings=[capital(f) for f in findings if f], front=1)
