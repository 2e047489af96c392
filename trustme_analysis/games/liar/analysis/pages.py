"""The Liar (``trustme_liar``) pages of the report: the first player's advantage, ranks and points by mode, Trust Me
points by source, game length and end, plays and claim sizes with the bluff rate per size, and challenges, burns,
pickups and going out.

The game's registry ``pages`` part (:func:`draw`). Every figure comes from the results set's tables (computed by
:func:`trustme_analysis.games.liar.analysis.stats.compute`); every plot shows 95% intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import extremes, value_of
from trustme_analysis.report.layout import interval_plot, new_page
from trustme_analysis.report.panels import (
    by_category,
    cells,
    ci,
    grouped_intervals,
    page_table,
    pct,
    share_cells,
    small_cell_note,
)
from trustme_analysis.report.words import DASH, count, percent
from trustme_analysis.games.liar.engine.scoring import SOURCES

#: The scoring modes in the rule text's words.
MODE_WORDS = {"classique": "Classique", "trustme": "Trust Me"}

SOURCE_LABELS = {
    "going_out": "going out (+10)",
    "cards_in_hand": "cards in hand (-1 each)",
    "false_cards": "false cards accepted or burned (+25)",
    "unmasked": "liar unmasked (+10)",
    "wrongly_accused": "wrongly accused (+10)",
}


def draw(ctx: Report) -> None:
    """Add the Liar pages to the report, drawn from the results set."""
    _starter_page(ctx)
    _ranks_page(ctx)
    _sources_page(ctx)
    _length_page(ctx)
    _claims_page(ctx)
    _challenges_page(ctx)


def _games_of(ctx: Report, variants: list[str]) -> list[float]:
    """Each variant's games (from the game-length table), for a share of games; NaN where it is not known."""
    try:
        length = ctx["game_length"]
    except KeyError:  # a results set without it: every share of games stays a percentage
        return [np.nan] * len(variants)
    return list(length.set_index("variant")["games"].reindex(variants).astype(float))


def _starter_page(ctx: Report) -> None:
    st = ctx["starter"]
    variants = ctx.variant_ids
    orders = sorted(st["turn_order"].unique())
    title = "The first player's advantage"
    fig = new_page(title, "Share of games won (best rank, ties counted; most points in Trust Me games) by the place in "
                   "turn order from the player who starts the first round (Wilson 95%), against the fair share. "
                   "The seat-balance page gives the same per seat number.")
    ax = fig.add_axes((0.07, 0.50, 0.86, 0.36))
    labels = ["first player" if k == 0 else f"{k} after the first" for k in orders]
    by_category(ax, variants, st, "turn_order", orders, labels, "win", "share of games won", "Wins by turn order")
    for fair in sorted(st["fair"].unique()):
        ax.axhline(fair, color="0.6", linewidth=0.8, linestyle="--")
    first = st[st["turn_order"] == 0].set_index("variant").reindex(variants).reset_index()
    table = pd.DataFrame({
        "variant": variants,
        # One first player per game: the share rests on the variant's games, shown as counts below MIN_CELL.
        "first player wins [95%]": share_cells(first, "win", "games"),
        "fair share": [f"{100 * x:.0f}%" for x in first["fair"]],
        "advantage [95%]": cells(first, "advantage", pct),
        "in words": first["sentence"],
    })
    # The starter's advantage is its own finding, apart from what a seat number is worth (seat-balance page).
    findings = [extremes(ctx, first, "advantage", "the advantage of playing first (win rate minus the fair share)",
                         "share of games")]
    page_table(ctx, fig, table, title, [0.6, 1.3, 0.7, 1.3, 6.0], fontsize=6.5, findings=findings, front=1,
               source="starter", note=small_cell_note(first["games"]) if "games" in first.columns else "")


