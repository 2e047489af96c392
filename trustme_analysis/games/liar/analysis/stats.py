"""Statistics of ``trustme_liar`` sweeps: the first player's advantage (apart from a seat's), ranks and points by
mode, Trust Me points by source, game length and end, plays and claim sizes, the bluff rate by claim size,
challenges and their success, burns, pickups, and going out.

Every function takes the records DataFrame (columns from :mod:`trustme_analysis.games.liar.analysis.records` plus the sweep's
``variant`` and ``game_index``) and returns a tidy table per variant with 95% intervals: t intervals for per-game
(or per-seat) means, Wilson for per-game yes/no, and a bootstrap over whole games for shares pooled over games (e.g.
false cards among all cards played). Definitions: ``docs/guide/statistics_liar.rst``.

Each table is made by an accumulator fed a variant's records a piece at a time (a chunk's games; the functions below
feed it a variant's records in one piece): integer counts, the moments of the means and the units of the bootstraps
(:mod:`trustme_analysis.stats.streaming`), merged exactly, so :func:`compute` holds no array of every game or record
of a variant, and its tables are those of all records at once (bit for bit up to 10,000 games a variant).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from trustme_analysis.results import Builder
from trustme_analysis.stats.compare import GameMetric
from trustme_analysis.stats import streaming
from trustme_analysis.stats.intervals import CONFIDENCE, Interval, ratio_of_sums, wilson
from trustme_analysis.stats.streaming import (
    Accumulated,
    BlockSums,
    GameRows,
    GameSums,
    Groups,
    Moments,
    Tally,
    accumulate_records,
    mean_interval,
)
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


def _starter_rows(variant: str, acc: Groups, confidence: float) -> list[dict]:
    rows = []
    for (order,), g in acc.items():
        order = int(order)
        players = int(acc.first["players"])
        fair = 1.0 / players
        win = wilson(g.counts["win"], g.n, confidence)
        mode = str(acc.first["mode"])
        who = _turn_order_name(order)
        what = "has the most points in" if mode == "trustme" else "wins"
        sentence = (f"{who[0].upper()}{who[1:]} {what} {100 * win.estimate:.0f}% of games "
                    f"[{100 * win.low:.0f}%, {100 * win.high:.0f}%] against a fair {100 * fair:.0f}%: "
                    f"{100 * (win.estimate - fair):+.0f} points (ties counted for each player).")
        rows.append({
            "variant": variant,
            "turn_order": order,
            "mode": mode,
            "players": players,
            "games": g.n,
            "fair": fair,
            **_row("win", win),
            "advantage": win.estimate - fair,
            "advantage_low": win.low - fair,
            "advantage_high": win.high - fair,
            **_row("points_win", wilson(g.counts["points_win"], g.n, confidence)),
            **_row("rank", mean_interval(g.moments["rank"], confidence)),
            **_row("points", mean_interval(g.moments["points"], confidence)),
            "sentence": sentence,
        })
    return rows


def _starter(variant: str, confidence: float = CONFIDENCE) -> Accumulated:
    groups = Groups(["turn_order"], flags=("win", "points_win"), means=("rank", "points"))
    return Accumulated(groups, lambda g: _starter_rows(variant, g, confidence))


def starter(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and turn order from the first player (0 = the first player, who starts the first round; 1 = the
    next seat in turn; ...): games, the share of games that place wins (best rank, ties counted; in Trust Me games the
    ranks are by points) and its advantage over the fair share ``1/players`` (Wilson), the share with the most Trust
    Me points (Wilson), the mean rank and points (t), and ``sentence``: the finding in words.

    The seat-balance tables answer the same question per seat number; with ``first_player="random"`` seat numbers
    carry no advantage and this table holds the whole effect of playing first.
    """
    return accumulate_records(records, lambda v, n: _starter(v, confidence))


def _rank_rows(variant: str, acc: Groups, confidence: float) -> list[dict]:
    return [
        {
            "variant": variant,
            "seat": int(seat),
            "mode": str(acc.first["mode"]),
            "games": g.n,
            **_row("rank", mean_interval(g.moments["rank"], confidence)),
            **_row("went_out", wilson(g.counts["went_out"], g.n, confidence)),
            **_row("points", mean_interval(g.moments["points"], confidence)),
            **_row("points_win", wilson(g.counts["points_win"], g.n, confidence)),
        }
        for (seat,), g in acc.items()
    ]


