"""Statistics of ``trustme_liar`` sweeps: the first player's advantage (apart from a seat's), ranks and points by
mode, Trust Me points by source, game length and end, plays and claim sizes, the bluff rate by claim size,
challenges and their success, burns, pickups, and going out.

Every function takes the records DataFrame (columns from :mod:`trustme_analysis.games.liar.analysis.records` plus the sweep's
``variant`` and ``game_index``) and returns a tidy table per variant with 95% intervals: t intervals for per-game
(or per-seat) means, Wilson for per-game yes/no, and a bootstrap over whole games for shares pooled over games (e.g.
false cards among all cards played). Definitions: ``docs/guide/statistics_liar.rst``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from trustme_analysis.results import Builder
from trustme_analysis.stats.compare import GameMetric
from trustme_analysis.stats.intervals import CONFIDENCE, Interval, mean_t, ratio_of_sums, wilson
from trustme_analysis.games.liar.engine.scoring import SOURCES

GAME_KEY = ["variant", "game_index"]
ENDS = ("out", "setup", "turn_cap")

#: Per-game metrics compared with the baseline (columns of :func:`games`).
COMPARISON_METRICS = (
    GameMetric("first player's advantage (win rate - 1/players)", "first_player_advantage", "mean",
               "share of games"),
    GameMetric("first place shared", "top_shared", "rate", "share of games"),
    GameMetric("turns per game", "turns", "mean", "turns"),
    GameMetric("ended by the turn cap", "end_by_cap", "rate", "share of games"),
    GameMetric("false cards among cards played", "bluff_share", "mean", "share (per game)"),
    GameMetric("challenges per play", "challenge_rate", "mean", "share (per game)"),
    GameMetric("challenges that caught a liar", "call_success", "mean", "share (per game)"),
    GameMetric("pickups per game", "pickups", "mean", "pickups"),
    GameMetric("burns per game", "burns", "mean", "burns"),
    GameMetric("lead changes", "lead_changes", "mean", "changes per game"),
)


def _row(prefix: str, iv: Interval) -> dict[str, float]:
    return {prefix: iv.estimate, f"{prefix}_low": iv.low, f"{prefix}_high": iv.high}


def variants(records: pd.DataFrame) -> list[str]:
    """Variant ids present in the records, sorted."""
    return sorted(records["variant"].unique())


def _ratio(num: pd.Series, den: pd.Series) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den.where(den > 0, 1), np.nan)


def games(records: pd.DataFrame, game_table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per game with the per-game metrics of :data:`COMPARISON_METRICS`.

    Args:
        records: ``trustme_liar`` sweep records.
        game_table: :func:`trustme_analysis.stats.balance.games_table` of the same records; its trace metrics
            (``lead_changes``, ...) are joined in when given.
    """
    r = records.sort_values(GAME_KEY + ["seat"], kind="stable")
    out = r.groupby(GAME_KEY, sort=True).agg(
        players=("players", "first"),
        mode=("mode", "first"),
        turns=("turns", "first"),
        end_trigger=("end_trigger", "first"),
        top_shared=("top_shared", "first"),
        winner=("winner", "first"),
        first_player=("first_player", "first"),
        plays=("plays", "sum"),
        cards_played=("cards_played", "sum"),
        false_cards=("false_cards_played", "sum"),
        calls=("calls", "sum"),
        calls_won=("calls_won", "sum"),
        burns=("burns", "sum"),
        pickups=("pickups", "sum"),
        last_cards_plays=("last_cards_plays", "sum"),
        last_cards_caught=("last_cards_caught", "sum"),
    ).reset_index()
    # The player who started the first round (a seat drawn at random, or a fixed one: see first_player).
    out["first_player_advantage"] = (out["winner"] == out["first_player"]).astype(float) - 1.0 / out["players"]
    out["top_shared"] = out["top_shared"].astype(float)
    out["end_by_cap"] = (out["end_trigger"] == "turn_cap").astype(float)
    out["bluff_share"] = _ratio(out["false_cards"], out["cards_played"])
    out["challenge_rate"] = _ratio(out["calls"], out["plays"])
    out["call_success"] = _ratio(out["calls_won"], out["calls"])
    if game_table is not None and "lead_changes" in game_table.columns:
        extra = game_table.set_index(GAME_KEY)[["lead_changes", "lead_change_rate", "drama", "decisiveness"]]
        out = out.join(extra, on=GAME_KEY)
    return out


