"""Pinocchio statistics over sweep records: scores, the scoring chart, Ticket values, game length and the tale table.

Every function takes the records DataFrame (columns from :mod:`trustme_analysis.games.pinocchio.analysis.records` plus the sweep's
``variant`` and ``game_index``) and returns a tidy table per variant with 95% intervals. Games are the independent
units: a share pooled over games (e.g. of all points, the part from the set bonus) gets a bootstrap interval that
resamples whole games; a per-game mean gets a t interval; a per-game yes/no gets a Wilson interval.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from trustme_analysis.results import Builder
from trustme_analysis.stats.compare import GameMetric
from trustme_analysis.stats.intervals import CONFIDENCE, mean_t, ratio_of_sums, wilson
from trustme_analysis.stats.traces import trace_bands
from trustme_analysis.engine.params import int_list
from trustme_analysis.games.pinocchio.analysis.records import TALE_ROWS
from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME

GAME_KEY = ["variant", "game_index"]

#: Per-game metrics compared with the baseline (columns of :func:`games`).
COMPARISON_METRICS = (
    # Win rate minus the fair rate 1/players, so variants with different player counts compare fairly.
    GameMetric("first seat advantage (win rate - 1/players)", "seat0_advantage", "mean", "share of games"),
    GameMetric("last seat advantage (win rate - 1/players)", "last_seat_advantage", "mean", "share of games"),
    GameMetric("best score shared (tie-break)", "top_shared", "rate", "share of games"),
    GameMetric("mean score per seat", "mean_score", "mean", "points"),
    GameMetric("winner's score", "winner_score", "mean", "points"),
    GameMetric("winner's margin", "margin", "mean", "points"),
    GameMetric("set-bonus share per game (mean)", "set_bonus_share", "mean", "share (per game)"),
    GameMetric("different values per seat", "mean_different_values", "mean", "values"),
    GameMetric("turns per game", "turns", "mean", "turns"),
    GameMetric("game ended by the stacks", "end_by_stacks", "rate", "share of games"),
    GameMetric("tall tales per tale", "tall_share", "mean", "share (per game)"),
    GameMetric("tall tales trusted", "tall_trusted_share", "mean", "share (per game)"),
    GameMetric("lead changes", "lead_changes", "mean", "changes per game"),
)


def _stack(series: pd.Series) -> np.ndarray:
    """A list column as a 2-D array (rows x values); all rows of one variant have the same length."""
    return np.vstack([np.asarray(v, dtype=float) for v in series]) if len(series) else np.zeros((0, 0))


def variants(records: pd.DataFrame) -> list[str]:
    """Variant ids present in the records, sorted."""
    return sorted(records["variant"].unique())


def games(records: pd.DataFrame, game_table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per game with the per-game metrics of :data:`COMPARISON_METRICS`.

    Args:
        records: Pinocchio sweep records.
        game_table: :func:`trustme_analysis.stats.balance.games_table` of the same records, whose score-trace
            metrics (``lead_changes``, ...) are joined in when given.
    """
    r = records.sort_values(GAME_KEY + ["seat"], kind="stable")
    # Columns added to the records after the first release: older stored sweeps lack them, and still get a report.
    for col in ("days", "bonus_turns", "coin_tosses", "coin_chance_tosses"):
        if col not in r.columns:
            r = r.assign(**{col: np.nan})
    g = r.groupby(GAME_KEY, sort=True)
    out = g.agg(
        players=("players", "first"),
        turns=("turns", "first"),
        end_trigger=("end_trigger", "first"),
        top_shared=("top_shared", "first"),
        margin=("margin", "first"),
        total_points=("score", "sum"),
        bonus_points=("score_set_bonus", "sum"),
        mean_score=("score", "mean"),
        mean_different_values=("different_values", "mean"),
        tales=("tales_told", "sum"),
        tall=("tales_tall", "sum"),
        tall_trusted=("row_tall_trusted", "sum"),
        days=("days", "first"),
        bonus_turns=("bonus_turns", "sum"),
        seat_coin_tosses=("coin_tosses", "sum"),
        chance_coin_tosses=("coin_chance_tosses", "first"),
    ).reset_index()
    out["coin_tosses"] = out["seat_coin_tosses"] + out["chance_coin_tosses"]
    out["reached_night"] = np.where(out["days"].isna(), np.nan, (out["days"] >= 2).astype(float))
    winners = r[r["win"].astype(bool)].set_index(GAME_KEY)
    out = out.join(winners[["seat", "score"]].rename(columns={"seat": "winner", "score": "winner_score"}), on=GAME_KEY)
    out["seat0_win"] = (out["winner"] == 0).astype(float)
    out["last_seat_win"] = (out["winner"] == out["players"] - 1).astype(float)
    out["seat0_advantage"] = out["seat0_win"] - 1.0 / out["players"]
    out["last_seat_advantage"] = out["last_seat_win"] - 1.0 / out["players"]
    out["top_shared"] = out["top_shared"].astype(float)
    out["end_by_stacks"] = (out["end_trigger"] == "stacks").astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["set_bonus_share"] = np.where(out["total_points"] > 0, out["bonus_points"] / out["total_points"], np.nan)
        out["tall_share"] = np.where(out["tales"] > 0, out["tall"] / out["tales"], np.nan)
        out["tall_trusted_share"] = np.where(out["tall"] > 0, out["tall_trusted"] / out["tall"], np.nan)
    if game_table is not None and "lead_changes" in game_table.columns:
        extra = game_table.set_index(GAME_KEY)[["lead_changes", "lead_change_rate", "drama", "decisiveness"]]
        out = out.join(extra, on=GAME_KEY)
    return out


