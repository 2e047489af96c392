"""The Trust Me (1981) pages of the report: wealth (money and shares) and wealth over the game, game length and end
trigger, claims, investing by what the investor had seen, payoff rows, the claimant's reserve, Wild Goose Chase sends,
Trust Me cards and challenges; and the pages of the investing round alone (``trustme_1981_investment``).

The games' registry ``pages`` parts (:func:`draw`, :func:`draw_investment`). Every figure comes from the results set's
tables (computed by :mod:`trustme_analysis.games.board1981.analysis.stats`); every plot shows 95% intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import extremes, value_of
from trustme_analysis.report.layout import LEFT, foot_note, interval_plot, new_page
from trustme_analysis.report.panels import (
    by_category,
    cells,
    grouped_intervals,
    page_table,
    pct,
    share_cells,
    small_cell_note,
)
from trustme_analysis.report.words import count, estimate, figure, number
from trustme_analysis.games.board1981.analysis.stats import ROLES
from trustme_analysis.games.board1981.analysis.records import ROW_LABELS

# --- trustme_1981 --------------------------------------------------------------------------------------------------


def draw(ctx: Report) -> None:
    """Add the ``trustme_1981`` pages to the report, drawn from the results set."""
    _wealth_page(ctx)
    _trace_page(ctx)
    _length_page(ctx)
    _claims_page(ctx)
    _investing_page(ctx)
    _payoff_page(ctx)
    _events_page(ctx)
    _payoff_mix_page(ctx)


def _wealth_page(ctx: Report) -> None:
    summary = ctx["wealth_summary"]
    variants = ctx.variant_ids
    s = summary.set_index("variant").reindex(variants).reset_index()
    title = "Final wealth: money and shares"
    fig = new_page(title, "Wealth = money + shares ($1 a share). Left: mean final wealth per seat, the winner's, and "
                   "the winner's margin (95% t intervals over games). Right: share of final wealth held as money "
                   "(bootstrap 95% over games).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    grouped_intervals(ax, variants, s, [("wealth", "mean wealth per seat"), ("winner_wealth", "richest seat"),
                                        ("margin", "winner's margin")], "dollars", "Final wealth")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("money_share", "all seats"), ("winner_money_share", "richest seats")],
                      "share of wealth held as money", "Money vs shares at the end")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": variants,
        "games": [count(g) for g in s["games"]],
        "wealth per seat, dollars [95%]": cells(s, "wealth"),
        "10% / median / 90% of seats, dollars": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in
                                                 s[["wealth_q10", "wealth_median", "wealth_q90"]].to_numpy(float)],
        "mean money / shares per seat": [f"${a:.0f} / {b:.0f} shares" for a, b in
                                         s[["mean_money", "mean_shares"]].to_numpy(float)],
        "richest seat, dollars [95%]": cells(s, "winner_wealth"),
        "winner's margin, dollars [95%]": cells(s, "margin"),
        "wealth held as money [95%]": cells(s, "money_share", pct),
    })
    findings = [
        extremes(ctx, summary, "wealth", "the mean final wealth per seat", "dollars"),
        extremes(ctx, summary, "margin", "the winner's margin over the next richest seat", "dollars"),
        extremes(ctx, summary, "money_share", "the share of final wealth held as money (not shares)", "share"),
    ]
    page_table(ctx, fig, table, title, [0.6, 0.5, 1.5, 1.4, 1.3, 1.5, 1.4, 1.3], findings=findings,
               source="wealth_summary")


def _trace_page(ctx: Report) -> None:
    """Mean wealth after each turn for the richest seat and the others, with 95% bands, one panel per variant."""
    variants = ctx.variant_ids
    bands = ctx["wealth_trace"]
    order = [ctx.baseline] + [v for v in variants if v != ctx.baseline]
    shown = order[:6]
    title = "Wealth over the game"
    fig = new_page(title, "Mean wealth (money + shares) after each turn, richest seat(s) at the end vs the others, "
                   "with 95% t bands; drawn up to the turn half of the games reached. From the engine's events.")
    for i, v in enumerate(shown):
        r, c = divmod(i, 3)
        ax = fig.add_axes((0.07 + c * 0.32, 0.54 - r * 0.41, 0.26, 0.30))
        for label, color in (("richest", "C1"), ("other seats", "C0")):
            band = bands[(bands["variant"] == v) & (bands["group"] == label)] if len(bands) else bands
            if len(band):
                xs = band["turn"].to_numpy(dtype=float)
                ax.plot(xs, band["mean"].to_numpy(dtype=float), color=color, label=label)
                ax.fill_between(xs, band["low"].to_numpy(dtype=float), band["high"].to_numpy(dtype=float),
                                color=color, alpha=0.25, linewidth=0)
        ax.set_title(f"{v}" + (" (baseline)" if v == ctx.baseline else ""))
        ax.set_xlabel("turn")
        ax.set_ylabel("wealth (dollars)")
        ax.legend(loc="upper left", fontsize=7)
    if len(variants) > len(shown):
        foot_note(fig, f"Shown: the baseline and {len(shown) - 1} more of {len(variants)} variants; all are in "
                  "stats/wealth_trace.csv.")
    findings = []
    for v in shown[:2]:
        band = bands[bands["variant"] == v] if len(bands) else bands
        if band.empty:
            continue
        last = int(band["turn"].max())
        rich = band[(band["group"] == "richest") & (band["turn"] == last)]
        rest = band[(band["group"] == "other seats") & (band["turn"] == last)]
        if len(rich) and len(rest):
            findings.append(f"In {ctx.variant_name(v)}, after turn {last} the seat that ends richest has "
                            f"{value_of(rich.iloc[0], 'mean', 'dollars', 'low', 'high')} and the others "
                            f"{value_of(rest.iloc[0], 'mean', 'dollars', 'low', 'high')} on average.")
    ctx.add(fig, title, "game", findings=findings)


def _length_page(ctx: Report) -> None:
    length = ctx["game_length"]
    variants = ctx.variant_ids
    s = length.set_index("variant").reindex(variants).reset_index()
    title = "Game length and what ends the game"
    fig = new_page(title, "Left: turns per game, mean with 95% t interval and the 10%-90% range. Right: share of "
                   "games ended by the rules (two briefcases left) and by the turn cap (max_turns; Wilson 95%).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    x = np.arange(len(variants))
    ax.vlines(x, s["turns_q10"], s["turns_q90"], color="0.75", linewidth=8, label="10%-90% of games")
    interval_plot(ax, variants, s["turns"], s["turns_low"], s["turns_high"], "turns per game", color="C0",
                  label="mean (95% interval)")
    ax.set_xlabel("variant")
    ax.set_title("Game length")
    ax.legend(loc="best", fontsize=7)
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("end_cases", "two briefcases left"), ("end_cap", "turn cap")],
                      "share of games", "End trigger")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": variants,
        "games": [count(g) for g in s["games"]],
        "turns per game [95%]": cells(s, "turns"),
        "10% / median / 90% of games, turns": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in
                                               s[["turns_q10", "turns_median", "turns_q90"]].to_numpy(dtype=float)],
        "ended with two briefcases left [95%]": share_cells(s, "end_cases", "games"),
        "ended by the turn cap [95%]": share_cells(s, "end_cap", "games"),
    })
    findings = [
        extremes(ctx, length, "turns", "the length of a game", "turns"),
        extremes(ctx, length, "end_cap", "the share of games stopped by the turn cap instead of the rules", "share"),
    ]
    page_table(ctx, fig, table, title, [0.6, 0.5, 1.4, 1.3, 1.5, 1.5], findings=findings, source="game_length",
               note=small_cell_note(s["games"]))


def _claims_page(ctx: Report) -> None:
    table_c = ctx["claims"]
    variants = ctx.variant_ids
    s = table_c.set_index("variant").reindex(variants).reset_index()
    title = "Claims: made unseen, after looking, taken"
    fig = new_page(title, "Left: claims per game by how they were made (t 95%): the claim-unseen action, the claim "
                   "after looking, won from another player (occupied space or challenge), lost. Right: shares of the "
                   "claims made (bootstrap 95% over games).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    grouped_intervals(ax, variants, s, [("unseen", "claimed unseen"), ("looked", "claimed after looking"),
                                        ("taken", "taken from a player"), ("lost", "lost")],
                      "claims per game", "Claims per game")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("unseen_share", "made unseen (action)"),
                                         ("known_share", "of a briefcase the claimer had looked under")],
                      "share of claims made", "Claims made with or without looking")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": variants,
        "claimed unseen, per game [95%]": cells(s, "unseen"),
        "claimed after looking, per game [95%]": cells(s, "looked"),
        "taken from a player, per game [95%]": cells(s, "taken"),
        "lost, per game [95%]": cells(s, "lost"),
        "claims made unseen [95%]": share_cells(s, "unseen_share", "claims_made"),
        "claims on a briefcase the claimer had looked under [95%]": share_cells(s, "known_share", "claims_made"),
    })
    findings = [
        extremes(ctx, table_c, "unseen_share", "the share of claims made without looking", "share"),
        extremes(ctx, table_c, "taken", "the number of claims taken from another player per game", "claims"),
    ]
    page_table(ctx, fig, table, title, [0.6, 1.3, 1.3, 1.3, 1.3, 1.3, 1.6], findings=findings, source="claims",
               note=small_cell_note(s["claims_made"]) if "claims_made" in s.columns else "")


KNOWLEDGE = ("looked", "not looked", "own claim")


def _investing_page(ctx: Report) -> None:
    inv = ctx["investing"]
    variants = ctx.variant_ids
    title = "Investing rounds: shares bought and divested by what the investor had seen"
    fig = new_page(title, "Per investing decision in another player's round, split by whether the investor had "
                   "looked under that briefcase before the round, and in the claimant's own round (bootstrap 95% over "
                   "games).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    by_category(ax, variants, inv, "knowledge", KNOWLEDGE, ("investor looked", "investor had not looked",
                                                            "claimant, own claim"),
                "bought", "shares per decision", "Shares bought per decision")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    by_category(ax2, variants, inv, "knowledge", KNOWLEDGE, ("investor looked", "investor had not looked",
                                                             "claimant, own claim"),
                "divested", "shares per decision", "Shares divested per decision")
    table = pd.DataFrame({
        "variant": inv["variant"],
        "investor": inv["knowledge"],
        "decisions": [count(x) for x in inv["decisions"]],
        "decisions per game [95%]": cells(inv, "decisions_per_game"),
        "shares bought per decision [95%]": cells(inv, "bought"),
        "shares divested per decision [95%]": cells(inv, "divested"),
        "shares bought / divested in all": [f"{count(a)} / {count(b)}" for a, b in
                                            zip(inv["shares_bought"], inv["shares_divested"])],
    })
    findings = []
    base = inv[inv["variant"] == ctx.baseline].set_index("knowledge")
    if {"looked", "not looked"} <= set(base.index):
        a, b = base.loc["looked"], base.loc["not looked"]
        findings.append(f"In {ctx.variant_name(ctx.baseline)}, an investor who had looked under the briefcase buys "
                        f"{value_of(a, 'bought', 'shares')} per decision, one who had not "
                        f"{value_of(b, 'bought', 'shares')}.")
        findings.append(f"They divest {value_of(a, 'divested', 'shares')} and {value_of(b, 'divested', 'shares')} "
                        "per decision.")
    if "own claim" in base.index:
        c = base.loc["own claim"]
        findings.append(f"In its own round the claimant buys {value_of(c, 'bought', 'shares')} per decision.")
    page_table(ctx, fig, table, title, [0.6, 0.8, 0.7, 1.4, 1.4, 1.4, 1.2], findings=findings, source="investing")


def _payoff_page(ctx: Report) -> None:
    pay = ctx["payoff_rows"]
    variants = ctx.variant_ids
    order = [ctx.baseline] + [v for v in variants if v != ctx.baseline]
    title = "Payoff rows: what each seat gained or lost per reveal"
    fig = new_page(title, "Wealth change of a seat at a reveal (payoff money + shares kept - shares held; reserve "
                   "excluded) by payoff row, for seats that had looked under the briefcase and seats that had not; and "
                   "the claimant's reserve per round of that row. Bootstrap 95% over games.")
    shown = order[:3]
    for i, v in enumerate(shown):
        ax = fig.add_axes((0.07 + i * 0.32, 0.54, 0.26, 0.30))
        sub = pay[pay["variant"] == v].sort_values("row")
        labels = list(sub["label"])
        for j, (col, label) in enumerate((("gain_known", "seat had looked"), ("gain_unknown", "seat had not looked"),
                                          ("reserve", "claimant's reserve"))):
            interval_plot(ax, labels, sub[col], sub[f"{col}_low"], sub[f"{col}_high"], "dollars per seat and reveal",
                          color=f"C{j}", offset=(j - 1) * 0.15, label=label)
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xlabel("payoff row revealed")
        ax.set_title(v + (" (baseline)" if v == ctx.baseline else ""))
        ax.legend(loc="best", fontsize=6.5)
    if len(order) > len(shown):
        fig.text(LEFT, 0.452, f"Drawn: {len(shown)} of {len(order)} variants; all are in stats/payoff_rows.csv and "
                 "the table.", fontsize=7.5)
    table = pd.DataFrame({
        "variant": pay["variant"],
        "payoff row": pay["label"],
        "reveals": [count(x) for x in pay["reveals"]],
        "share of reveals [95%]": share_cells(pay, "share", pay.groupby("variant")["reveals"].transform("sum")),
        "gain of a seat that had looked, dollars [95%]": cells(pay, "gain_known"),
        "gain of a seat that had not, dollars [95%]": cells(pay, "gain_unknown"),
        "claimant's reserve per round, dollars [95%]": cells(pay, "reserve"),
    })
    findings = []
    base = pay[pay["variant"] == ctx.baseline]
    for label in ("Been Had", "Two Stacks"):
        row = base[base["label"] == label]
        if len(row):
            r = row.iloc[0]
            findings.append(f"When {label} is revealed ({value_of(r, 'share', 'share')} of reveals in "
                            f"{ctx.variant_name(ctx.baseline)}), a seat that had looked gains "
                            f"{value_of(r, 'gain_known', 'dollars')}, one that had not "
                            f"{value_of(r, 'gain_unknown', 'dollars')}.")
    page_table(ctx, fig, table, title, [0.6, 0.8, 0.6, 1.3, 1.5, 1.5, 1.5], height=0.36, findings=findings,
               source="payoff_rows", note=small_cell_note(pay.groupby("variant")["reveals"].transform("sum")))


def _events_page(ctx: Report) -> None:
    ev = ctx["table_events"]
    variants = ctx.variant_ids
    s = ev.set_index("variant").reindex(variants).reset_index()
    title = "Wild Goose Chase, Trust Me cards and challenges"
    fig = new_page(title, "Left: per game (t 95%): opponents sent to a Wild Goose Chase space, and Trust Me cards "
                   "drawn by kind. Right: share of challenges the challenger won and of Bamboozled rolls escaped "
                   "(bootstrap 95% over games).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    grouped_intervals(ax, variants, s, [("wgc_sent", "opponents sent to WGC"), ("cards_move", "card: move"),
                                        ("cards_bamboozled", "card: Bamboozled"),
                                        ("cards_challenge", "card: Challenge"), ("challenges", "challenges made")],
                      "per game", "Sends, cards and challenges per game")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("challenger_wins", "challenger won"), ("escaped", "Bamboozled escaped")],
                      "share", "Challenges won and Bamboozled escaped")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": variants,
        "Wild Goose Chase sends per game [95%]": cells(s, "wgc_sent"),
        "move cards per game [95%]": cells(s, "cards_move"),
        "Bamboozled cards per game [95%]": cells(s, "cards_bamboozled"),
        "Challenge cards per game [95%]": cells(s, "cards_challenge"),
        "challenges per game [95%]": cells(s, "challenges"),
        # Challenges and Bamboozled rolls are rare: a share of fewer than MIN_CELL of them shows its counts.
        "challenges won by the challenger [95%]": share_cells(s, "challenger_wins", "challenges_total"),
        "Bamboozled escaped [95%]": share_cells(s, "escaped", "bamboozled_total"),
    })
    findings = [
        extremes(ctx, ev, "wgc_sent", "the number of opponents sent to a Wild Goose Chase per game", "sends"),
        extremes(ctx, ev, "challenger_wins", "the share of challenges the challenger wins", "share"),
    ]
    counts = [s[c] for c in ("challenges_total", "bamboozled_total") if c in s.columns]
    page_table(ctx, fig, table, title, [0.6, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2], findings=findings,
               source="table_events", note=small_cell_note(*counts))


def _mix_of(ctx: Report, variant: str) -> str:
    """The Payoff mix (one/two/empty/had) a variant was played with, from its game string."""
    variants = ctx["variants"].set_index("variant")
    game_string = str(variants.loc[variant, "game_string"]) if variant in variants.index else ""
    for part in game_string.replace("(", ",").replace(")", ",").split(","):
        if part.startswith("payoff_mix="):
            return part.split("=", 1)[1]
    return "6/4/4/2"  # the rules' default (rules.DEFAULTS)


def _payoff_mix_page(ctx: Report) -> None:
    """How far each compared measure moves when only the Payoff mix differs from the baseline's. The rule text gives
    only the two "You've Been Had!" cards of 16, so the mix is the most consequential assumption; a spec that varies it
    (reports/sweep_1981.toml) gets this page. Drawn from ``variant_differences`` and ``comparisons``."""
    diffs = ctx["variant_differences"]
    lineups = ctx["variants"].set_index("variant")["lineup"].astype(str).to_dict()
    base_lineup = lineups.get(ctx.baseline)
    # Only the mix differs: the same other parameters and the same line-up as the baseline.
    mixes = [str(v) for v, d in zip(diffs["variant"], diffs["differs_in"])
             if d == "payoff_mix" and lineups.get(str(v)) == base_lineup]
    comp = ctx["comparisons"]
    comp = comp[comp["variant"].isin(mixes)]
    if not len(comp):
        return
    base_mix = _mix_of(ctx, ctx.baseline)
    rows, moves = [], []
    for metric, g in comp.groupby("metric", sort=False):
        unit = str(g["unit"].iloc[0])
        row = {"measure": metric, f"baseline ({base_mix})": figure(g["baseline_value"].iloc[0], unit)}
        for r in g.itertuples():
            row[f"{_mix_of(ctx, r.variant)}: change [95%]"] = estimate(r.difference, r.low, r.high, unit, signed=True)
        largest = g.loc[g["difference"].abs().idxmax()]
        row["largest move"] = figure(abs(largest["difference"]), unit)
        moves.append((abs(float(largest["effect"])) if largest["effect"] == largest["effect"] else 0.0, metric,
                      largest, unit))
        rows.append(row)
    table = pd.DataFrame(rows)
    title = "How much the Payoff mix moves the figures"
    fig = new_page(title, "The rule text gives only the two \"You've Been Had!\" cards of 16; the rest of the mix "
                   "(one/two/empty/had) is assumed. Each row: a compared measure at the baseline's mix and how far "
                   "it moves under each other mix, everything else as in the baseline (difference with its 95% "
                   "interval: Newcombe for shares of games, Welch for means).")
    moves.sort(key=lambda m: m[0], reverse=True)
    findings = []
    for _, metric, r, unit in moves[:2]:
        change = estimate(r["difference"], r["low"], r["high"], unit, signed=True)
        findings.append(f"The Payoff mix moves {metric} by up to {figure(abs(r['difference']), unit)}: from "
                        f"{figure(r['baseline_value'], unit)} at {base_mix} to {figure(r['value'], unit)} at "
                        f"{_mix_of(ctx, r['variant'])} (change {change}).")
    page_table(ctx, fig, table, title, [1.6] + [1.0] * (len(table.columns) - 1), height=0.6, findings=findings,
               source="comparisons")


#: The roles of the investing-round tables, as a sentence names them.
ROLE_WORDS = {
    "claimant, looked": "a claimant who had looked",
    "claimant, not looked": "a claimant who had not looked",
    "investor, looked": "an investor who had looked",
    "investor, not looked": "an investor who had not looked",
}

# --- trustme_1981_investment ---------------------------------------------------------------------------------------



def draw_investment(ctx: Report) -> None:
    """Add the ``trustme_1981_investment`` pages to the report, drawn from the results set."""
    by_row = ctx["investment_by_row"]
    by_knowledge = ctx["investment_by_knowledge"]
    variants = ctx.variant_ids
    order = [ctx.baseline] + [v for v in variants if v != ctx.baseline]

    title = "Investing round: wealth change by payoff row and by what the seat had seen"
    fig = new_page(title, "Mean wealth change of a seat over the round (payoffs and, for the claimant, the reserve), "
                   "by the payoff row revealed and the seat's role: claimant or investor, and whether it had looked "
                   "under the briefcase (95% t intervals over seats).")
    shown = order[:3]
    for i, v in enumerate(shown):
        ax = fig.add_axes((0.07 + i * 0.32, 0.50, 0.26, 0.34))
        sub = by_row[by_row["variant"] == v]
        for j, role in enumerate(ROLES):
            part = sub[sub["role"] == role].set_index("row").reindex(range(len(ROW_LABELS)))
            interval_plot(ax, list(ROW_LABELS), part["change"], part["change_low"], part["change_high"],
                          "wealth change (dollars)", color=f"C{j}", offset=(j - 1.5) * 0.14, label=role)
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xlabel("payoff row revealed")
        ax.set_title(v + (" (baseline)" if v == ctx.baseline else ""))
        ax.legend(loc="best", fontsize=6.5)
    # The baseline's rows on the page (one per payoff row and role); every variant's are in the CSV.
    rows = by_row[by_row["variant"] == ctx.baseline]
    table = pd.DataFrame({
        "variant": rows["variant"],
        "payoff row": rows["label"],
        "role": rows["role"],
        "seats": [count(x) for x in rows["seats"]],
        "wealth change, dollars [95%]": cells(rows, "change"),
        "payoff gain, dollars [95%]": cells(rows, "payoff"),
        "reserve, dollars (mean)": [number(x) for x in rows["reserve_mean"]],
    })
    findings = []
    claimant = rows[rows["role"].str.startswith("claimant") & rows["change"].notna()]
    if len(claimant):
        best = claimant.loc[claimant["change"].idxmax()]
        worst = claimant.loc[claimant["change"].idxmin()]
        findings.append(f"In {ctx.variant_name(ctx.baseline)} {ROLE_WORDS.get(best['role'], best['role'])} gains "
                        f"most when {best['label']} is revealed: {value_of(best, 'change', 'dollars')}; the least is "
                        f"{ROLE_WORDS.get(worst['role'], worst['role'])} at {worst['label']}: "
                        f"{value_of(worst, 'change', 'dollars')}.")
    investors = rows[rows["role"].str.startswith("investor") & (rows["label"] == "Been Had")]
    for _, r in investors.iterrows():
        findings.append(f"{ROLE_WORDS.get(r['role'], r['role']).capitalize()} changes wealth by "
                        f"{value_of(r, 'change', 'dollars', signed=True)} when You've Been Had is revealed.")
    page_table(ctx, fig, table, title, [0.6, 0.8, 1.2, 0.5, 1.5, 1.5, 0.9], height=0.36, findings=findings[:3],
               source="investment_by_row",
               note="The table shows the baseline's rows; every variant's are in stats/investment_by_row.csv."
               if len(variants) > 1 else "")

    title = "Investing round: shares bought and divested by what the seat had seen"
    fig = new_page(title, "Per seat and role: shares bought and divested (95% t), share of seats that bought or "
                   "divested (Wilson 95%).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    by_category(ax, variants, by_knowledge, "role", ROLES, ROLES, "bought", "shares per seat", "Shares bought")
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    by_category(ax2, variants, by_knowledge, "role", ROLES, ROLES, "buy_rate", "share of seats",
                "Seats that bought")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": by_knowledge["variant"],
        "role": by_knowledge["role"],
        "seats": [count(x) for x in by_knowledge["seats"]],
        "shares bought per seat [95%]": cells(by_knowledge, "bought"),
        "shares divested per seat [95%]": cells(by_knowledge, "divested"),
        "seats that bought [95%]": share_cells(by_knowledge, "buy_rate", "seats"),
        "seats that divested [95%]": share_cells(by_knowledge, "divest_rate", "seats"),
        "wealth change, dollars [95%]": cells(by_knowledge, "change"),
    })
    findings = []
    base = by_knowledge[by_knowledge["variant"] == ctx.baseline].set_index("role")
    if {"investor, looked", "investor, not looked"} <= set(base.index):
        a, b = base.loc["investor, looked"], base.loc["investor, not looked"]
        findings.append(f"In {ctx.variant_name(ctx.baseline)}, {value_of(a, 'buy_rate', 'share')} of investors who "
                        f"had looked buy shares, and {value_of(b, 'buy_rate', 'share')} of those who had not.")
    if {"claimant, looked", "claimant, not looked"} <= set(base.index):
        a, b = base.loc["claimant, looked"], base.loc["claimant, not looked"]
        findings.append(f"A claimant who had looked ends {value_of(a, 'change', 'dollars', signed=True)} richer, "
                        f"one who had not {value_of(b, 'change', 'dollars', signed=True)}.")
    page_table(ctx, fig, table, title, [0.6, 1.2, 0.5, 1.3, 1.3, 1.3, 1.3, 1.4], findings=findings,
               source="investment_by_knowledge", note=small_cell_note(by_knowledge["seats"]))