TURN_ORDER_NAMES = {0: "the first player", 1: "the player after the first player"}


def _turn_order_name(k: int) -> str:
    return TURN_ORDER_NAMES.get(k, f"the player {k} seats after the first player")


def starter(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and turn order from the first player (0 = the first player, who starts the first round; 1 = the
    next seat in turn; ...): games, the share of games that place wins (best rank, ties counted; in Trust Me games the
    ranks are by points) and its advantage over the fair share ``1/players`` (Wilson), the share with the most Trust
    Me points (Wilson), the mean rank and points (t), and ``sentence``: the finding in words.

    The seat-balance tables answer the same question per seat number; with ``first_player="random"`` seat numbers
    carry no advantage and this table holds the whole effect of playing first.
    """
    rows = []
    for (variant, order), grp in records.groupby(["variant", "turn_order"], sort=True):
        n = len(grp)
        players = int(grp["players"].iloc[0])
        fair = 1.0 / players
        win = wilson(int(grp["win"].astype(bool).sum()), n, confidence)
        mode = str(grp["mode"].iloc[0])
        who = _turn_order_name(int(order))
        what = "has the most points in" if mode == "trustme" else "wins"
        sentence = (f"{who[0].upper()}{who[1:]} {what} {100 * win.estimate:.0f}% of games "
                    f"[{100 * win.low:.0f}%, {100 * win.high:.0f}%] against a fair {100 * fair:.0f}%: "
                    f"{100 * (win.estimate - fair):+.0f} points (ties counted for each player).")
        rows.append({
            "variant": variant,
            "turn_order": int(order),
            "mode": mode,
            "players": players,
            "games": n,
            "fair": fair,
            **_row("win", win),
            "advantage": win.estimate - fair,
            "advantage_low": win.low - fair,
            "advantage_high": win.high - fair,
            **_row("points_win", wilson(int(grp["points_win"].astype(bool).sum()), n, confidence)),
            **_row("rank", mean_t(grp["rank"], confidence)),
            **_row("points", mean_t(grp["points"], confidence)),
            "sentence": sentence,
        })
    return pd.DataFrame(rows)


def ranks_points(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and seat: the mode, mean Classique rank (t over games), share of games the seat went out
    (Wilson), mean Trust Me points (t) and the share of games with the most points (Wilson, ties counted)."""
    rows = []
    for (variant, seat), grp in records.groupby(["variant", "seat"], sort=True):
        n = len(grp)
        rows.append(
            {
                "variant": variant,
                "seat": int(seat),
                "mode": str(grp["mode"].iloc[0]),
                "games": n,
                **_row("rank", mean_t(grp["rank"], confidence)),
                **_row("went_out", wilson(int(grp["went_out"].astype(bool).sum()), n, confidence)),
                **_row("points", mean_t(grp["points"], confidence)),
                **_row("points_win", wilson(int(grp["points_win"].astype(bool).sum()), n, confidence)),
            }
        )
    return pd.DataFrame(rows)


def points_by_source(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per Trust Me variant and point source: mean points per seat from that source, for all seats and for the seats
    with the most points (t intervals over seats), and the source's share of all points scored.

    Classique variants are left out: their points are not part of the result.
    """
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        if str(rv["mode"].iloc[0]) != "trustme":
            continue
        top = rv[rv["points_win"].astype(bool)]
        total = float(rv["points"].sum())
        for source in SOURCES:
            col = f"points_{source}"
            rows.append(
                {
                    "variant": variant,
                    "source": source,
                    **_row("all", mean_t(rv[col], confidence)),
                    **_row("top", mean_t(top[col], confidence)),
                    "share_of_points": float(rv[col].sum()) / total if total else math.nan,
                }
            )
    return pd.DataFrame(rows)


def game_length(game_rows: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (t interval, quantiles) and the share of games that ended by a player going out,
    at the set-up (a hand emptied by the pair discards) and at the turn cap (Wilson)."""
    rows = []
    for variant, gv in game_rows.groupby("variant", sort=True):
        turns = gv["turns"].to_numpy(dtype=float)
        q = np.quantile(turns, [0.1, 0.5, 0.9])
        n = len(gv)
        row = {"variant": variant, "mode": str(gv["mode"].iloc[0]), "games": n, **_row("turns", mean_t(turns,
                                                                                                       confidence)),
               "turns_q10": q[0], "turns_median": q[1], "turns_q90": q[2]}
        for end in ENDS:
            row.update(_row(f"end_{end}", wilson(int((gv["end_trigger"] == end).sum()), n, confidence)))
        rows.append(row)
    return pd.DataFrame(rows)


def claim_sizes(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and claim size (cards in one play): plays per game (t), the size's share of all plays, the bluff
    rate (false cards among the cards played at that size) and the share of plays holding a false card (bootstrap
    over games)."""
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        width = int(rv["max_play"].iloc[0])
        game_ids = rv["game_index"].to_numpy()
        uniq, inverse = np.unique(game_ids, return_inverse=True)

        def per_game(col: str) -> np.ndarray:
            out = np.zeros((uniq.size, width))
            np.add.at(out, inverse, np.vstack([np.asarray(v, dtype=float) for v in rv[col]]))
            return out

        plays = per_game("plays_by_size")
        bluffs = per_game("bluffs_by_size")
        false = per_game("false_cards_by_size")
        all_plays = plays.sum(axis=1)
        for k in range(width):
            size = k + 1
            rows.append(
                {
                    "variant": variant,
                    "size": size,
                    "plays": int(plays[:, k].sum()),
                    "cards": int(plays[:, k].sum()) * size,
                    **_row("per_game", mean_t(plays[:, k], confidence)),
                    **_row("share", ratio_of_sums(plays[:, k], all_plays, rng, confidence=confidence)),
                    **_row("bluff_rate", ratio_of_sums(false[:, k], plays[:, k] * size, rng, confidence=confidence)),
                    **_row("bluff_plays", ratio_of_sums(bluffs[:, k], plays[:, k], rng, confidence=confidence)),
                }
            )
    return pd.DataFrame(rows)


def challenges(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: plays, challenges, burns and pickups per game (t); the challenge rate (challenges per play), its
    success (challenges that caught a false card), the share of bluffing and of honest plays that were challenged,
    cards per burn and per pickup; going out: of the plays of a seat's last cards, the share caught and the share
    that held (bootstrap over games); and the share of games stopped by the turn cap (Wilson)."""
    cols = ["plays", "calls", "calls_won", "challenged", "challenged_bluffs", "burns", "burned_cards", "pickups",
            "picked_up_cards", "last_cards_plays", "last_cards_caught", "last_cards_held", "passes"]
    rows = []
    for variant in variants(records):
        rv = records[records["variant"] == variant]
        pg = rv.groupby("game_index")[cols].sum()
        pg["bluff_plays"] = rv.groupby("game_index")["bluffs_by_size"].apply(
            lambda s: float(np.sum(np.vstack([np.asarray(v) for v in s]))))
        honest_plays = pg["plays"] - pg["bluff_plays"]
        honest_challenged = pg["challenged"] - pg["challenged_bluffs"]
        ends = rv.groupby("game_index")["end_trigger"].first()

        def ratio(num: pd.Series, den: pd.Series) -> Interval:
            return ratio_of_sums(num, den, rng, confidence=confidence)

        rows.append(
            {
                "variant": variant,
                "mode": str(rv["mode"].iloc[0]),
                **_row("plays", mean_t(pg["plays"], confidence)),
                **_row("passes", mean_t(pg["passes"], confidence)),
                **_row("calls", mean_t(pg["calls"], confidence)),
                "calls_total": int(pg["calls"].sum()),
                **_row("challenge_rate", ratio(pg["calls"], pg["plays"])),
                **_row("success", ratio(pg["calls_won"], pg["calls"])),
                **_row("bluffs_challenged", ratio(pg["challenged_bluffs"], pg["bluff_plays"])),
                **_row("honest_challenged", ratio(honest_challenged, honest_plays)),
                **_row("burns", mean_t(pg["burns"], confidence)),
                **_row("cards_per_burn", ratio(pg["burned_cards"], pg["burns"])),
                **_row("pickups", mean_t(pg["pickups"], confidence)),
                **_row("cards_per_pickup", ratio(pg["picked_up_cards"], pg["pickups"])),
                "last_cards_plays": int(pg["last_cards_plays"].sum()),
                **_row("last_caught", ratio(pg["last_cards_caught"], pg["last_cards_plays"])),
                **_row("last_held", ratio(pg["last_cards_held"], pg["last_cards_plays"])),
                **_row("cap_end", wilson(int((ends == "turn_cap").sum()), len(ends), confidence)),
            }
        )
    return pd.DataFrame(rows)


#: The record columns each table of :func:`compute` reads (one variant at a time).
GAMES_COLUMNS = (*GAME_KEY, "seat", "players", "mode", "turns", "end_trigger", "top_shared", "winner",
                 "first_player", "plays", "cards_played", "false_cards_played", "calls", "calls_won", "burns",
                 "pickups", "last_cards_plays", "last_cards_caught")
STARTER_COLUMNS = ("variant", "turn_order", "players", "mode", "win", "points_win", "rank", "points")
RANK_COLUMNS = ("variant", "seat", "mode", "rank", "went_out", "points", "points_win")
SOURCE_COLUMNS = ("variant", "mode", "points_win", "points", *(f"points_{source}" for source in SOURCES))
CLAIM_COLUMNS = (*GAME_KEY, "max_play", "plays_by_size", "bluffs_by_size", "false_cards_by_size")
CHALLENGE_COLUMNS = (*GAME_KEY, "mode", "end_trigger", "bluffs_by_size", "plays", "calls", "calls_won", "challenged",
                     "challenged_bluffs", "burns", "burned_cards", "pickups", "picked_up_cards", "last_cards_plays",
                     "last_cards_caught", "last_cards_held", "passes")


def compute(b: Builder) -> None:
    """Add the Liar tables to a results set being computed (the game's registry ``statistics`` part).

    Tables, in the order of the report's pages: ``liar_games`` (per game; what the variants are compared on),
    ``starter``, ``ranks_points``, ``points_by_source``, ``game_length``, ``claim_sizes`` and ``challenges``.
    """
    # Each table reads one variant's columns at a time (Builder.per_variant), never every record at once.
    game_rows = b.add("liar_games", b.per_variant(lambda r: games(r, b.games), GAMES_COLUMNS), "One row per Liar game",
                      "The per-game measures the variants are compared on (the first player's advantage, shared first "
                      "place, turns, the turn cap, false cards, challenges, pickups, burns, lead changes).")
    b.set_comparisons(game_rows, COMPARISON_METRICS)
    b.add("starter", b.per_variant(starter, STARTER_COLUMNS), "The first player's advantage",
          "Per variant and turn order from the first player (0 = the player who starts the first round, 1 = the next "
          "in turn, ...): the share of games that place wins (best rank, ties counted; by points in Trust Me games), "
          "its advantage over the fair share 1/players, the share with the most Trust Me points, the mean rank and "
          "points, and the finding as a sentence. Apart from a seat's advantage (seat balance): with first_player "
          "= random every seat starts equally often.",
          "Wilson 95% for shares of games, t 95% over games for means", {"rank": "rank", "points": "points"})
    b.add("ranks_points", b.per_variant(ranks_points, RANK_COLUMNS), "Ranks and points per seat",
          "Per variant and seat: the mode, the mean Classique rank, the share of games the seat went out, the mean "
          "Trust Me points and the share of games with the most points (ties counted).",
          "t 95% over games for means, Wilson 95% for shares of games", {"rank": "rank", "points": "points"})
    b.add("points_by_source", b.per_variant(points_by_source, SOURCE_COLUMNS), "Trust Me points by source",
          "Per Trust Me variant and point source: mean points per seat from that source (all seats and the seats "
          "with the most points) and the source's share of all points; Classique variants are left out.",
          "t 95% over seats", {"points": "points per seat"})
    b.add("game_length", game_length(game_rows), "Game length and how games end",
          "Turns per game with quantiles; share of games ended by a player going out, at the set-up, and by the turn "
          "cap.", "t 95% for means, Wilson 95% for shares of games", {"turns": "turns"})
    b.add("claim_sizes", b.per_variant(lambda r: claim_sizes(r, b.rng), CLAIM_COLUMNS), "Plays by claim size",
          "Per variant and claim size (cards in one play): plays per game, the size's share of all plays, the bluff "
          "rate (false cards among the cards played at that size) and the share of plays holding a false card.",
          "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("challenges", b.per_variant(lambda r: challenges(r, b.rng), CHALLENGE_COLUMNS),
          "Challenges, burns, pickups and going out",
          "Per variant: plays, challenges, burns and pickups per game; challenge rate and success; the share of "
          "bluffing and honest plays challenged; cards per burn and pickup; plays of a seat's last cards caught or "
          "held; games stopped by the turn cap.",
          "t 95% for per-game means, bootstrap 95% over games for shares, Wilson 95% for shares of games")
