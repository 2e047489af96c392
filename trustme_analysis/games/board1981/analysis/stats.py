"""Statistics of Trust Me (1981) sweeps: wealth, game length, claims, investing rounds, payoff rows, the claimant's
reserve, Wild Goose Chase sends, Trust Me cards and challenges; and the investing round alone.

Every function takes the records DataFrame (columns from :mod:`trustme_analysis.games.board1981.analysis.records` plus the sweep's
``variant`` and ``game_index``) and returns a tidy table per variant with 95% intervals. Games are the independent
units: a share or amount pooled over games (e.g. shares bought per decision) gets a bootstrap interval that resamples
whole games (:func:`~trustme_analysis.stats.intervals.ratio_of_sums`); a per-game mean gets a t interval; a per-game
yes/no gets a Wilson interval. Definitions: ``docs/guide/statistics_1981.rst``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from trustme_analysis.games.board1981.analysis.records import ROW_LABELS
from trustme_analysis.results import Builder
from trustme_analysis.stats.compare import GameMetric
from trustme_analysis.stats.intervals import CONFIDENCE, Interval, mean_t, ratio_of_sums, wilson
from trustme_analysis.stats.traces import trace_bands

GAME_KEY = ["variant", "game_index"]

#: Per-game metrics of ``trustme_1981`` compared with the baseline (columns of :func:`games`).
COMPARISON_METRICS = (
    GameMetric("first seat advantage (win rate - 1/players)", "seat0_advantage", "mean", "share of games"),
    GameMetric("richest shared", "top_shared", "rate", "share of games"),
    GameMetric("mean final wealth per seat", "mean_wealth", "mean", "dollars"),
    GameMetric("winner's margin", "margin", "mean", "dollars"),
    GameMetric("turns per game", "turns", "mean", "turns"),
    GameMetric("ended by the turn cap", "end_by_cap", "rate", "share of games"),
    GameMetric("claims made unseen", "unseen_share", "mean", "share (per game)"),
    GameMetric("reserve per investing round", "reserve_per_round", "mean", "dollars"),
    GameMetric("Wild Goose Chase sends", "wgc_sent", "mean", "sends per game"),
    GameMetric("lead changes", "lead_changes", "mean", "changes per game"),
)

#: Per-game metrics of ``trustme_1981_investment`` compared with the baseline.
INVESTMENT_METRICS = (
    GameMetric("claimant richest", "claimant_wins", "rate", "share of rounds"),
    GameMetric("claimant's wealth change", "claimant_change", "mean", "dollars"),
    GameMetric("investors' mean wealth change", "investor_change", "mean", "dollars"),
    GameMetric("reserve received", "reserve", "mean", "dollars"),
    GameMetric("shares bought by investors", "investor_bought", "mean", "shares"),
)


def _row(prefix: str, iv: Interval) -> dict[str, float]:
    return {f"{prefix}": iv.estimate, f"{prefix}_low": iv.low, f"{prefix}_high": iv.high}


def _stack(series: pd.Series, width: int) -> np.ndarray:
    """A list column as a 2-D array (rows x width)."""
    if not len(series):
        return np.zeros((0, width))
    return np.vstack([np.asarray(v, dtype=float) for v in series])


def variants(records: pd.DataFrame) -> list[str]:
    """Variant ids present in the records, sorted."""
    return sorted(records["variant"].unique())


def _per_game(records: pd.DataFrame, variant: str, columns: list[str]) -> pd.DataFrame:
    return records[records["variant"] == variant].groupby("game_index")[columns].sum()


def games(records: pd.DataFrame, game_table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per ``trustme_1981`` game with the per-game metrics of :data:`COMPARISON_METRICS` and the columns the
    pages plot (claims, sends, cards, challenges per game).

    Args:
        records: ``trustme_1981`` sweep records.
        game_table: :func:`trustme_analysis.stats.balance.games_table` of the same records; its wealth-trace metrics
            (``lead_changes``, ...) are joined in when given.
    """
    r = records.sort_values(GAME_KEY + ["seat"], kind="stable")
    g = r.groupby(GAME_KEY, sort=True)
    out = g.agg(
        players=("players", "first"),
        turns=("turns", "first"),
        end_trigger=("end_trigger", "first"),
        top_shared=("top_shared", "first"),
        margin=("margin", "first"),
        winner=("winner", "first"),
        mean_wealth=("wealth", "mean"),
        winner_wealth=("wealth", "max"),
        total_money=("money", "sum"),
        total_wealth=("wealth", "sum"),
        claims_unseen=("claims_unseen", "sum"),
        claims_looked=("claims_looked", "sum"),
        claims_taken=("claims_taken", "sum"),
        rounds=("claimant_rounds", "sum"),
        reserve=("reserve_received", "sum"),
        wgc_sent=("wgc_sent", "sum"),
        wgc_received=("wgc_received", "sum"),
        cards_move=("cards_move", "sum"),
        cards_bamboozled=("cards_bamboozled", "sum"),
        cards_challenge=("cards_challenge", "sum"),
        challenges=("challenges_made", "sum"),
        challenges_won=("challenges_won", "sum"),
    ).reset_index()
    out["seat0_advantage"] = (out["winner"] == 0).astype(float) - 1.0 / out["players"]
    out["top_shared"] = out["top_shared"].astype(float)
    out["end_by_cap"] = (out["end_trigger"] == "turn_cap").astype(float)
    made = out["claims_unseen"] + out["claims_looked"]
    with np.errstate(invalid="ignore", divide="ignore"):
        out["unseen_share"] = np.where(made > 0, out["claims_unseen"] / made.where(made > 0, 1), np.nan)
        out["reserve_per_round"] = np.where(out["rounds"] > 0, out["reserve"] / out["rounds"].where(
            out["rounds"] > 0, 1), np.nan)
    if game_table is not None and "lead_changes" in game_table.columns:
        extra = game_table.set_index(GAME_KEY)[["lead_changes", "lead_change_rate", "drama", "decisiveness"]]
        out = out.join(extra, on=GAME_KEY)
    return out