def _ranks_page(ctx: Report) -> None:
    rp = ctx["ranks_points"]
    variants = ctx.variant_ids
    seats = sorted(rp["seat"].unique())
    title = "Ranks and points by seat and mode"
    fig = new_page(title, "Left: mean Classique rank per seat (1 = first out; others by cards left; t 95% over games). "
                   "Right: mean Trust Me points per seat, Trust Me variants only (t 95%). Win rates (first out) per "
                   "seat are on the seat-balance page.")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    by_category(ax, variants, rp, "seat", seats, [f"seat {s}" for s in seats], "rank", "mean rank (1 = best)",
                "Classique rank per seat")
    ax.invert_yaxis()
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    trust = [v for v in variants if (rp[rp["variant"] == v]["mode"] == "trustme").any()]
    if trust:
        by_category(ax2, trust, rp, "seat", seats, [f"seat {s}" for s in seats], "points", "points per game",
                    "Trust Me points per seat")
    else:
        ax2.text(0.5, 0.5, "no Trust Me variant in this sweep", transform=ax2.transAxes, ha="center", va="center",
                 color="0.4")
        ax2.set_title("Trust Me points per seat")
    table = pd.DataFrame({
        "variant": rp["variant"],
        "scoring": [MODE_WORDS.get(m, m) for m in rp["mode"]],
        "seat": rp["seat"],
        "mean rank (1 = first out) [95%]": cells(rp, "rank"),
        "went out first [95%]": share_cells(rp, "went_out", "games"),
        "Trust Me points per game [95%]": [c if m == "trustme" else DASH for c, m in
                                           zip(cells(rp, "points"), rp["mode"])],
        "most points [95%]": [c if m == "trustme" else DASH for c, m in zip(share_cells(rp, "points_win", "games"),
                                                                             rp["mode"])],
    })
    findings = []
    # Seat 0, a seat number: with first_player = random it is not the first player (that is the starter page).
    seat0 = rp[rp["seat"] == 0]
    findings.append(extremes(ctx, seat0, "went_out", "the share of games seat 0 goes out first", "share"))
    findings.append(extremes(ctx, seat0, "rank", "seat 0's mean rank (1 = best)", "rank"))
    page_table(ctx, fig, table, title, [0.6, 0.8, 0.4, 1.3, 1.3, 1.4, 1.3], findings=findings, front=1,
               source="ranks_points", note=small_cell_note(rp["games"]) if "games" in rp.columns else "")


def _sources_page(ctx: Report) -> None:
    src = ctx["points_by_source"]
    if not len(src):
        # No variant scores Trust Me points (Classique only): there is nothing to draw.
        return
    title = "Trust Me points by source"
    fig = new_page(title, "Mean points per seat from each source of the Trust Me chart, all seats and the seats with "
                   "the most points (t 95% over seats); Trust Me variants only.")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    trust = sorted(src["variant"].unique())
    labels = [SOURCE_LABELS[s] for s in SOURCES]
    by_category(ax, trust, src, "source", SOURCES, labels, "all", "points per seat", "All seats")
    by_category(ax2, trust, src, "source", SOURCES, labels, "top", "points per seat", "Seats with the most points")
    for a in (ax, ax2):
        a.axhline(0, color="0.5", linewidth=0.8)
    table = pd.DataFrame({
        "variant": src["variant"],
        "source": [SOURCE_LABELS[s] for s in src["source"]],
        "points per seat, all seats [95%]": cells(src, "all"),
        "points per seat, seats with the most points [95%]": cells(src, "top"),
        "share of all points": [percent(x) for x in src["share_of_points"]],
    })
    base = src[src["variant"] == trust[0]]
    findings = []
    if base["share_of_points"].notna().any():
        r = base.loc[base["share_of_points"].abs().idxmax()]
        findings.append(f"In {ctx.variant_name(trust[0])} most points come from {SOURCE_LABELS[r['source']]}: "
                        f"{percent(r['share_of_points'])} of all points, {value_of(r, 'all', 'points')} per seat.")
    if base["top"].notna().any():
        r = base.loc[base["top"].idxmax()]
        findings.append(f"The seats with the most points get most from {SOURCE_LABELS[r['source']]}: "
                        f"{value_of(r, 'top', 'points')} per seat, against {value_of(r, 'all', 'points')} for all "
                        "seats.")
    page_table(ctx, fig, table, title, [0.6, 2.0, 1.4, 1.4, 1.0], findings=findings, source="points_by_source")