def score_summary(records: pd.DataFrame, game_rows: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: seat score mean (t interval over games of the seats' mean), spread and quantiles, winner's score,
    winner's margin and lead changes per game (t intervals)."""
    rows = []
    for variant in variants(records):
        seats = records.loc[records["variant"] == variant, "score"].to_numpy(dtype=float)
        gv = game_rows[game_rows["variant"] == variant]
        mean = mean_t(gv["mean_score"], confidence)
        win = mean_t(gv["winner_score"], confidence)
        margin = mean_t(gv["margin"], confidence)
        q = np.quantile(seats, [0.1, 0.25, 0.5, 0.75, 0.9]) if seats.size else [math.nan] * 5
        row = {
            "variant": variant,
            "games": len(gv),
            "score_mean": mean.estimate,
            "score_low": mean.low,
            "score_high": mean.high,
            "score_sd": float(seats.std(ddof=1)) if seats.size > 1 else math.nan,
            "score_q10": q[0],
            "score_q25": q[1],
            "score_median": q[2],
            "score_q75": q[3],
            "score_q90": q[4],
            "winner_score_mean": win.estimate,
            "winner_score_low": win.low,
            "winner_score_high": win.high,
            "margin_mean": margin.estimate,
            "margin_low": margin.low,
            "margin_high": margin.high,
        }
        if "lead_changes" in gv.columns:
            lc = mean_t(gv["lead_changes"], confidence)
            row.update(lead_changes_mean=lc.estimate, lead_changes_low=lc.low, lead_changes_high=lc.high)
        rows.append(row)
    return pd.DataFrame(rows)


def chart_shares(
    records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant and group (all seats, winners): the share of points from Ticket face value and from the set bonus.

    Shares are pooled over games (all points of the group) with a bootstrap interval over games.
    """
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        for group, sel in (("all seats", rv), ("winners", rv[rv["win"].astype(bool)])):
            per_game = sel.groupby("game_index")[["score", "score_set_bonus", "score_ticket_face"]].sum()
            bonus = ratio_of_sums(per_game["score_set_bonus"], per_game["score"], rng, confidence=confidence)
            rows.append(
                {
                    "variant": variant,
                    "group": group,
                    "set_bonus_share": bonus.estimate,
                    "set_bonus_low": bonus.low,
                    "set_bonus_high": bonus.high,
                    # The face share is the complement, so its interval is the mirrored bonus interval.
                    "ticket_face_share": 1.0 - bonus.estimate,
                    "ticket_face_low": 1.0 - bonus.high,
                    "ticket_face_high": 1.0 - bonus.low,
                    "mean_set_bonus": float(sel["score_set_bonus"].mean()),
                    "mean_ticket_face": float(sel["score_ticket_face"].mean()),
                }
            )
    return pd.DataFrame(rows)


def different_values(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and k: the share of seats ending with exactly k different Ticket values, their number
    (``seats``) and their win rate.

    Also the marginal value of the chart step to k (``step_points`` = chart[k] - chart[k-1]) and the share of seats
    that reached at least k values, so ``step_points x reached`` is what that step added to an average seat.
    Seats of one game are counted as separate trials (Wilson intervals), which slightly understates the width.
    """
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        # The records write the chart as "/"-joined text; the engine's own parser reads it back.
        chart = int_list(SHORT_NAME, {"chart": str(rv["chart"].iloc[0])}, "chart")
        n = len(rv)
        k_held = rv["different_values"].to_numpy(dtype=int)
        won = rv["win"].to_numpy(dtype=bool)
        for k in range(0, len(chart) + 1):
            exactly = k_held == k
            share = wilson(int(exactly.sum()), n, confidence)
            reached = wilson(int((k_held >= k).sum()), n, confidence)
            win = wilson(int((won & exactly).sum()), int(exactly.sum()), confidence)
            step = chart[k - 1] - (chart[k - 2] if k >= 2 else 0) if k >= 1 else 0
            rows.append(
                {
                    "variant": variant,
                    "k": k,
                    "share": share.estimate,
                    "share_low": share.low,
                    "share_high": share.high,
                    "reached": reached.estimate,
                    "reached_low": reached.low,
                    "reached_high": reached.high,
                    "win_rate": win.estimate,
                    "win_low": win.low,
                    "win_high": win.high,
                    "seats": int(exactly.sum()),
                    "step_points": step,
                    "step_points_per_seat": step * reached.estimate,
                }
            )
    return pd.DataFrame(rows)


def ticket_values(
    records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant and Ticket value: how often it is taken, by whom, by which route, and when its stack runs out.

    Columns: per_game (Tickets of that value taken per game, t interval), winner_share (share of them held by the
    winner, bootstrap over games), tale_share / reputation_share / free_share (route shares, pooled), stack_out
    (share of games in which the stack ran out, Wilson), stack_out_turn_median (median turn it ran out, in games where
    it did), end_trigger_share (share of games ended by the stacks in which this value's stack emptied last).
    """
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant].sort_values(GAME_KEY + ["seat"], kind="stable")
        held = _stack(rv["tickets_per_value"])
        tale = _stack(rv["tickets_tale_per_value"])
        rep = _stack(rv["tickets_reputation_per_value"])
        free = _stack(rv["tickets_free_per_value"])
        game_id = rv["game_index"].to_numpy()
        won = rv["win"].to_numpy(dtype=bool)
        uniq, inverse = np.unique(game_id, return_inverse=True)
        n_games = uniq.size
        values = held.shape[1]
        per_game = np.zeros((n_games, values))
        per_game_winner = np.zeros((n_games, values))
        np.add.at(per_game, inverse, held)
        np.add.at(per_game_winner, inverse[won], held[won])
        first = rv.drop_duplicates("game_index")
        empty_turn = _stack(first["stack_empty_turn"])
        ended_stacks = (first["end_trigger"] == "stacks").to_numpy()
        end_value = first["end_stack_value"].to_numpy(dtype=int)
        for v in range(values):
            taken = mean_t(per_game[:, v], confidence)
            by_winner = ratio_of_sums(per_game_winner[:, v], per_game[:, v], rng, confidence=confidence)
            total = held[:, v].sum()
            out = ~np.isnan(empty_turn[:, v])
            stack_out = wilson(int(out.sum()), n_games, confidence)
            trig = wilson(int((end_value[ended_stacks] == v + 1).sum()), int(ended_stacks.sum()), confidence)
            rows.append(
                {
                    "variant": variant,
                    "value": v + 1,
                    "per_game": taken.estimate,
                    "per_game_low": taken.low,
                    "per_game_high": taken.high,
                    "winner_share": by_winner.estimate,
                    "winner_share_low": by_winner.low,
                    "winner_share_high": by_winner.high,
                    "tickets": int(total),
                    "tale_share": tale[:, v].sum() / total if total else math.nan,
                    "reputation_share": rep[:, v].sum() / total if total else math.nan,
                    "free_share": free[:, v].sum() / total if total else math.nan,
                    "stack_out": stack_out.estimate,
                    "stack_out_low": stack_out.low,
                    "stack_out_high": stack_out.high,
                    "stack_out_turn_median": float(np.median(empty_turn[out, v])) if out.any() else math.nan,
                    "end_trigger_share": trig.estimate,
                    "end_trigger_low": trig.low,
                    "end_trigger_high": trig.high,
                }
            )
    return pd.DataFrame(rows)


def tall_tale_tickets(
    records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant: of the trusted tall tales, the share whose Ticket fell to a lower value, and with no Ticket at all.

    Pooled over games, bootstrap interval over games.
    """
    rows = []
    for variant in variants(records):
        per_game = records[records["variant"] == variant].groupby("game_index")[
            ["row_tall_trusted", "tall_ticket_lower", "tall_ticket_none"]
        ].sum()
        lower = ratio_of_sums(per_game["tall_ticket_lower"], per_game["row_tall_trusted"], rng, confidence=confidence)
        none = ratio_of_sums(per_game["tall_ticket_none"], per_game["row_tall_trusted"], rng, confidence=confidence)
        rows.append(
            {
                "variant": variant,
                "tall_trusted": int(per_game["row_tall_trusted"].sum()),
                "lower_share": lower.estimate,
                "lower_low": lower.low,
                "lower_high": lower.high,
                "none_share": none.estimate,
                "none_low": none.low,
                "none_high": none.high,
            }
        )
    return pd.DataFrame(rows)


def game_length(game_rows: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (mean with t interval, quantiles), how games ended and how many reached the night
    (Wilson intervals), and bonus turns and Coin tosses per game (t intervals)."""
    rows = []
    for variant, gv in game_rows.groupby("variant", sort=True):
        turns = gv["turns"].to_numpy(dtype=float)
        mean = mean_t(turns, confidence)
        n = len(gv)
        deck = wilson(int((gv["end_trigger"] == "deck").sum()), n, confidence)
        stacks = wilson(int((gv["end_trigger"] == "stacks").sum()), n, confidence)
        q = np.quantile(turns, [0.1, 0.5, 0.9])
        known = gv["reached_night"].dropna()
        night = wilson(int(known.sum()), len(known), confidence)
        bonus = mean_t(gv["bonus_turns"].to_numpy(dtype=float), confidence)
        coin = mean_t(gv["coin_tosses"].to_numpy(dtype=float), confidence)
        rows.append(
            {
                "variant": variant,
                "games": n,
                "turns_mean": mean.estimate,
                "turns_low": mean.low,
                "turns_high": mean.high,
                "turns_q10": q[0],
                "turns_median": q[1],
                "turns_q90": q[2],
                "end_deck": deck.estimate,
                "end_deck_low": deck.low,
                "end_deck_high": deck.high,
                "end_stacks": stacks.estimate,
                "end_stacks_low": stacks.low,
                "end_stacks_high": stacks.high,
                "reached_night": night.estimate,
                "reached_night_low": night.low,
                "reached_night_high": night.high,
                "bonus_turns_mean": bonus.estimate,
                "bonus_turns_low": bonus.low,
                "bonus_turns_high": bonus.high,
                "coin_tosses_mean": coin.estimate,
                "coin_tosses_low": coin.low,
                "coin_tosses_high": coin.high,
            }
        )
    return pd.DataFrame(rows)


def tale_table(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and row of the tale table: the share of all tales in that row (bootstrap over games), tales of
    that row per game, and the trust rates that explain it (true tales trusted, tall tales trusted, votes right).

    Rows: true_trusted, true_distrusted, tall_trusted, tall_distrusted; plus summary rows ``tall`` (bluff rate:
    share of tales that are tall), ``trusted|true``, ``trusted|tall``, ``votes_correct`` (share of votes that
    matched the revealed card) and ``no_ticket|tall_trusted`` (the ``tall_tale_no_ticket`` assumption at work: of the
    trusted tall tales, the share that gained no Ticket because none of the difference's value or lower was left;
    ``per_game``: such tales per game).
    """
    rows = []
    cols = [f"row_{r}" for r in TALE_ROWS] + ["tales_told", "tales_tall", "tales_true", "votes_cast", "votes_correct",
                                              "tall_ticket_none"]
    for variant in variants(records):
        per_game = records[records["variant"] == variant].groupby("game_index")[cols].sum()
        n_games = len(per_game)

        def add(row: str, num: pd.Series, den: pd.Series) -> None:
            share = ratio_of_sums(num, den, rng, confidence=confidence)
            per = mean_t(num.to_numpy(dtype=float), confidence)
            rows.append(
                {
                    "variant": variant,
                    "row": row,
                    "count": int(num.sum()),
                    "out_of": int(den.sum()),
                    "share": share.estimate,
                    "low": share.low,
                    "high": share.high,
                    "per_game": per.estimate if n_games else math.nan,
                }
            )

        for r in TALE_ROWS:
            add(r, per_game[f"row_{r}"], per_game["tales_told"])
        add("tall", per_game["tales_tall"], per_game["tales_told"])
        add("trusted|true", per_game["row_true_trusted"], per_game["tales_true"])
        add("trusted|tall", per_game["row_tall_trusted"], per_game["tales_tall"])
        add("votes_correct", per_game["votes_correct"], per_game["votes_cast"])
        add("no_ticket|tall_trusted", per_game["tall_ticket_none"], per_game["row_tall_trusted"])
    return pd.DataFrame(rows)


#: The record columns each table of :func:`compute` reads (one variant at a time).
GAMES_COLUMNS = (*GAME_KEY, "seat", "win", "players", "turns", "end_trigger", "top_shared", "margin", "score",
                 "score_set_bonus", "different_values", "tales_told", "tales_tall", "row_tall_trusted", "days",
                 "bonus_turns", "coin_tosses", "coin_chance_tosses")
SHARE_COLUMNS = (*GAME_KEY, "win", "score", "score_set_bonus", "score_ticket_face")
TICKET_COLUMNS = (*GAME_KEY, "seat", "win", "tickets_per_value", "tickets_tale_per_value",
                  "tickets_reputation_per_value", "tickets_free_per_value", "stack_empty_turn", "end_trigger",
                  "end_stack_value")
TALL_COLUMNS = (*GAME_KEY, "row_tall_trusted", "tall_ticket_lower", "tall_ticket_none")
TALE_COLUMNS = (*GAME_KEY, *(f"row_{r}" for r in TALE_ROWS), "tales_told", "tales_tall", "tales_true", "votes_cast",
                "votes_correct", "tall_ticket_none")


def compute(b: Builder) -> None:
    """Add the Pinocchio tables to a results set being computed (the game's registry ``statistics`` part).

    Tables, in the order of the report's pages: ``pinocchio_games`` (per game; also what the variants are compared
    on), ``score_summary``, ``score_trace``, ``charts``, ``chart_shares``, ``different_values``, ``ticket_values``,
    ``tall_tale_tickets``, ``game_length`` and ``tale_table``.
    """
    # Each table reads one variant's columns at a time (Builder.per_variant), never every record at once.
    order = [b.baseline] + [v for v in b.variant_ids if v != b.baseline]
    game_rows = b.add("pinocchio_games", b.per_variant(lambda r: games(r, b.games), GAMES_COLUMNS),
                      "One row per Pinocchio game",
                      "The per-game measures the variants are compared on (seat advantages, scores, set-bonus share, "
                      "tall tales, lead changes, end trigger).")
    b.set_comparisons(game_rows, COMPARISON_METRICS)
    b.add("score_summary", b.per_variant(lambda r: score_summary(r, game_rows), ("variant", "score")), "Final scores",
          "Per variant: mean score per seat (the mean of each game's seat mean), spread and quantiles of seat scores, "
          "the winner's score, the winner's margin over the best other seat, lead changes per game.",
          "t 95% over games", {"score_mean": "points", "winner_score_mean": "points", "margin_mean": "points",
                               "lead_changes_mean": "changes per game"})
    b.add("score_trace", b.per_variant(lambda r: trace_bands(r, order), ("variant", "win", "score_trace"), order),
          "Score over the game",
          "Mean score after each turn (bonus turns count as turns) of the winner and of the other seats, up to the "
          "turn half of the winners' games reached; seats = traces still running at that turn.",
          "t 95% over seats", {"mean": "points", "turn": "turn"})
    charts = b.per_variant(lambda r: r.groupby("variant", sort=True)["chart"].first().reset_index(),
                           ("variant", "chart"))
    b.add("charts", charts, "Scoring chart of each variant",
          "The chart as the game parameter writes it: the set bonus for 1, 2, ... different Ticket values held.")
    b.add("chart_shares", b.per_variant(lambda r: chart_shares(r, b.rng), SHARE_COLUMNS), "Points from the set bonus",
          "Of all points scored (all seats, or winners only), the share from the set bonus and from Ticket face "
          "value, pooled over games.", "bootstrap 95% over games", {"set_bonus_share": "share of points"})
    b.add("different_values", b.per_variant(different_values, ("variant", "chart", "different_values", "win")),
          "Different Ticket values held at the end",
          "Per variant and k: share of seats ending with exactly k different values, the share reaching at least k, "
          "the chart's step to k, and the win rate of seats ending with exactly k.", "Wilson 95%",
          {"share": "share of seats", "reached": "share of seats", "win_rate": "share of seats"})
    b.add("ticket_values", b.per_variant(lambda r: ticket_values(r, b.rng), TICKET_COLUMNS), "Ticket values",
          "Per variant and Ticket value: Tickets taken per game, the share held by the winner, by which route they "
          "were gained, how often and when the stack ran out, and which stack emptied last when the stacks ended the "
          "game.", "t 95% for per-game means, bootstrap 95% over games for shares, Wilson 95% for shares of games",
          {"per_game": "Tickets per game"})
    b.add("tall_tale_tickets", b.per_variant(lambda r: tall_tale_tickets(r, b.rng), TALL_COLUMNS),
          "Tall tales' Tickets",
          "Of the trusted tall tales: the share whose Ticket was of a lower value than the card difference (no Ticket "
          "counts as lower), and the share with no Ticket left.", "bootstrap 95% over games",
          {"lower_share": "share of trusted tall tales", "none_share": "share of trusted tall tales"})
    b.add("game_length", game_length(game_rows), "Game length and what ends the game",
          "Turns per game (bonus turns included) with quantiles; share of games ended by the deck's run-out or by the "
          "emptied stacks; share reaching the night; bonus turns and Coin tosses per game.",
          "t 95% for means, Wilson 95% for shares of games", {"turns_mean": "turns"})
    b.add("tale_table", b.per_variant(lambda r: tale_table(r, b.rng), TALE_COLUMNS), "Tales per row of the tale table",
          "Per variant and row (true/tall x trusted/not): share of all tales and tales per game; also the bluff rate "
          "(tall), trust given the truth, the share of votes that were right, and (no_ticket|tall_trusted) the "
          "trusted tall tales that gained no Ticket because none of the difference's value or lower was left (share "
          "of trusted tall tales; per game).", "bootstrap 95% over games",
          {"share": "share of tales", "per_game": "tales per game"})
