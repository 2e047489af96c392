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
from trustme_analysis.stats.intervals import CONFIDENCE, ratio_of_sums, wilson
from trustme_analysis.stats.streaming import BlockSums, GameRows, Moments, mean_interval
from trustme_analysis.stats.traces import trace_part, trace_rows
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
    if not len(series):
        return np.zeros((0, 0))
    cells = series.to_numpy()
    width = len(cells[0])
    if all(len(c) == width for c in cells):
        return np.concatenate(cells).astype(float, copy=False).reshape(len(cells), width)
    return np.vstack([np.asarray(v, dtype=float) for v in cells])  # (vstack names the rows that differ)


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
    parts = [_score_rows(v, [_score_part(records[records["variant"] == v])], game_rows, confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _score_part(records: pd.DataFrame) -> np.ndarray:
    # Seat scores in record order (integer points: kept in their own, compact, type; read as floats below).
    return records["score"].to_numpy()


def _score_rows(variant: str, parts: list[np.ndarray], game_rows: pd.DataFrame | GameRows,
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    seats = np.concatenate(parts).astype(float) if parts else np.zeros(0)
    # The moments of the columns read here, one pass over the variant's games (a piece at a time from disk).
    rows = game_rows if isinstance(game_rows, GameRows) else GameRows.from_frame(game_rows)
    m = rows.moments(variant, ["mean_score", "winner_score", "margin", "lead_changes"]) if variant in rows else {}
    mean = mean_interval(m.get("mean_score", Moments()), confidence)
    win = mean_interval(m.get("winner_score", Moments()), confidence)
    margin = mean_interval(m.get("margin", Moments()), confidence)
    q = np.quantile(seats, [0.1, 0.25, 0.5, 0.75, 0.9]) if seats.size else [math.nan] * 5
    row = {
        "variant": variant,
        "games": rows.rows_of(variant) if variant in rows else 0,
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
    if "lead_changes" in m:
        lc = mean_interval(m["lead_changes"], confidence, floor=0.0)
        row.update(lead_changes_mean=lc.estimate, lead_changes_low=lc.low, lead_changes_high=lc.high)
    return pd.DataFrame([row])


def chart_shares(
    records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant and group (all seats, winners): the share of points from Ticket face value and from the set bonus.

    Shares are pooled over games (all points of the group) with a bootstrap interval over games.
    """
    parts = [_shares_rows(v, [_shares_part(records[records["variant"] == v])], rng, confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


_SHARE_SUMS = ["score", "score_set_bonus", "score_ticket_face"]


def _shares_part(rv: pd.DataFrame) -> dict:
    out = {}
    for group, sel in (("all seats", rv), ("winners", rv[rv["win"].astype(bool)])):
        # Per-game sums (integer points) and the seat rows' totals: a group's mean over seats is total / seats.
        out[group] = (sel.groupby("game_index")[_SHARE_SUMS].sum(), len(sel),
                      int(sel["score_set_bonus"].sum()), int(sel["score_ticket_face"].sum()))
    return out


class _Shares:
    """:func:`chart_shares` of one variant accumulated a chunk at a time: per group, the per-game sums as the units
    its bootstrap resamples (:class:`~trustme_analysis.stats.streaming.BlockSums`: bounded memory) and the totals.
    ``games``: the variant's games per group (every game counts for ``all seats``; games with a winning seat for
    ``winners``)."""

    def __init__(self, variant: str, games: dict[str, int], rng: np.random.Generator, confidence: float):
        self.variant, self.rng, self.confidence = variant, rng, confidence
        self.units = {g: BlockSums(games[g], 2) for g in ("all seats", "winners")}
        self.totals = {g: [0, 0, 0] for g in ("all seats", "winners")}

    def add(self, chunk: pd.DataFrame) -> None:
        self.add_part(_shares_part(chunk))

    def add_part(self, part: dict) -> None:
        for group, (per_game, seats, bonus, face) in part.items():
            self.units[group].add(per_game[["score_set_bonus", "score"]].to_numpy(dtype=float))
            t = self.totals[group]
            t[0], t[1], t[2] = t[0] + seats, t[1] + bonus, t[2] + face

    def rows(self) -> pd.DataFrame:
        rows = []
        for group in ("all seats", "winners"):
            units = self.units[group].units
            seats, bonus_total, face_total = self.totals[group]
            bonus = ratio_of_sums(units[:, 0], units[:, 1], self.rng, confidence=self.confidence)
            rows.append(
                {
                    "variant": self.variant,
                    "group": group,
                    "set_bonus_share": bonus.estimate,
                    "set_bonus_low": bonus.low,
                    "set_bonus_high": bonus.high,
                    # The face share is the complement, so its interval is the mirrored bonus interval.
                    "ticket_face_share": 1.0 - bonus.estimate,
                    "ticket_face_low": 1.0 - bonus.high,
                    "ticket_face_high": 1.0 - bonus.low,
                    # Integer totals over the seat rows, divided once: the mean pandas gives over all of them.
                    "mean_set_bonus": bonus_total / seats if seats else math.nan,
                    "mean_ticket_face": face_total / seats if seats else math.nan,
                }
            )
        return pd.DataFrame(rows)


def _shares_rows(variant: str, parts: list[dict], rng: np.random.Generator,
                 confidence: float = CONFIDENCE) -> pd.DataFrame:
    games = {g: sum(len(p[g][0]) for p in parts) for g in ("all seats", "winners")}
    acc = _Shares(variant, games, rng, confidence)
    for part in parts:
        acc.add_part(part)
    return acc.rows()


def _games_with_winners(rv: pd.DataFrame) -> int:
    return int(rv.loc[rv["win"].astype(bool), "game_index"].nunique())


def different_values(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and k: the share of seats ending with exactly k different Ticket values, their number
    (``seats``) and their win rate.

    Also the marginal value of the chart step to k (``step_points`` = chart[k] - chart[k-1]) and the share of seats
    that reached at least k values, so ``step_points x reached`` is what that step added to an average seat.
    Seats of one game are counted as separate trials (Wilson intervals), which slightly understates the width.
    """
    parts = [_values_rows(v, [_values_part(records[records["variant"] == v])], confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _values_part(rv: pd.DataFrame) -> tuple[str, np.ndarray, np.ndarray]:
    # Seats per number of values held, and of them the winners: integer tallies.
    k_held = rv["different_values"].to_numpy(dtype=int)
    won = rv["win"].to_numpy(dtype=bool)
    size = int(k_held.max()) + 1 if k_held.size else 0
    chart = str(rv["chart"].iloc[0]) if len(rv) else ""
    return chart, np.bincount(k_held, minlength=size), np.bincount(k_held[won], minlength=size)


def _values_rows(variant: str, parts: list[tuple[str, np.ndarray, np.ndarray]],
                 confidence: float = CONFIDENCE) -> pd.DataFrame:
    parts = [p for p in parts if p[0]]
    if not parts:
        return pd.DataFrame()
    # The records write the chart as "/"-joined text; the engine's own parser reads it back.
    chart = int_list(SHORT_NAME, {"chart": parts[0][0]}, "chart")
    size = max(len(chart) + 1, *(p[1].size for p in parts))
    held = np.zeros(size, dtype=np.int64)
    held_won = np.zeros(size, dtype=np.int64)
    for _, h, w in parts:
        held[: h.size] += h
        held_won[: w.size] += w
    n = int(held.sum())
    rows = []
    for k in range(0, len(chart) + 1):
        exactly = int(held[k])
        share = wilson(exactly, n, confidence)
        reached = wilson(int(held[k:].sum()), n, confidence)
        win = wilson(int(held_won[k]), exactly, confidence)
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
                "seats": exactly,
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
    parts = [_tickets_rows(v, [_tickets_part(records[records["variant"] == v])], rng, confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _tickets_part(rv: pd.DataFrame) -> dict:
    # Per game (in game order): Tickets per value, and those the winner held; the first seat row's stack facts;
    # the route totals per value. Counts are small integers, kept as float32 (exact) to halve the memory.
    rv = rv.sort_values(GAME_KEY + ["seat"], kind="stable")
    held = _stack(rv["tickets_per_value"])
    game_id = rv["game_index"].to_numpy()
    won = rv["win"].to_numpy(dtype=bool)
    # Rows are in game order: each game's rows are consecutive, summed from its first row (integer counts: exact).
    starts = np.flatnonzero(np.r_[True, game_id[1:] != game_id[:-1]]) if game_id.size else np.zeros(0, dtype=int)
    values = held.shape[1] if held.ndim == 2 else 0
    if starts.size and values:
        per_game = np.add.reduceat(held, starts, axis=0)
        per_game_winner = np.add.reduceat(np.where(won[:, None], held, 0.0), starts, axis=0)
    else:
        per_game = per_game_winner = np.zeros((starts.size, values))
    first = rv.drop_duplicates("game_index")
    return {
        "per_game": per_game.astype(np.float32),
        "per_game_winner": per_game_winner.astype(np.float32),
        "held": held.sum(axis=0),
        "tale": _stack(rv["tickets_tale_per_value"]).sum(axis=0),
        "rep": _stack(rv["tickets_reputation_per_value"]).sum(axis=0),
        "free": _stack(rv["tickets_free_per_value"]).sum(axis=0),
        "empty_turn": _stack(first["stack_empty_turn"]).astype(np.float32),
        "ended_stacks": (first["end_trigger"] == "stacks").to_numpy(),
        "end_value": first["end_stack_value"].to_numpy(dtype=int),
    }


class _Tickets:
    """:func:`ticket_values` of one variant (``games`` games) accumulated a chunk at a time: moments of Tickets per
    game, their block sums for the winner's share (:class:`~trustme_analysis.stats.streaming.BlockSums`), route
    totals, and tallies of the turns the stacks ran out and of the value that ended the game: bounded memory."""

    def __init__(self, variant: str, games: int, rng: np.random.Generator, confidence: float):
        self.variant, self.n, self.rng, self.confidence = variant, games, rng, confidence
        self.values: int | None = None
        self.games = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if len(chunk):
            self.add_part(_tickets_part(chunk))

    def add_part(self, p: dict) -> None:
        if not p["per_game"].size:
            return
        per_game = p["per_game"].astype(float)
        if self.values is None:
            self.values = v = per_game.shape[1]
            self.units = BlockSums(self.n, 2 * v)  # the winner's Tickets, then all Tickets, per value
            self.taken = [Moments() for _ in range(v)]
            self.held = self.tale = self.rep = self.free = 0.0
            self.empty = [{} for _ in range(v)]  # value -> {turn the stack ran out: games}
            self.stack_out = np.zeros(v, dtype=np.int64)
            self.ended, self.end_value = 0, {}
        self.units.add(np.hstack([p["per_game_winner"].astype(float), per_game]))
        for v in range(self.values):
            self.taken[v].add(per_game[:, v])
        # Integer counts stored as floats: their sums are exact, in any order.
        self.held, self.tale = self.held + p["held"], self.tale + p["tale"]
        self.rep, self.free = self.rep + p["rep"], self.free + p["free"]
        empty = p["empty_turn"].astype(float)
        for v in range(self.values):
            turns = empty[:, v][~np.isnan(empty[:, v])]
            self.stack_out[v] += turns.size
            for turn, count in zip(*np.unique(turns, return_counts=True)):
                self.empty[v][float(turn)] = self.empty[v].get(float(turn), 0) + int(count)
        ended = p["ended_stacks"]
        self.ended += int(ended.sum())
        for value, count in zip(*np.unique(p["end_value"][ended], return_counts=True)):
            self.end_value[int(value)] = self.end_value.get(int(value), 0) + int(count)
        self.games += per_game.shape[0]

    def rows(self) -> pd.DataFrame:
        if self.values is None:
            return pd.DataFrame()
        units, values, confidence = self.units.units, self.values, self.confidence
        rows = []
        for v in range(values):
            taken = mean_interval(self.taken[v], confidence, floor=0.0)
            by_winner = ratio_of_sums(units[:, v], units[:, values + v], self.rng, confidence=confidence)
            total = self.held[v]
            stack_out = wilson(int(self.stack_out[v]), self.games, confidence)
            trig = wilson(self.end_value.get(v + 1, 0), self.ended, confidence)
            rows.append(
                {
                    "variant": self.variant,
                    "value": v + 1,
                    "per_game": taken.estimate,
                    "per_game_low": taken.low,
                    "per_game_high": taken.high,
                    "winner_share": by_winner.estimate,
                    "winner_share_low": by_winner.low,
                    "winner_share_high": by_winner.high,
                    "tickets": int(total),
                    "tale_share": self.tale[v] / total if total else math.nan,
                    "reputation_share": self.rep[v] / total if total else math.nan,
                    "free_share": self.free[v] / total if total else math.nan,
                    "stack_out": stack_out.estimate,
                    "stack_out_low": stack_out.low,
                    "stack_out_high": stack_out.high,
                    "stack_out_turn_median": _median(self.empty[v]) if self.stack_out[v] else math.nan,
                    "end_trigger_share": trig.estimate,
                    "end_trigger_low": trig.low,
                    "end_trigger_high": trig.high,
                }
            )
        return pd.DataFrame(rows)


def _median(tally: dict[float, int]) -> float:
    """The median of the values a tally counts (``np.median`` of them: the middle one, or the mean of the two)."""
    keys = sorted(tally)
    ends = np.cumsum([tally[k] for k in keys])
    n = int(ends[-1])
    low = keys[int(np.searchsorted(ends, (n - 1) // 2, side="right"))]
    high = keys[int(np.searchsorted(ends, n // 2, side="right"))]
    return float(low) if low == high else float(np.mean([low, high]))


def _tickets_rows(variant: str, parts: list[dict], rng: np.random.Generator,
                  confidence: float = CONFIDENCE) -> pd.DataFrame:
    acc = _Tickets(variant, sum(p["per_game"].shape[0] for p in parts if p["per_game"].size), rng, confidence)
    for part in parts:
        acc.add_part(part)
    return acc.rows()


def tall_tale_tickets(
    records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant: of the trusted tall tales, the share whose Ticket fell to a lower value, and with no Ticket at all.

    Pooled over games, bootstrap interval over games.
    """
    parts = [_tall_rows(v, [_per_game_sums(records[records["variant"] == v], _TALL_SUMS)], rng, confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


_TALL_SUMS = ["row_tall_trusted", "tall_ticket_lower", "tall_ticket_none"]


def _per_game_sums(rv: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Per game (sorted by game_index) the sums of integer ``columns`` over its seats: what a chunk keeps for a
    table pooled over games (a game's rows are all in one chunk, so the chunks' pieces join into the variant's)."""
    out = rv.groupby("game_index")[columns].sum()
    # Small counts: int32 holds them exactly at half the memory (every use reads them as floats or sums them).
    if len(out) and all(out[c].dtype.kind == "i" for c in columns) and int(out.to_numpy().max(initial=0)) < 2**31:
        out = out.astype(np.int32)
    return out


class _GameSums:
    """Per-game sums of integer ``columns`` of one variant (``games`` games) accumulated a chunk at a time: their
    moments (means per game) and their block sums (:class:`~trustme_analysis.stats.streaming.BlockSums`, the units
    of a ratio's bootstrap): bounded memory. ``finish(variant, acc, rng, confidence)`` makes the rows."""

    def __init__(self, variant: str, games: int, columns: list[str], finish, rng: np.random.Generator,
                 confidence: float):
        self.variant, self.columns, self.finish, self.rng, self.confidence = variant, columns, finish, rng, confidence
        self.sums = BlockSums(games, len(columns))
        self.moments = {c: Moments() for c in columns}
        self.games = 0

    def add(self, chunk: pd.DataFrame) -> None:
        self.add_part(_per_game_sums(chunk, self.columns))

    def add_part(self, per_game: pd.DataFrame) -> None:
        values = per_game[self.columns].to_numpy(dtype=float)
        self.sums.add(values)
        for i, c in enumerate(self.columns):
            self.moments[c].add(values[:, i])
        self.games += len(per_game)

    def unit(self, column: str) -> np.ndarray:
        return self.sums.units[:, self.columns.index(column)]

    def total(self, column: str) -> int:
        return int(self.moments[column].total)

    def rows(self) -> pd.DataFrame:
        return self.finish(self.variant, self, self.rng, self.confidence)


def _sums_of(variant: str, parts: list[pd.DataFrame], columns: list[str], finish, rng: np.random.Generator,
             confidence: float) -> pd.DataFrame:
    acc = _GameSums(variant, sum(len(p) for p in parts), columns, finish, rng, confidence)
    for part in parts:
        acc.add_part(part)
    return acc.rows()


def _tall_rows(variant: str, parts: list[pd.DataFrame], rng: np.random.Generator,
               confidence: float = CONFIDENCE) -> pd.DataFrame:
    return _sums_of(variant, parts, _TALL_SUMS, _tall_finish, rng, confidence)


def _tall_finish(variant: str, acc: _GameSums, rng: np.random.Generator, confidence: float) -> pd.DataFrame:
    lower = ratio_of_sums(acc.unit("tall_ticket_lower"), acc.unit("row_tall_trusted"), rng, confidence=confidence)
    none = ratio_of_sums(acc.unit("tall_ticket_none"), acc.unit("row_tall_trusted"), rng, confidence=confidence)
    return pd.DataFrame([
        {
            "variant": variant,
            "tall_trusted": acc.total("row_tall_trusted"),
            "lower_share": lower.estimate,
            "lower_low": lower.low,
            "lower_high": lower.high,
            "none_share": none.estimate,
            "none_low": none.low,
            "none_high": none.high,
        }
    ])


def game_length(game_rows: pd.DataFrame | GameRows, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (mean with t interval, quantiles), how games ended and how many reached the night
    (Wilson intervals), and bonus turns and Coin tosses per game (t intervals).

    One pass over each variant's games, a piece at a time: counts, the moments of the means
    (:mod:`trustme_analysis.stats.streaming`) and a tally of the turns (whole numbers, so the quantiles are those of
    all games)."""
    rows = []
    source = game_rows if isinstance(game_rows, GameRows) else GameRows.from_frame(game_rows)
    for variant in source.variant_ids:
        n, deck_n, stacks_n = 0, 0, 0
        turns_seen: dict[float, int] = {}
        m = {c: Moments() for c in ("turns", "reached_night", "bonus_turns", "coin_tosses")}
        for gv in source.pieces(variant, ["turns", "end_trigger", "reached_night", "bonus_turns", "coin_tosses"]):
            n += len(gv)
            deck_n += int((gv["end_trigger"] == "deck").sum())
            stacks_n += int((gv["end_trigger"] == "stacks").sum())
            turns = gv["turns"].to_numpy(dtype=float)
            for value, count in zip(*np.unique(turns, return_counts=True)):
                turns_seen[float(value)] = turns_seen.get(float(value), 0) + int(count)
            for c, acc in m.items():
                acc.add(gv[c].to_numpy(dtype=float))
        if not n:
            continue
        mean = mean_interval(m["turns"], confidence)
        deck = wilson(deck_n, n, confidence)
        stacks = wilson(stacks_n, n, confidence)
        # The quantiles depend only on the multiset of values: one variant's sorted turns, rebuilt from the tally.
        values = sorted(turns_seen, key=lambda v: (math.isnan(v), v))
        q = np.quantile(np.repeat(np.array(values), [turns_seen[v] for v in values]), [0.1, 0.5, 0.9])
        night = wilson(int(m["reached_night"].sum), m["reached_night"].n, confidence)
        bonus = mean_interval(m["bonus_turns"], confidence, floor=0.0)
        coin = mean_interval(m["coin_tosses"], confidence, floor=0.0)
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
    parts = [_tale_rows(v, [_per_game_sums(records[records["variant"] == v], _TALE_SUMS)], rng, confidence)
             for v in variants(records)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


_TALE_SUMS = [f"row_{r}" for r in TALE_ROWS] + ["tales_told", "tales_tall", "tales_true", "votes_cast",
                                                 "votes_correct", "tall_ticket_none"]


def _tale_rows(variant: str, parts: list[pd.DataFrame], rng: np.random.Generator,
               confidence: float = CONFIDENCE) -> pd.DataFrame:
    return _sums_of(variant, parts, _TALE_SUMS, _tale_finish, rng, confidence)


def _tale_finish(variant: str, acc: _GameSums, rng: np.random.Generator, confidence: float) -> pd.DataFrame:
    n_games = acc.games
    rows = []

    def add(row: str, num: str, den: str) -> None:
        share = ratio_of_sums(acc.unit(num), acc.unit(den), rng, confidence=confidence)
        per = mean_interval(acc.moments[num], confidence, floor=0.0)
        rows.append(
            {
                "variant": variant,
                "row": row,
                "count": acc.total(num),
                "out_of": acc.total(den),
                "share": share.estimate,
                "low": share.low,
                "high": share.high,
                "per_game": per.estimate if n_games else math.nan,
            }
        )

    for r in TALE_ROWS:
        add(r, f"row_{r}", "tales_told")
    add("tall", "tales_tall", "tales_told")
    add("trusted|true", "row_true_trusted", "tales_true")
    add("trusted|tall", "row_tall_trusted", "tales_tall")
    add("votes_correct", "votes_correct", "votes_cast")
    add("no_ticket|tall_trusted", "tall_ticket_none", "row_tall_trusted")
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


def _chart_rows(variant: str, parts: list) -> pd.DataFrame:
    charts = [c for c in parts if c is not None]
    return pd.DataFrame({"variant": [variant], "chart": [charts[0]]}) if charts else pd.DataFrame()


def compute(b: Builder) -> None:
    """Add the Pinocchio tables to a results set being computed (the game's registry ``statistics`` part).

    Tables, in the order of the report's pages: ``pinocchio_games`` (per game; also what the variants are compared
    on), ``score_summary``, ``score_trace``, ``charts``, ``chart_shares``, ``different_values``, ``ticket_values``,
    ``tall_tale_tickets``, ``game_length`` and ``tale_table``.

    Every table is computed in passes over one variant's chunks at a time (:meth:`Builder.fold_variants`): a chunk
    gives integer tallies and per-game sums (compact arrays), merged exactly, so memory holds one chunk's records
    plus a few numbers per game of one variant; the per-game table goes to disk as it is made, and the comparisons,
    the score summary and the game length read it back a piece at a time (counts and moments, merged exactly).
    """
    order = [b.baseline] + [v for v in b.variant_ids if v != b.baseline]

    def game_pieces():
        for vid in b.variant_ids:
            for chunk in b.chunks(vid, GAMES_COLUMNS):
                if not len(chunk):
                    continue
                yield games(chunk, b.games_of(vid, chunk["game_index"].to_numpy()))

    table = b.add_pieces("pinocchio_games", game_pieces(), "One row per Pinocchio game",
                         "The per-game measures the variants are compared on (seat advantages, scores, set-bonus "
                         "share, tall tales, lead changes, end trigger).")
    # Read a piece at a time (from disk when streaming): the comparisons, the score summary and the game length
    # take counts and moments from it, so no per-game column stays in memory.
    b.set_comparisons(table, COMPARISON_METRICS)
    game_rows = b.comparison_rows
    b.add("score_summary", b.fold_variants(_score_part, lambda v, parts: _score_rows(v, parts, game_rows),
                                           ("variant", "score")), "Final scores",
          "Per variant: mean score per seat (the mean of each game's seat mean), spread and quantiles of seat scores, "
          "the winner's score, the winner's margin over the best other seat, lead changes per game.",
          "t 95% over games", {"score_mean": "points", "winner_score_mean": "points", "margin_mean": "points",
                               "lead_changes_mean": "changes per game"})
    b.add("score_trace", b.fold_variants(trace_part, trace_rows, ("variant", "win", "score_trace"), order),
          "Score over the game",
          "Mean score after each turn (bonus turns count as turns) of the winner and of the other seats, up to the "
          "turn half of the winners' games reached; seats = traces still running at that turn.",
          "t 95% over seats", {"mean": "points", "turn": "turn"})
    charts = b.fold_variants(lambda r: str(r["chart"].iloc[0]) if len(r) else None, _chart_rows, ("variant", "chart"))
    b.add("charts", charts, "Scoring chart of each variant",
          "The chart as the game parameter writes it: the set bonus for 1, 2, ... different Ticket values held.")
    # The winners' group counts the games with a winning seat: its bootstrap's units, known before the pass.
    winners = b.fold_variants(_games_with_winners, lambda v, parts: pd.DataFrame({"variant": [v], "n": [sum(parts)]}),
                              ("variant", "game_index", "win"))
    with_winner = dict(zip(winners["variant"], winners["n"])) if len(winners) else {}
    shares = b.accumulate_variants(
        lambda v, n: _Shares(v, {"all seats": n, "winners": int(with_winner.get(v, 0))}, b.rng, CONFIDENCE),
        SHARE_COLUMNS)
    b.add("chart_shares", shares, "Points from the set bonus",
          "Of all points scored (all seats, or winners only), the share from the set bonus and from Ticket face "
          "value, pooled over games.", "bootstrap 95% over games", {"set_bonus_share": "share of points"})
    b.add("different_values", b.fold_variants(_values_part, _values_rows,
                                              ("variant", "chart", "different_values", "win")),
          "Different Ticket values held at the end",
          "Per variant and k: share of seats ending with exactly k different values, the share reaching at least k, "
          "the chart's step to k, and the win rate of seats ending with exactly k.", "Wilson 95%",
          {"share": "share of seats", "reached": "share of seats", "win_rate": "share of seats"})
    b.add("ticket_values", b.accumulate_variants(lambda v, n: _Tickets(v, n, b.rng, CONFIDENCE), TICKET_COLUMNS),
          "Ticket values",
          "Per variant and Ticket value: Tickets taken per game, the share held by the winner, by which route they "
          "were gained, how often and when the stack ran out, and which stack emptied last when the stacks ended the "
          "game.", "t 95% for per-game means, bootstrap 95% over games for shares, Wilson 95% for shares of games",
          {"per_game": "Tickets per game"})
    b.add("tall_tale_tickets",
          b.accumulate_variants(lambda v, n: _GameSums(v, n, _TALL_SUMS, _tall_finish, b.rng, CONFIDENCE),
                                TALL_COLUMNS),
          "Tall tales' Tickets",
          "Of the trusted tall tales: the share whose Ticket was of a lower value than the card difference (no Ticket "
          "counts as lower), and the share with no Ticket left.", "bootstrap 95% over games",
          {"lower_share": "share of trusted tall tales", "none_share": "share of trusted tall tales"})
    b.add("game_length", game_length(game_rows), "Game length and what ends the game",
          "Turns per game (bonus turns included) with quantiles; share of games ended by the deck's run-out or by the "
          "emptied stacks; share reaching the night; bonus turns and Coin tosses per game.",
          "t 95% for means, Wilson 95% for shares of games", {"turns_mean": "turns"})
    b.add("tale_table",
          b.accumulate_variants(lambda v, n: _GameSums(v, n, _TALE_SUMS, _tale_finish, b.rng, CONFIDENCE),
                                TALE_COLUMNS),
          "Tales per row of the tale table",
          "Per variant and row (true/tall x trusted/not): share of all tales and tales per game; also the bluff rate "
          "(tall), trust given the truth, the share of votes that were right, and (no_ticket|tall_trusted) the "
          "trusted tall tales that gained no Ticket because none of the difference's value or lower was left (share "
          "of trusted tall tales; per game).", "bootstrap 95% over games",
          {"share": "share of tales", "per_game": "tales per game"})