def _length_page(ctx: Report) -> None:
    length = ctx["game_length"]
    variants = ctx.variant_ids
    s = length.set_index("variant").reindex(variants).reset_index()
    title = "Game length and how games end"
    fig = new_page(title, "Left: player turns per game (plays, passes, challenges, burns), mean with 95% t interval "
                   "and the 10%-90% range. Right: share of games ended by a player going out, at the set-up (a hand "
                   "emptied by the pair discards) and by the turn cap (Wilson 95%).")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    x = np.arange(len(variants))
    ax.vlines(x, s["turns_q10"], s["turns_q90"], color="0.75", linewidth=8, label="10%-90% of games")
    interval_plot(ax, variants, s["turns"], s["turns_low"], s["turns_high"], "turns per game", color="C0",
                  label="mean (95% interval)")
    ax.set_xlabel("variant")
    ax.set_title("Game length")
    ax.legend(loc="best", fontsize=7)
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("end_out", "went out"), ("end_setup", "out at the set-up"),
                                         ("end_turn_cap", "turn cap")], "share of games", "End")
    ax2.set_ylim(-0.02, 1.02)
    table = pd.DataFrame({
        "variant": variants,
        "scoring": [MODE_WORDS.get(m, m) for m in s["mode"]],
        "games": [count(g) for g in s["games"]],
        "turns per game [95%]": cells(s, "turns"),
        "10% / median / 90% of games, turns": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in
                                               s[["turns_q10", "turns_median", "turns_q90"]].to_numpy(dtype=float)],
        "ended by a player going out [95%]": share_cells(s, "end_out", "games"),
        "ended at the set-up [95%]": share_cells(s, "end_setup", "games"),
        "ended by the turn cap [95%]": share_cells(s, "end_turn_cap", "games"),
    })
    findings = [
        extremes(ctx, length, "turns", "the length of a game", "turns"),
        extremes(ctx, length, "end_turn_cap", "the share of games stopped by the turn cap", "share"),
    ]
    page_table(ctx, fig, table, title, [0.6, 0.8, 0.5, 1.3, 1.3, 1.2, 1.2, 1.2], findings=findings,
               source="game_length", note=small_cell_note(s["games"]))


def _claims_page(ctx: Report) -> None:
    sizes = ctx["claim_sizes"]
    variants = ctx.variant_ids
    title = "Plays and claim sizes: how often players bluff"
    fig = new_page(title, "By claim size (cards in one play), one series per variant. Left: share of all plays. "
                   "Right: bluff rate = false cards among the cards played at that size. Bootstrap 95% over games.")
    size_values = sorted(sizes["size"].unique())
    labels = [str(k) for k in size_values]
    for j, (col, ylabel, sub_title) in enumerate((("share", "share of plays", "Claim sizes"),
                                                  ("bluff_rate", "share of cards that are false",
                                                   "Bluff rate by claim size"))):
        ax = fig.add_axes((0.07 + j * 0.49, 0.50, 0.36, 0.36))
        n = len(variants)
        for i, v in enumerate(variants[:10]):
            sub = sizes[sizes["variant"] == v].set_index("size").reindex(size_values)
            interval_plot(ax, labels, sub[col], sub[f"{col}_low"], sub[f"{col}_high"], ylabel, color=f"C{i}",
                          offset=(i - (min(n, 10) - 1) / 2) * min(0.12, 0.8 / max(n, 1)), label=v)
        ax.set_xlabel("claim size (cards played)")
        ax.set_title(sub_title)
        ax.set_ylim(-0.02, 1.02)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, title="variant", title_fontsize=7)
    table = pd.DataFrame({
        "variant": sizes["variant"],
        "cards played": sizes["size"],
        "plays": [count(x) for x in sizes["plays"]],
        "plays per game [95%]": cells(sizes, "per_game"),
        "share of plays [95%]": share_cells(sizes, "share", sizes.groupby("variant")["plays"].transform("sum")),
        # Per claim size the cases can be few (plays of four cards): a share of fewer than MIN_CELL shows counts.
        "bluff rate (false cards among cards played) [95%]": share_cells(
            sizes, "bluff_rate", sizes["cards"] if "cards" in sizes.columns else sizes["plays"] * sizes["size"]),
        "plays with a false card [95%]": share_cells(sizes, "bluff_plays", "plays"),
    })
    findings = []
    base = sizes[(sizes["variant"] == ctx.baseline) & sizes["bluff_rate"].notna()]
    if len(base):
        hi = base.loc[base["bluff_rate"].idxmax()]
        lo = base.loc[base["bluff_rate"].idxmin()]
        findings.append(f"In {ctx.variant_name(ctx.baseline)}, plays of {int(hi['size'])} card(s) hold the most false "
                        f"cards: {value_of(hi, 'bluff_rate', 'share')}; plays of {int(lo['size'])} the fewest: "
                        f"{value_of(lo, 'bluff_rate', 'share')}.")
        top = base.loc[base["share"].idxmax()]
        findings.append(f"The most common play is {int(top['size'])} card(s): {value_of(top, 'share', 'share')} "
                        "of plays.")
    page_table(ctx, fig, table, title, [0.6, 0.5, 0.5, 1.3, 1.3, 1.6, 1.5], findings=findings, front=1,
               source="claim_sizes", note=small_cell_note(sizes["plays"],
                                                          sizes.groupby("variant")["plays"].transform("sum")))