def _ranks(variant: str, confidence: float = CONFIDENCE) -> Accumulated:
    groups = Groups(["seat"], flags=("went_out", "points_win"), means=("rank", "points"))
    return Accumulated(groups, lambda g: _rank_rows(variant, g, confidence))


def ranks_points(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and seat: the mode, mean Classique rank (t over games), share of games the seat went out
    (Wilson), mean Trust Me points (t) and the share of games with the most points (Wilson, ties counted)."""
    return accumulate_records(records, lambda v, n: _ranks(v, confidence))


class _Sources:
    """:func:`points_by_source` of one variant accumulated a chunk at a time: per source the moments of a seat's
    points (all seats, and the seats with the most points) and the integer totals. A mean over seats keeps up to
    :data:`~trustme_analysis.stats.streaming.EXACT_UNITS` values per seat (those of as many games), so the figures
    are the whole arrays' while the games are."""

    def __init__(self, variant: str, confidence: float = CONFIDENCE):
        self.variant, self.confidence = variant, confidence
        self.mode: str | None = None

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        if self.mode is None:
            self.mode = str(chunk["mode"].iloc[0])
            bound = streaming.EXACT_UNITS * int(chunk["players"].iloc[0])
            self.all = {s: Moments(bound) for s in SOURCES}
            self.top = {s: Moments(bound) for s in SOURCES}
            self.totals = dict.fromkeys(SOURCES, 0)
            self.points = 0
        if self.mode != "trustme":  # Classique points are not part of the result: nothing to add up
            return
        top = chunk[chunk["points_win"].astype(bool)]
        for s in SOURCES:
            col = f"points_{s}"
            self.all[s].add(chunk[col].to_numpy(dtype=float))
            self.top[s].add(top[col].to_numpy(dtype=float))
            self.totals[s] += int(chunk[col].sum())
        self.points += int(chunk["points"].sum())

    def rows(self) -> pd.DataFrame:
        if self.mode != "trustme":
            return pd.DataFrame()
        total = float(self.points)
        return pd.DataFrame([
            {
                "variant": self.variant,
                "source": s,
                **_row("all", mean_interval(self.all[s], self.confidence)),
                **_row("top", mean_interval(self.top[s], self.confidence)),
                "share_of_points": float(self.totals[s]) / total if total else math.nan,
            }
            for s in SOURCES
        ])


def points_by_source(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per Trust Me variant and point source: mean points per seat from that source, for all seats and for the seats
    with the most points (t intervals over seats), and the source's share of all points scored.

    Classique variants are left out: their points are not part of the result.
    """
    return accumulate_records(records, lambda v, n: _Sources(v, confidence))


def game_length(game_rows: pd.DataFrame | GameRows, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (t interval, quantiles) and the share of games that ended by a player going out,
    at the set-up (a hand emptied by the pair discards) and at the turn cap (Wilson).

    One pass over each variant's games (:func:`games` rows), a piece at a time: counts, the moments of the turns and
    a tally of them (whole numbers, so the quantiles are those of all games)."""
    source = game_rows if isinstance(game_rows, GameRows) else GameRows.from_frame(game_rows)
    rows = []
    for variant in source.variant_ids:
        n, mode, ends = 0, "", dict.fromkeys(ENDS, 0)
        turns, seen = Moments(), Tally()
        for gv in source.pieces(variant, ["mode", "turns", "end_trigger"]):
            if not n and len(gv):
                mode = str(gv["mode"].iloc[0])
            n += len(gv)
            turns.add(gv["turns"].to_numpy(dtype=float))
            seen.add(gv["turns"].to_numpy(dtype=float))
            for end in ENDS:
                ends[end] += int((gv["end_trigger"] == end).sum())
        if not n:
            continue
        q = seen.quantile([0.1, 0.5, 0.9])
        row = {"variant": variant, "mode": mode, "games": n, **_row("turns", mean_interval(turns, confidence)),
               "turns_q10": q[0], "turns_median": q[1], "turns_q90": q[2]}
        for end in ENDS:
            row.update(_row(f"end_{end}", wilson(ends[end], n, confidence)))
        rows.append(row)
    return pd.DataFrame(rows)


def _per_game_lists(rv: pd.DataFrame, columns: Sequence[str], width: int) -> list[np.ndarray]:
    """Per game (in game order) the sums over its seats of list columns of ``width`` values (per claim size): one
    ``games x width`` array per column (integer counts, exact as floats)."""
    _, inverse = np.unique(rv["game_index"].to_numpy(), return_inverse=True)
    games = int(inverse.max()) + 1 if inverse.size else 0
    out = []
    for col in columns:
        cells = rv[col].to_numpy()
        stacked = np.concatenate(cells).astype(float).reshape(len(cells), width) if len(cells) else np.zeros((0, width))
        summed = np.zeros((games, width))
        np.add.at(summed, inverse, stacked)
        out.append(summed)
    return out


_SIZE_LISTS = ("plays_by_size", "bluffs_by_size", "false_cards_by_size")


class _Claims:
    """:func:`claim_sizes` of one variant (``games`` games) accumulated a chunk at a time: the moments of plays per
    game at each size and, per game, plays, bluffing plays and false cards at each size as the units of the
    bootstraps (:class:`~trustme_analysis.stats.streaming.BlockSums`): bounded memory."""

    def __init__(self, variant: str, games: int, rng: np.random.Generator, confidence: float = CONFIDENCE):
        self.variant, self.n, self.rng, self.confidence = variant, games, rng, confidence
        self.width = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        if not self.width:
            self.width = int(chunk["max_play"].iloc[0])
            self.units = BlockSums(self.n, len(_SIZE_LISTS) * self.width)
            self.per_game = [Moments() for _ in range(self.width)]
        plays, bluffs, false = _per_game_lists(chunk, _SIZE_LISTS, self.width)
        self.units.add(np.hstack([plays, bluffs, false]))
        for k, m in enumerate(self.per_game):
            m.add(plays[:, k])

    def rows(self) -> pd.DataFrame:
        if not self.width:
            return pd.DataFrame()
        w, units = self.width, self.units.units
        plays, bluffs, false = units[:, :w], units[:, w:2 * w], units[:, 2 * w:]
        # Sums of whole numbers: a game's (or a block's) plays of all sizes are exact either way.
        all_plays = plays.sum(axis=1)
        rows = []
        for k in range(w):
            size = k + 1
            total = int(self.per_game[k].total)
            rows.append(
                {
                    "variant": self.variant,
                    "size": size,
                    "plays": total,
                    "cards": total * size,
                    **_row("per_game", mean_interval(self.per_game[k], self.confidence)),
                    **_row("share", self._ratio(plays[:, k], all_plays)),
                    **_row("bluff_rate", self._ratio(false[:, k], plays[:, k] * size)),
                    **_row("bluff_plays", self._ratio(bluffs[:, k], plays[:, k])),
                }
            )
        return pd.DataFrame(rows)

    def _ratio(self, num: np.ndarray, den: np.ndarray) -> Interval:
        return ratio_of_sums(num, den, self.rng, confidence=self.confidence)


def claim_sizes(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and claim size (cards in one play): plays per game (t), the size's share of all plays, the bluff
    rate (false cards among the cards played at that size) and the share of plays holding a false card (bootstrap
    over games)."""
    return accumulate_records(records, lambda v, n: _Claims(v, n, rng, confidence))


#: Per-game sums of the challenges table (over the seats), then the bluffing plays (from ``bluffs_by_size``).
_CHALLENGE_SUMS = ("plays", "calls", "calls_won", "challenged", "challenged_bluffs", "burns", "burned_cards", "pickups",
                   "picked_up_cards", "last_cards_plays", "last_cards_caught", "last_cards_held", "passes")
_CHALLENGE_UNITS = (*_CHALLENGE_SUMS, "bluff_plays")


class _Challenges:
    """:func:`challenges` of one variant (``games`` games) accumulated a chunk at a time: per-game sums
    (:class:`~trustme_analysis.stats.streaming.GameSums`: moments, totals, bootstrap units) and the games the turn cap
    stopped: bounded memory."""

    def __init__(self, variant: str, games: int, rng: np.random.Generator, confidence: float = CONFIDENCE):
        self.variant, self.rng, self.confidence = variant, rng, confidence
        self.sums = GameSums(games, _CHALLENGE_UNITS)
        self.mode: str | None = None
        self.capped = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        if self.mode is None:
            self.mode = str(chunk["mode"].iloc[0])
        by_game = chunk.groupby("game_index")
        pg = by_game[list(_CHALLENGE_SUMS)].sum()
        width = int(len(chunk["bluffs_by_size"].iloc[0]))
        pg["bluff_plays"] = _per_game_lists(chunk, ["bluffs_by_size"], width)[0].sum(axis=1)
        self.sums.add(pg)
        self.capped += int((by_game["end_trigger"].first() == "turn_cap").sum())

    def rows(self) -> pd.DataFrame:
        if self.mode is None:
            return pd.DataFrame()
        u = self.sums.unit

        def ratio(num: np.ndarray, den: np.ndarray) -> Interval:
            return ratio_of_sums(num, den, self.rng, confidence=self.confidence)

        def mean(column: str) -> Interval:  # counts per game: never below 0
            return mean_interval(self.sums.moments[column], self.confidence, floor=0.0)

        # Differences of whole numbers: a game's (or a block's) honest plays are exact either way.
        honest_plays = u("plays") - u("bluff_plays")
        honest_challenged = u("challenged") - u("challenged_bluffs")
        return pd.DataFrame([
            {
                "variant": self.variant,
                "mode": self.mode,
                **_row("plays", mean("plays")),
                **_row("passes", mean("passes")),
                **_row("calls", mean("calls")),
                "calls_total": self.sums.total("calls"),
                **_row("challenge_rate", ratio(u("calls"), u("plays"))),
                **_row("success", ratio(u("calls_won"), u("calls"))),
                **_row("bluffs_challenged", ratio(u("challenged_bluffs"), u("bluff_plays"))),
                **_row("honest_challenged", ratio(honest_challenged, honest_plays)),
                **_row("burns", mean("burns")),
                **_row("cards_per_burn", ratio(u("burned_cards"), u("burns"))),
                **_row("pickups", mean("pickups")),
                **_row("cards_per_pickup", ratio(u("picked_up_cards"), u("pickups"))),
                "last_cards_plays": self.sums.total("last_cards_plays"),
                **_row("last_caught", ratio(u("last_cards_caught"), u("last_cards_plays"))),
                **_row("last_held", ratio(u("last_cards_held"), u("last_cards_plays"))),
                **_row("cap_end", wilson(self.capped, self.sums.games, self.confidence)),
            }
        ])


def challenges(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: plays, challenges, burns and pickups per game (t); the challenge rate (challenges per play), its
    success (challenges that caught a false card), the share of bluffing and of honest plays that were challenged,
    cards per burn and per pickup; going out: of the plays of a seat's last cards, the share caught and the share
    that held (bootstrap over games); and the share of games stopped by the turn cap (Wilson)."""
    return accumulate_records(records, lambda v, n: _Challenges(v, n, rng, confidence))


#: The record columns each table of :func:`compute` reads (one chunk at a time).
GAMES_COLUMNS = (*GAME_KEY, "seat", "players", "mode", "turns", "end_trigger", "top_shared", "winner",
                 "first_player", "plays", "cards_played", "false_cards_played", "calls", "calls_won", "burns",
                 "pickups", "last_cards_plays", "last_cards_caught")
STARTER_COLUMNS = ("variant", "turn_order", "players", "mode", "win", "points_win", "rank", "points")
RANK_COLUMNS = ("variant", "seat", "mode", "rank", "went_out", "points", "points_win")
SOURCE_COLUMNS = ("variant", "mode", "players", "points_win", "points", *(f"points_{source}" for source in SOURCES))
CLAIM_COLUMNS = (*GAME_KEY, "max_play", "plays_by_size", "bluffs_by_size", "false_cards_by_size")
CHALLENGE_COLUMNS = (*GAME_KEY, "mode", "end_trigger", "bluffs_by_size", "plays", "calls", "calls_won", "challenged",
                     "challenged_bluffs", "burns", "burned_cards", "pickups", "picked_up_cards", "last_cards_plays",
                     "last_cards_caught", "last_cards_held", "passes")


def compute(b: Builder) -> None:
    """Add the Liar tables to a results set being computed (the game's registry ``statistics`` part).

    Tables, in the order of the report's pages: ``liar_games`` (per game; what the variants are compared on),
    ``starter``, ``ranks_points``, ``points_by_source``, ``game_length``, ``claim_sizes`` and ``challenges``.

    Every table is computed in passes over one variant's chunks at a time: a chunk gives counts, moments and the
    bootstraps' units, merged exactly (the accumulators above), so memory holds one chunk's records plus a bounded
    number of figures per variant; the per-game table goes to disk as it is made (:meth:`Builder.add_pieces`), and
    the comparisons and the game length read it back a piece at a time.
    """

    def game_pieces():
        for vid in b.variant_ids:
            for chunk in b.chunks(vid, GAMES_COLUMNS):
                if len(chunk):
                    yield games(chunk, b.games_of(vid, chunk["game_index"].to_numpy()))

    table = b.add_pieces("liar_games", game_pieces(), "One row per Liar game",
                         "The per-game measures the variants are compared on (the first player's advantage, shared "
                         "first place, turns, the turn cap, false cards, challenges, pickups, burns, lead changes).")
    b.set_comparisons(table, COMPARISON_METRICS)
    # The seat tables draw no bootstrap: one pass over the chunks feeds all three.
    seats = b.accumulate_tables({"starter": lambda v, n: _starter(v), "ranks_points": lambda v, n: _ranks(v),
                                 "points_by_source": lambda v, n: _Sources(v)},
                                tuple(dict.fromkeys((*STARTER_COLUMNS, *RANK_COLUMNS, *SOURCE_COLUMNS))))
    b.add("starter", seats["starter"], "The first player's advantage",
          "Per variant and turn order from the first player (0 = the player who starts the first round, 1 = the next "
          "in turn, ...): the share of games that place wins (best rank, ties counted; by points in Trust Me games), "
          "its advantage over the fair share 1/players, the share with the most Trust Me points, the mean rank and "
          "points, and the finding as a sentence. Apart from a seat's advantage (seat balance): with first_player "
          "= random every seat starts equally often.",
          "Wilson 95% for shares of games, t 95% over games for means", {"rank": "rank", "points": "points"})
    b.add("ranks_points", seats["ranks_points"], "Ranks and points per seat",
          "Per variant and seat: the mode, the mean Classique rank, the share of games the seat went out, the mean "
          "Trust Me points and the share of games with the most points (ties counted).",
          "t 95% over games for means, Wilson 95% for shares of games", {"rank": "rank", "points": "points"})
    b.add("points_by_source", seats["points_by_source"], "Trust Me points by source",
          "Per Trust Me variant and point source: mean points per seat from that source (all seats and the seats "
          "with the most points) and the source's share of all points; Classique variants are left out.",
          "t 95% over seats", {"points": "points per seat"})
    b.add("game_length", game_length(b.comparison_rows), "Game length and how games end",
          "Turns per game with quantiles; share of games ended by a player going out, at the set-up, and by the turn "
          "cap.", "t 95% for means, Wilson 95% for shares of games", {"turns": "turns"})
    # The bootstrapped tables each take their own pass, so their draws come table by table, variant by variant.
    b.add("claim_sizes", b.accumulate_variants(lambda v, n: _Claims(v, n, b.rng), CLAIM_COLUMNS),
          "Plays by claim size",
          "Per variant and claim size (cards in one play): plays per game, the size's share of all plays, the bluff "
          "rate (false cards among the cards played at that size) and the share of plays holding a false card.",
          "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("challenges", b.accumulate_variants(lambda v, n: _Challenges(v, n, b.rng), CHALLENGE_COLUMNS),
          "Challenges, burns, pickups and going out",
          "Per variant: plays, challenges, burns and pickups per game; challenge rate and success; the share of "
          "bluffing and honest plays challenged; cards per burn and pickup; plays of a seat's last cards caught or "
          "held; games stopped by the turn cap.",
          "t 95% for per-game means, bootstrap 95% over games for shares, Wilson 95% for shares of games")