def wealth_summary(
    records: pd.DataFrame, game_rows: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant: final wealth per seat and the winner's (t intervals over games), the winner's margin, and the
    share of all final wealth held as money rather than shares (bootstrap over games), for all seats and winners."""
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        gv = game_rows[game_rows["variant"] == variant]
        won = rv[rv["win"].astype(bool)].groupby("game_index")[["money", "wealth"]].sum()
        every = rv.groupby("game_index")[["money", "wealth"]].sum()
        seats = rv["wealth"].to_numpy(dtype=float)
        q = np.quantile(seats, [0.1, 0.5, 0.9]) if seats.size else [math.nan] * 3
        rows.append(
            {
                "variant": variant,
                "games": len(gv),
                **_row("wealth", mean_t(gv["mean_wealth"], confidence)),
                "wealth_q10": q[0],
                "wealth_median": q[1],
                "wealth_q90": q[2],
                **_row("winner_wealth", mean_t(gv["winner_wealth"], confidence)),
                **_row("margin", mean_t(gv["margin"], confidence)),
                **_row("money_share", ratio_of_sums(every["money"], every["wealth"], rng,
                                                             confidence=confidence)),
                **_row("winner_money_share", ratio_of_sums(won["money"], won["wealth"], rng,
                                                                    confidence=confidence)),
                "mean_money": float(rv["money"].mean()),
                "mean_shares": float(rv["shares"].mean()),
            }
        )
    return pd.DataFrame(rows)


def game_length(game_rows: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (t interval, quantiles), and the share of games ended by two briefcases left and
    by the turn cap (Wilson)."""
    rows = []
    for variant, gv in game_rows.groupby("variant", sort=True):
        turns = gv["turns"].to_numpy(dtype=float)
        q = np.quantile(turns, [0.1, 0.5, 0.9])
        n = len(gv)
        rows.append(
            {
                "variant": variant,
                "games": n,
                **_row("turns", mean_t(turns, confidence)),
                "turns_q10": q[0],
                "turns_median": q[1],
                "turns_q90": q[2],
                **_row("end_cases", wilson(int((gv["end_trigger"] == "two_cases_left").sum()), n,
                                                    confidence)),
                **_row("end_cap", wilson(int((gv["end_trigger"] == "turn_cap").sum()), n, confidence)),
            }
        )
    return pd.DataFrame(rows)


def claims(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: claims per game made unseen, made after looking, and taken from another player (t intervals);
    the share of claims made unseen and the share of claims of a briefcase the claimer had looked under (bootstrap
    over games)."""
    cols = ["claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost"]
    rows = []
    for variant in variants(records):
        pg = _per_game(records, variant, cols)
        made = pg["claims_unseen"] + pg["claims_looked"]
        rows.append(
            {
                "variant": variant,
                **_row("unseen", mean_t(pg["claims_unseen"], confidence)),
                **_row("looked", mean_t(pg["claims_looked"], confidence)),
                **_row("taken", mean_t(pg["claims_taken"], confidence)),
                **_row("lost", mean_t(pg["claims_lost"], confidence)),
                "claims_made": int(made.sum()),
                **_row("unseen_share", ratio_of_sums(pg["claims_unseen"], made, rng, confidence=confidence)),
                **_row("known_share", ratio_of_sums(pg["claims_known"], made, rng, confidence=confidence)),
            }
        )
    return pd.DataFrame(rows)


def investing(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and investor knowledge (``looked``: the investor had looked under that briefcase; ``not looked``;
    ``own claim``): shares bought and divested per decision (bootstrap over games) and decisions per game (t).

    For ``own claim`` the denominator is the claimant's investing rounds (one decision each).
    """
    cols = ["bought_known", "bought_unknown", "divested_known", "divested_unknown", "decisions_known",
            "decisions_unknown", "bought_own", "divested_own", "claimant_rounds"]
    rows = []
    for variant in variants(records):
        pg = _per_game(records, variant, cols)
        for label, bought, divested, decisions in (
            ("looked", "bought_known", "divested_known", "decisions_known"),
            ("not looked", "bought_unknown", "divested_unknown", "decisions_unknown"),
            ("own claim", "bought_own", "divested_own", "claimant_rounds"),
        ):
            rows.append(
                {
                    "variant": variant,
                    "knowledge": label,
                    "decisions": int(pg[decisions].sum()),
                    **_row("decisions_per_game", mean_t(pg[decisions], confidence)),
                    **_row("bought", ratio_of_sums(pg[bought], pg[decisions], rng, confidence=confidence)),
                    **_row("divested", ratio_of_sums(pg[divested], pg[decisions], rng,
                                                              confidence=confidence)),
                    "shares_bought": int(pg[bought].sum()),
                    "shares_divested": int(pg[divested].sum()),
                }
            )
    return pd.DataFrame(rows)


def payoff_rows(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and payoff row: reveals per game (t) and the row's share of reveals; what a seat gained or lost per
    reveal of that row, for seats that had looked under the briefcase and seats that had not (bootstrap over games);
    and the reserve the claimant received per round of that row.

    ``gain_known`` is (payoff money + shares kept - shares held) summed over seats that had looked, divided by the
    number of such seat-reveals; ``gain_unknown`` likewise; the reserve is excluded from both.
    """
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant].sort_values(GAME_KEY + ["seat"], kind="stable")
        width = len(ROW_LABELS)
        game_ids = rv["game_index"].to_numpy()
        uniq, inverse = np.unique(game_ids, return_inverse=True)

        def per_game(col: str) -> np.ndarray:
            out = np.zeros((uniq.size, width))
            np.add.at(out, inverse, _stack(rv[col], width))
            return out

        gain_known = per_game("gain_known_per_row")
        gain_unknown = per_game("gain_unknown_per_row")
        known = per_game("reveals_known_per_row")
        reserve = per_game("reserve_per_row")
        first = rv.drop_duplicates("game_index")
        reveals = _stack(first["reveals_per_row"], width)
        seats = first["players"].to_numpy(dtype=float)[:, None]
        unknown = reveals * seats - known
        for r, label in enumerate(ROW_LABELS):
            rows.append(
                {
                    "variant": variant,
                    "row": r,
                    "label": label,
                    "reveals": int(reveals[:, r].sum()),
                    **_row("per_game", mean_t(reveals[:, r], confidence)),
                    **_row("share", ratio_of_sums(reveals[:, r], reveals.sum(axis=1), rng,
                                                           confidence=confidence)),
                    **_row("gain_known", ratio_of_sums(gain_known[:, r], known[:, r], rng,
                                                                confidence=confidence)),
                    **_row("gain_unknown", ratio_of_sums(gain_unknown[:, r], unknown[:, r], rng,
                                                                  confidence=confidence)),
                    **_row("reserve", ratio_of_sums(reserve[:, r], reveals[:, r], rng,
                                                             confidence=confidence)),
                    "seat_reveals_known": int(known[:, r].sum()),
                }
            )
    return pd.DataFrame(rows)


def table_events(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: Wild Goose Chase sends and Trust Me cards of each kind per game (t intervals), the share of
    challenges the challenger won and of Bamboozled rolls escaped (bootstrap over games)."""
    cols = ["wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "challenges_made",
            "challenges_won", "bamboozled_escaped"]
    rows = []
    for variant in variants(records):
        pg = _per_game(records, variant, cols)
        rows.append(
            {
                "variant": variant,
                **_row("wgc_sent", mean_t(pg["wgc_sent"], confidence)),
                **_row("wgc_received", mean_t(pg["wgc_received"], confidence)),
                **_row("cards_move", mean_t(pg["cards_move"], confidence)),
                **_row("cards_bamboozled", mean_t(pg["cards_bamboozled"], confidence)),
                **_row("cards_challenge", mean_t(pg["cards_challenge"], confidence)),
                **_row("challenges", mean_t(pg["challenges_made"], confidence)),
                "challenges_total": int(pg["challenges_made"].sum()),
                "bamboozled_total": int(pg["cards_bamboozled"].sum()),
                **_row("challenger_wins", ratio_of_sums(pg["challenges_won"], pg["challenges_made"], rng,
                                                                 confidence=confidence)),
                **_row("escaped", ratio_of_sums(pg["bamboozled_escaped"], pg["cards_bamboozled"], rng,
                                                         confidence=confidence)),
            }
        )
    return pd.DataFrame(rows)


# --- the investing round alone (trustme_1981_investment) -----------------------------------------------------------


#: A seat's role in the investing round: claimant or investor, and whether it had looked under the briefcase.
ROLES = ("claimant, looked", "claimant, not looked", "investor, looked", "investor, not looked")


def _role(records: pd.DataFrame) -> np.ndarray:
    who = np.where(records["claimant"].astype(bool), "claimant", "investor")
    seen = np.where(records["seen"].astype(bool), "looked", "not looked")
    return np.char.add(np.char.add(who.astype(str), ", "), seen.astype(str))


def investment_games(records: pd.DataFrame) -> pd.DataFrame:
    """One row per investing round with the per-game metrics of :data:`INVESTMENT_METRICS`."""
    r = records.assign(is_claimant=records["claimant"].astype(bool))
    claimant = r[r["is_claimant"]].set_index(GAME_KEY)
    investors = r[~r["is_claimant"]].groupby(GAME_KEY)
    out = claimant[["row", "wealth_change", "reserve_received", "win"]].rename(
        columns={"wealth_change": "claimant_change", "reserve_received": "reserve", "win": "claimant_wins"})
    out["claimant_wins"] = out["claimant_wins"].astype(float)
    out["investor_change"] = investors["wealth_change"].mean()
    out["investor_bought"] = investors["bought"].sum()
    return out.reset_index()


def investment_by_row(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant, payoff row and role (:data:`ROLES`: claimant or investor, who had or had not looked under the
    briefcase): seats, mean wealth change and mean payoff gain (t intervals over seats), and the claimant's reserve.

    Seats in one round are not independent; each round has at most one seat per role unless several investors share
    a role, so the t interval over seats is close to one over rounds.
    """
    rows = []
    r = records.assign(role=_role(records))
    for (variant, row, role), grp in r.groupby(["variant", "row", "role"], sort=True):
        rows.append(
            {
                "variant": variant,
                "row": int(row),
                "label": ROW_LABELS[int(row)],
                "role": role,
                "seats": len(grp),
                **_row("change", mean_t(grp["wealth_change"], confidence)),
                **_row("payoff", mean_t(grp["payoff_gain"], confidence)),
                "reserve_mean": float(grp["reserve_received"].mean()),
            }
        )
    return pd.DataFrame(rows)


def investment_by_knowledge(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and role (:data:`ROLES`): shares bought and divested per seat (t), the share of seats that bought
    any and that divested any (Wilson), and the mean wealth change (t)."""
    rows = []
    r = records.assign(role=_role(records))
    for (variant, role), grp in r.groupby(["variant", "role"], sort=True):
        n = len(grp)
        rows.append(
            {
                "variant": variant,
                "role": role,
                "seats": n,
                **_row("bought", mean_t(grp["bought"], confidence)),
                **_row("divested", mean_t(grp["divested"], confidence)),
                **_row("buy_rate", wilson(int((grp["bought"] > 0).sum()), n, confidence)),
                **_row("divest_rate", wilson(int((grp["divested"] > 0).sum()), n, confidence)),
                **_row("change", mean_t(grp["wealth_change"], confidence)),
            }
        )
    return pd.DataFrame(rows)


#: The record columns each table of :func:`compute` and :func:`compute_investment` reads (one variant at a time).
GAMES_COLUMNS = (*GAME_KEY, "seat", "players", "turns", "end_trigger", "top_shared", "margin", "winner", "wealth",
                 "money", "claims_unseen", "claims_looked", "claims_taken", "claimant_rounds", "reserve_received",
                 "wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "challenges_made",
                 "challenges_won")
WEALTH_COLUMNS = (*GAME_KEY, "win", "money", "wealth", "shares")
CLAIM_COLUMNS = (*GAME_KEY, "claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost")
INVESTING_COLUMNS = (*GAME_KEY, "bought_known", "bought_unknown", "divested_known", "divested_unknown",
                     "decisions_known", "decisions_unknown", "bought_own", "divested_own", "claimant_rounds")
PAYOFF_COLUMNS = (*GAME_KEY, "seat", "players", "gain_known_per_row", "gain_unknown_per_row", "reveals_known_per_row",
                  "reserve_per_row", "reveals_per_row")
EVENT_COLUMNS = (*GAME_KEY, "wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge",
                 "challenges_made", "challenges_won", "bamboozled_escaped")
ROUND_COLUMNS = (*GAME_KEY, "claimant", "row", "wealth_change", "reserve_received", "win", "bought")
ROUND_ROW_COLUMNS = ("variant", "row", "claimant", "seen", "wealth_change", "payoff_gain", "reserve_received")
ROUND_ROLE_COLUMNS = ("variant", "claimant", "seen", "bought", "divested", "wealth_change")


def compute(b: Builder) -> None:
    """Add the ``trustme_1981`` tables to a results set being computed (the board game's ``statistics`` part).

    Tables, in the order of the report's pages: ``board1981_games`` (per game; what the variants are compared on),
    ``wealth_summary``, ``wealth_trace``, ``game_length``, ``claims``, ``investing``, ``payoff_rows`` and
    ``table_events``.
    """
    # Each table reads one variant's columns at a time (Builder.per_variant), never every record at once.
    order = [b.baseline] + [v for v in b.variant_ids if v != b.baseline]
    game_rows = b.add("board1981_games", b.per_variant(lambda r: games(r, b.games), GAMES_COLUMNS),
                      "One row per Trust Me (1981) game",
                      "The per-game measures the variants are compared on (seat advantage, wealth, margin, turns, the "
                      "turn cap, claims, investing, lead changes).")
    b.set_comparisons(game_rows, COMPARISON_METRICS)
    b.add("wealth_summary", b.per_variant(lambda r: wealth_summary(r, game_rows, b.rng), WEALTH_COLUMNS),
          "Final wealth: money and shares",
          "Wealth = money + shares ($1 a share). Per variant: mean final wealth per seat, its spread, the richest "
          "seat's wealth, the winner's margin, and the share of wealth held as money.",
          "t 95% over games for means, bootstrap 95% over games for shares", {"wealth": "dollars"})
    b.add("wealth_trace", b.per_variant(lambda r: trace_bands(r, order, ("richest", "other seats"),
                                                              horizon_from_winners=False, with_counts=False),
                                        ("variant", "win", "score_trace"), order), "Wealth over the game",
          "Mean wealth (money + shares) after each turn of the richest seat(s) at the end and of the others, up to "
          "the turn half of the games reached.", "t 95% over seats", {"mean": "dollars", "turn": "turn"})
    b.add("game_length", game_length(game_rows), "Game length and how games end",
          "Turns per game with quantiles; share of games ended by the rules (two briefcases left) or by the turn cap.",
          "t 95% for means, Wilson 95% for shares of games", {"turns": "turns"})
    b.add("claims", b.per_variant(lambda r: claims(r, b.rng), CLAIM_COLUMNS), "Claims",
          "Per variant: claims made per game, how many were on briefcases the claimant had looked under, and how "
          "many were won or lost.", "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("investing", b.per_variant(lambda r: investing(r, b.rng), INVESTING_COLUMNS),
          "Investing in other players' claims",
          "Per variant: shares bought and divested in other players' investing rounds, split by whether the seat had "
          "looked under the briefcase.", "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("payoff_rows", b.per_variant(lambda r: payoff_rows(r, b.rng), PAYOFF_COLUMNS), "Payoff rows",
          "Per variant and payoff row: reveals per game and the wealth change it brought, by whether the seat had "
          "looked under the briefcase; the claimant's reserve.",
          "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("table_events", b.per_variant(lambda r: table_events(r, b.rng), EVENT_COLUMNS), "Table events",
          "Per variant: looks, Hot Tips, Wild Goose Chases, Trust Me cards by kind, Bamboozled escapes and challenges "
          "per game.", "t 95% for per-game means, bootstrap 95% over games for shares")


def compute_investment(b: Builder) -> None:
    """Add the ``trustme_1981_investment`` tables (the investing round's ``statistics`` part): ``investment_rounds``
    (per round; what the variants are compared on), ``investment_by_row`` and ``investment_by_knowledge``."""
    rounds = b.add("investment_rounds", b.per_variant(investment_games, ROUND_COLUMNS), "One row per investing round",
                   "The per-round measures the variants are compared on (buying, divesting, the claimant's gain).")
    b.set_comparisons(rounds, INVESTMENT_METRICS)
    b.add("investment_by_row", b.per_variant(investment_by_row, ROUND_ROW_COLUMNS),
          "Wealth change by payoff row and role",
          "Mean wealth change of a seat over the round (payoffs and, for the claimant, the reserve), by the payoff "
          "row revealed and the seat's role (claimant or investor, looked or not).", "t 95% over seats",
          {"change": "dollars", "payoff": "dollars"})
    b.add("investment_by_knowledge", b.per_variant(investment_by_knowledge, ROUND_ROLE_COLUMNS),
          "Shares bought and divested by role",
          "Per seat and role: shares bought and divested, the share of seats that bought or divested, and the wealth "
          "change.", "t 95% over seats for means, Wilson 95% for shares of seats", {"bought": "shares per seat"})