def _challenges_page(ctx: Report) -> None:
    ch = ctx["challenges"]
    variants = ctx.variant_ids
    s = ch.set_index("variant").reindex(variants).reset_index()
    title = "Challenges, burns, pickups and going out"
    fig = new_page(title, "Left: challenges per play, challenges that caught a false card, and the share of bluffing "
                   "and of honest plays that were challenged. Right: of the plays of a player's last cards, the share "
                   "caught (pile picked up) and the share that held (went out). Bootstrap 95% over games.")
    ax = fig.add_axes((0.07, 0.50, 0.40, 0.36))
    grouped_intervals(ax, variants, s, [("challenge_rate", "challenges per play"), ("success", "caught a liar"),
                                        ("bluffs_challenged", "bluffs challenged"),
                                        ("honest_challenged", "honest plays challenged")], "share", "Challenges")
    ax.set_ylim(-0.02, 1.02)
    ax2 = fig.add_axes((0.56, 0.50, 0.40, 0.36))
    grouped_intervals(ax2, variants, s, [("last_caught", "last cards caught"), ("last_held", "last cards held")],
                      "share of last-card plays", "Going out")
    ax2.set_ylim(-0.02, 1.02)
    # The turn cap's share rests on the games, counted in the game-length table (this one counts plays).
    games = _games_of(ctx, variants)
    table = pd.DataFrame({
        "variant": variants,
        "plays / passes per game": [f"{ci(a, np.nan, np.nan)} / {ci(b, np.nan, np.nan)}" for a, b in
                                    s[["plays", "passes"]].to_numpy(dtype=float)],
        "challenges per game [95%]": cells(s, "calls"),
        "challenges that caught a liar [95%]": share_cells(s, "success", "calls_total"),
        "burns per game [95%]": cells(s, "burns"),
        "cards per burn": [ci(a, np.nan, np.nan) for a in s["cards_per_burn"]],
        "pickups per game [95%]": cells(s, "pickups"),
        "cards per pickup": [ci(a, np.nan, np.nan) for a in s["cards_per_pickup"]],
        "plays of last cards caught [95%]": share_cells(s, "last_caught", "last_cards_plays"),
        "ended by the turn cap [95%]": share_cells(s, "cap_end", games),
    })
    findings = [
        extremes(ctx, ch, "success", "the share of challenges that catch a liar", "share"),
        extremes(ctx, ch, "bluffs_challenged", "the share of bluffing plays that are challenged", "share"),
        extremes(ctx, ch, "last_caught", "the share of plays of a player's last cards that are caught", "share"),
    ]
    counts = [s[c] for c in ("calls_total", "last_cards_plays") if c in s.columns] + [games]
    page_table(ctx, fig, table, title, [0.5, 1.0, 1.2, 1.1, 1.1, 0.7, 1.1, 0.7, 1.4, 1.0], findings=findings,
               source="challenges", note=small_cell_note(*counts))
