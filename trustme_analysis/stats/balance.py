"""Seat balance and the balance metrics designers know from Ludii, computed from any game's sweep records.

The functions here are game-agnostic. They read these record columns (one row per game and seat):

- ``variant``, ``game_index``, ``seat``, ``win`` (bool: this seat won, after tie-breaks) — required;
- ``turns`` (turns played), ``completed`` (the game reached a rule ending), ``top_shared`` (the best final score was
  shared before tie-breaks), ``score_trace`` (this seat's score after each turn) — used where present.

Metric definitions (adapted from Browne's and Ludii's evaluation metrics; exact formulas in the statistics guide):

- **Balance** = 1 - (largest seat win rate - smallest seat win rate); 1 is perfectly balanced.
- **AdvantageP1** = win rate of the first seat (seat 0).
- **Completion** = share of games that reached an ending of the rules (not cut off).
- **Drawishness** = share of games whose best final score was shared (decided only by a tie-break).
- **Duration** = mean number of turns.
- **LeadChange** = per game, the number of changes of the sole leader divided by (turns - 1); mean over games.
- **Drama** = per game, the winner's largest deficit behind the leader, as a share of the winner's final score;
  mean over games.
- **Decisiveness** = per game, the share of turns from the moment the winner became sole leader for good to the end;
  mean over games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from scipy.optimize import brentq

from trustme_analysis.stats.intervals import CONFIDENCE, blocks, bootstrap, holm, wilson
from trustme_analysis.stats.streaming import Moments, mean_interval

GAME_KEY = ["variant", "game_index"]

#: Ludii metric names in the order the report shows them.
LUDII_METRICS = (
    "Balance",
    "AdvantageP1",
    "Completion",
    "Drawishness",
    "Duration",
    "LeadChange",
    "Drama",
    "Decisiveness",
)


def _require(records: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in records.columns]
    if missing:
        raise ValueError(f"records lack column(s) {missing}; present: {sorted(records.columns)}")


# --- score-trace metrics of one game -------------------------------------------------------------------------------


def sole_leaders(trace: np.ndarray) -> np.ndarray:
    """The sole leader after each turn of a ``(seats, turns)`` score trace, -1 where the best score is shared."""
    trace = np.asarray(trace)
    if trace.size == 0:
        return np.zeros(0, dtype=int)
    best = trace.max(axis=0)
    at_best = trace == best
    leader = np.argmax(trace, axis=0)
    return np.where(at_best.sum(axis=0) == 1, leader, -1)


def lead_changes(trace: np.ndarray) -> int:
    """How often the sole leader changes; shared-lead spells are skipped (A, tie, B counts once; A, tie, A none)."""
    leaders = sole_leaders(trace)
    leaders = leaders[leaders >= 0]
    return int((leaders[1:] != leaders[:-1]).sum())


def lead_change_rate(trace: np.ndarray) -> float:
    """LeadChange of one game: lead changes divided by (turns - 1); 0 for a game of one turn."""
    turns = np.asarray(trace).shape[1] if np.asarray(trace).ndim == 2 else 0
    return lead_changes(trace) / (turns - 1) if turns > 1 else 0.0


def drama(trace: np.ndarray, winner: int) -> float:
    """Drama of one game: the winner's largest deficit behind the best score, over the winner's final score.

    0 when the winner never trailed; scores that only grow make the value at most 1. NaN if the winner's final score
    is 0 (no scale to measure a deficit against).
    """
    trace = np.asarray(trace, dtype=float)
    if trace.size == 0:
        return math.nan
    final = trace[winner, -1]
    deficit = float((trace.max(axis=0) - trace[winner]).max())
    if deficit == 0.0:
        return 0.0
    return deficit / final if final > 0 else math.nan


def decisiveness(trace: np.ndarray, winner: int) -> float:
    """Decisiveness of one game: the share of turns during which the winner's sole lead was already final.

    With T turns and t* the first (0-based) turn from which the winner is sole leader at every later turn, the value
    is (T - t*) / T; 0 when the winner is not sole leader at the end (a tie-break decided the game).
    """
    leaders = sole_leaders(trace)
    turns = leaders.size
    if turns == 0 or leaders[-1] != winner:
        return 0.0
    not_leading = np.flatnonzero(leaders != winner)
    first_final = int(not_leading[-1]) + 1 if not_leading.size else 0
    return (turns - first_final) / turns


# --- per-game table ------------------------------------------------------------------------------------------------


def games_table(records: pd.DataFrame) -> pd.DataFrame:
    """One row per game: variant, game_index, seats, winner (-1 if none), and the game-level columns present.

    Adds ``lead_changes``, ``lead_change_rate``, ``drama`` and ``decisiveness`` when the records carry score traces
    (the values :func:`lead_changes`, :func:`lead_change_rate`, :func:`drama` and :func:`decisiveness` give for each
    game's traces cut to its shortest, computed for all games of the records at once).
    """
    _require(records, ["variant", "game_index", "seat", "win"])
    if not len(records):
        return pd.DataFrame()
    ordered = records.sort_values(GAME_KEY + ["seat"], kind="stable").reset_index(drop=True)
    # Plain arrays and group boundaries: no Python object per game (a sweep has millions of them).
    variant = ordered["variant"].to_numpy()
    game_index = ordered["game_index"].to_numpy()
    seat = ordered["seat"].to_numpy()
    win = ordered["win"].to_numpy(dtype=bool)
    new_game = np.ones(len(ordered), dtype=bool)
    new_game[1:] = (variant[1:] != variant[:-1]) | (game_index[1:] != game_index[:-1])
    starts = np.flatnonzero(new_game)
    ends = np.append(starts[1:], len(ordered))
    seats = ends - starts
    wins = np.add.reduceat(win.astype(np.int64), starts)
    winner_seat = np.add.reduceat(np.where(win, seat, 0).astype(np.int64), starts)
    winner = np.where(wins == 1, winner_seat, -1).astype(np.int64)
    out = {"variant": variant[starts], "game_index": game_index[starts].astype(np.int64),
           "seats": seats.astype(np.int64), "winner": winner}
    for col in ("turns", "completed", "top_shared"):
        if col in ordered.columns:
            out[col] = ordered[col].to_numpy()[starts]
    if "score_trace" in ordered.columns:
        traces = ordered["score_trace"].to_numpy()
        parts = []
        # Batches of games: the traces' grid (games x seats x turns) of a whole chunk would be large.
        for first in range(0, starts.size, TRACE_BATCH):
            last = min(first + TRACE_BATCH, starts.size)
            a, b = int(starts[first]), int(ends[last - 1])
            parts.append(_trace_metrics(traces[a:b], starts[first:last] - a, seats[first:last], seat[a:b],
                                        winner[first:last]))
        for key in ("lead_changes", "lead_change_rate", "drama", "decisiveness"):
            out[key] = np.concatenate([p[key] for p in parts])
    return pd.DataFrame(out)


#: Games whose trace metrics are computed together (their grid of seats x turns is held at once).
TRACE_BATCH = 2048


def _trace_metrics(traces: np.ndarray, starts: np.ndarray, seats: np.ndarray, seat: np.ndarray,
                   winner: np.ndarray) -> dict[str, np.ndarray]:
    """LeadChange, Drama and Decisiveness of every game from its seats' traces (rows in game, seat order)."""
    games = starts.size
    game_of_row = np.repeat(np.arange(games), seats)
    lengths = np.fromiter((len(t) for t in traces), dtype=np.int64, count=len(traces))
    # Each game's traces are cut to the shortest of them (what stacking them needs).
    length = np.minimum.reduceat(lengths, starts) if len(lengths) else np.zeros(0, dtype=np.int64)
    width, height = int(seats.max(initial=0)), int(length.max(initial=0))
    grid = np.full((games, width, max(height, 1)), -np.inf)
    if len(traces):
        values = np.concatenate([np.asarray(t, dtype=float) for t in traces])
        row = np.repeat(np.arange(len(traces)), lengths)
        turn = np.arange(values.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        keep = turn < length[game_of_row[row]]
        slot = seat - np.repeat(seat[starts], seats)  # a seat's place within its game
        grid[game_of_row[row[keep]], slot[row[keep]], turn[keep]] = values[keep]
    valid = np.arange(grid.shape[2])[None, :] < length[:, None]  # (games, turns)
    best = grid.max(axis=1)
    at_best = (grid == best[:, None, :]).sum(axis=1)
    leaders = np.where(at_best == 1, np.argmax(grid, axis=1), -1)
    leaders = np.where(valid, leaders, -2)  # -2: after the game's (cut) end
    # Lead changes: consecutive sole leaders (shared-lead turns skipped) that differ, counted per game.
    sole = leaders >= 0
    g_idx, t_idx = np.nonzero(sole)
    flat = leaders[g_idx, t_idx]
    change = (flat[1:] != flat[:-1]) & (g_idx[1:] == g_idx[:-1])
    changes = np.bincount(g_idx[1:][change], minlength=games).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(length > 1, changes / np.maximum(length - 1, 1), 0.0)
    has_winner = winner >= 0
    w = np.where(has_winner, winner, 0)
    # The winner's slot (seats are numbered from the game's first seat row's seat).
    w_slot = w - seat[starts]
    w_slot = np.clip(w_slot, 0, max(width - 1, 0))
    mine = np.take_along_axis(grid, w_slot[:, None, None], axis=1)[:, 0, :]  # (games, turns)
    with np.errstate(invalid="ignore"):  # -inf - -inf past a game's end, masked out
        deficit = np.where(valid, best - mine, -np.inf).max(axis=1)
    last = np.maximum(length - 1, 0)
    final = mine[np.arange(games), last]
    with np.errstate(invalid="ignore", divide="ignore"):
        dr = np.where(deficit == 0.0, 0.0, np.where(final > 0, deficit / np.where(final > 0, final, 1.0), np.nan))
    dr = np.where(has_winner & (length > 0), dr, np.nan)
    # Decisiveness: from the turn after the winner last failed to be sole leader, to the end.
    not_leading = valid & (leaders != w[:, None])
    turns_axis = np.arange(grid.shape[2])[None, :]
    last_not = np.where(not_leading, turns_axis, -1).max(axis=1)
    ends_leading = (length > 0) & (leaders[np.arange(games), last] == w)
    with np.errstate(invalid="ignore", divide="ignore"):
        dec = np.where(ends_leading, (length - (last_not + 1)) / np.maximum(length, 1), 0.0)
    dec = np.where(has_winner, dec, 0.0)
    return {"lead_changes": changes, "lead_change_rate": rate.astype(float), "drama": dr.astype(float),
            "decisiveness": dec.astype(float)}


def _games_table_by_game(records: pd.DataFrame) -> pd.DataFrame:
    """:func:`games_table` one game at a time from the one-game functions (the reference its tests compare with)."""
    _require(records, ["variant", "game_index", "seat", "win"])
    ordered = records.sort_values(GAME_KEY + ["seat"], kind="stable").reset_index(drop=True)
    variant = ordered["variant"].to_numpy()
    game_index = ordered["game_index"].to_numpy()
    seat = ordered["seat"].to_numpy()
    win = ordered["win"].to_numpy(dtype=bool)
    new_game = np.ones(len(ordered), dtype=bool)
    new_game[1:] = (variant[1:] != variant[:-1]) | (game_index[1:] != game_index[:-1])
    starts = np.flatnonzero(new_game)
    ends = np.append(starts[1:], len(ordered))
    extra = {col: ordered[col].to_numpy() for col in ("turns", "completed", "top_shared") if col in ordered.columns}
    traces_col = ordered["score_trace"].to_numpy() if "score_trace" in ordered.columns else None
    rows = []
    for a, b in zip(starts, ends):
        wins = win[a:b]
        winner = int(seat[a:b][wins][0]) if wins.sum() == 1 else -1
        row: dict = {"variant": variant[a], "game_index": int(game_index[a]), "seats": int(b - a), "winner": winner}
        for col, values in extra.items():
            row[col] = values[a]
        if traces_col is not None:
            traces = [np.asarray(t, dtype=float) for t in traces_col[a:b]]
            length = min((len(t) for t in traces), default=0)
            trace = np.vstack([t[:length] for t in traces]) if length else np.zeros((len(traces), 0))
            row["lead_changes"] = lead_changes(trace)
            row["lead_change_rate"] = lead_change_rate(trace)
            row["drama"] = drama(trace, winner) if winner >= 0 else math.nan
            row["decisiveness"] = decisiveness(trace, winner) if winner >= 0 else 0.0
        rows.append(row)
    return pd.DataFrame(rows)


# --- seat balance --------------------------------------------------------------------------------------------------


def seat_tallies(records: pd.DataFrame) -> pd.DataFrame:
    """Games and wins of each seat per variant (columns variant, seat, games, wins): the seat tables' only input,
    so tallies of the chunks of a sweep, summed (:func:`merge_seat_tallies`), give the tables of all its records."""
    _require(records, ["variant", "seat", "win"])
    grouped = records.groupby(["variant", "seat"], sort=True)["win"]
    out = pd.DataFrame({"games": grouped.size(), "wins": grouped.sum().astype("int64")}).reset_index()
    return out[["variant", "seat", "games", "wins"]]


def merge_seat_tallies(parts: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The sum of seat tallies (:func:`seat_tallies`) of disjoint sets of records: integer counts, so exact."""
    filled = [p for p in parts if len(p)]
    if not filled:
        return pd.DataFrame({"variant": [], "seat": [], "games": [], "wins": []})
    both = pd.concat(filled, ignore_index=True)
    return both.groupby(["variant", "seat"], sort=True)[["games", "wins"]].sum().reset_index()


def seat_win_rates(records: pd.DataFrame | None = None, confidence: float = CONFIDENCE,
                   tallies: pd.DataFrame | None = None) -> pd.DataFrame:
    """Win rate of each seat per variant with its Wilson interval, from the records or from their seat tallies
    (:func:`seat_tallies`; the same table).

    Columns: variant, seat, games, wins, win_rate, low, high, fair (the rate of every seat in a perfectly fair game:
    :func:`fair_share`).
    """
    tallies = seat_tallies(records) if tallies is None else tallies
    seats_per_variant = tallies.groupby("variant")["seat"].nunique()
    fair = {variant: fair_share(int(grp["wins"].sum()), int(grp["games"].max()), int(seats_per_variant[variant]))
            for variant, grp in tallies.groupby("variant", sort=False)}
    rows = []
    for variant, seat, games, wins in tallies.sort_values(["variant", "seat"], kind="stable").itertuples(
            index=False):
        games, wins = int(games), int(wins)
        est, low, high = wilson(wins, games, confidence)
        rows.append(
            {
                "variant": variant,
                "seat": int(seat),
                "games": games,
                "wins": wins,
                "win_rate": est,
                "low": low,
                "high": high,
                "fair": fair[variant],
            }
        )
    return pd.DataFrame(rows)


def fair_share(wins: int, games: int, seats: int) -> float:
    """Each seat's win rate in a perfectly fair game: ``1 / seats`` where a game has one winner, more where tied seats
    all count a win (every seat that shares the best return wins): the mean number of winners per game over the
    seats, ``wins / games / seats``. Against ``1 / seats`` a game with ties would show every seat winning "more
    than its fair share" (Trust Me (1981) ties 7-15% of its 2-player games).

    >>> fair_share(300, 300, 3), fair_share(107, 100, 2)
    (0.3333333333333333, 0.535)
    """
    if games <= 0 or wins <= 0:
        return 1.0 / seats
    return wins / games / seats


#: The power at which a "no evidence" verdict states the smallest seat edge its games could have seen.
POWER = 0.80
#: The test's level for that statement (before the correction over variants, which only raises the edge).
POWER_ALPHA = 0.05


def detectable_seat_edge(games: int, seats: int, power: float = POWER, alpha: float = POWER_ALPHA) -> float:
    """The smallest seat edge ``d`` the chi-square test of equal seats detects with probability ``power`` at level
    ``alpha`` in ``games`` games: one seat winning ``1/seats + d`` of them, the others sharing the rest equally.

    The test's statistic then follows a noncentral chi-square with ``seats - 1`` degrees of freedom and
    noncentrality ``games * d**2 * seats**2 / (seats - 1)`` (Cohen, *Statistical Power Analysis*, 1988, ch. 7);
    ``d`` solves power = P(statistic > critical value). With 2 seats and 100 games: 0.14 (14 points).

    >>> round(detectable_seat_edge(100, 2), 3), round(detectable_seat_edge(1000, 3), 3)
    (0.14, 0.046)
    """
    if games <= 0 or seats < 2:
        return math.nan
    dof = seats - 1
    critical = sps.chi2.ppf(1.0 - alpha, dof)
    lam = brentq(lambda x: sps.ncx2.sf(critical, dof, x) - power, 1e-9, 1e4)
    return math.sqrt(lam * dof / (games * seats**2))


def equal_seats_test(records: pd.DataFrame | None = None, tallies: pd.DataFrame | None = None) -> pd.DataFrame:
    """Chi-square goodness-of-fit test that every seat wins equally often, per variant, from the records or their
    seat tallies (:func:`seat_tallies`; the same table).

    Observed: wins per seat; expected: total wins / seats. Columns: variant, seats, games, chi2, dof, p_value,
    p_holm (the p-values adjusted over the variants with Holm's method: a sweep of many variants tests each, and a
    verdict per variant must not flip by chance alone), first_seat_advantage (seat 0's win rate minus its fair share,
    :func:`fair_share`), detectable_edge (:func:`detectable_seat_edge`: the smallest seat edge these games detect 80%
    of the time, what a verdict of "no evidence" can and cannot rule out).
    """
    rates = seat_win_rates(records, tallies=tallies)
    rows = []
    for variant, grp in rates.groupby("variant", sort=True):
        wins = grp["wins"].to_numpy(dtype=float)
        seats = len(grp)
        games = int(grp["games"].iloc[0])
        if wins.sum() == 0 or seats < 2:
            chi2, p = math.nan, math.nan
        else:
            res = sps.chisquare(wins)
            chi2, p = float(res.statistic), float(res.pvalue)
        seat0 = grp[grp["seat"] == 0]["win_rate"]
        rows.append(
            {
                "variant": variant,
                "seats": seats,
                "games": games,
                "chi2": chi2,
                "dof": seats - 1,
                "p_value": p,
                "first_seat_advantage": ((float(seat0.iloc[0]) if len(seat0) else math.nan)
                                         - float(grp["fair"].iloc[0])),
                "detectable_edge": detectable_seat_edge(games, seats),
            }
        )
    out = pd.DataFrame(rows, columns=["variant", "seats", "games", "chi2", "dof", "p_value", "first_seat_advantage",
                                      "detectable_edge"])
    out.insert(6, "p_holm", holm(out["p_value"].to_numpy(dtype=float)) if len(out) else [])
    return out


# --- Ludii metrics -------------------------------------------------------------------------------------------------


def _balance_interval(winners: np.ndarray, seats: int, rng: np.random.Generator, confidence: float):
    # Balance depends on all seats' rates at once, so its interval comes from resampling whole games.
    starts = blocks(winners.size)
    if starts is None:
        def stat(idx: np.ndarray) -> np.ndarray:
            # Each seat's share of the resampled games it won: a count over n, as the mean of its one-hot column
            # gives it, without the (resamples x games x seats) array that would take.
            drawn = winners[idx]
            rates = np.stack([(drawn == seat).mean(axis=1) for seat in range(seats)], axis=1)  # (resamples, seats)
            return 1.0 - (rates.max(axis=1) - rates.min(axis=1))

        return bootstrap(winners.size, stat, rng, confidence=confidence)
    blocks_wins = _BlockWins(winners.size, seats)
    blocks_wins.add(winners)
    return blocks_wins.interval(rng, confidence)


class _BlockWins:
    """Wins per seat in each block of consecutive games (:func:`blocks`) of a variant of ``n`` games, counted a
    piece of games at a time: what the Balance bootstrap of many games resamples."""

    def __init__(self, n: int, seats: int):
        self.starts = blocks(n)
        assert self.starts is not None
        self.n = n
        self.wins = np.zeros((self.starts.size, seats))
        self._done = 0

    def add(self, winners: np.ndarray) -> None:
        position = self._done + np.arange(winners.size)
        block = np.searchsorted(self.starts, position, side="right") - 1
        has_winner = winners >= 0
        # Whole counts in float64 (exact): the sums of one-hot rows over each block.
        np.add.at(self.wins, (block[has_winner], winners[has_winner]), 1.0)
        self._done += winners.size

    def interval(self, rng: np.random.Generator, confidence: float):
        wins = self.wins
        sizes = np.diff(np.append(self.starts, self.n)).astype(float)

        def block_stat(idx: np.ndarray) -> np.ndarray:
            # A seat at a time: the (resamples x blocks x seats) array of all seats' wins at once is several times
            # the index array. The sums are of whole numbers (exact), so the rates are those of that array's sums.
            games = sizes[idx].sum(axis=1)
            rates = np.stack([wins[:, seat][idx].sum(axis=1) / games for seat in range(wins.shape[1])], axis=1)
            return 1.0 - (rates.max(axis=1) - rates.min(axis=1))

        return bootstrap(self.starts.size, block_stat, rng, confidence=confidence)


def ludii_metrics(
    records: pd.DataFrame | None, rng: np.random.Generator, confidence: float = CONFIDENCE,
    games: pd.DataFrame | None = None,
    pieces: Iterable[tuple[str, int, Iterable[pd.DataFrame]]] | None = None,
) -> pd.DataFrame:
    """The eight Ludii balance metrics per variant with confidence intervals (long format).

    Columns: variant, metric, value, low, high, unit. Rates use Wilson intervals, means t intervals, Balance a
    bootstrap over games. Metrics whose columns are absent from the records are left out.

    Every figure is accumulated a piece of games at a time (counts, the moments of
    :mod:`trustme_analysis.stats.streaming`, wins per block of games for Balance), so a variant's games need not be
    in memory at once: up to :data:`~trustme_analysis.stats.intervals.MAX_BOOTSTRAP_UNITS` games a variant the
    figures are those of its whole arrays, bit for bit.

    Args:
        records: sweep records (see the module docstring for the columns read); not read when ``games`` or
            ``pieces`` is given.
        rng: source of the bootstrap's randomness.
        confidence: two-sided level of every interval.
        games: a precomputed :func:`games_table` of ``records`` (computed if omitted).
        pieces: instead of ``games``, per variant in sorted order ``(variant, games, pieces)``: its number of games
            and its rows of :func:`games_table` in pieces, in game order.
    """
    if pieces is None:
        if games is None:
            if records is None:
                raise ValueError("ludii_metrics needs the records or their games_table")
            games = games_table(records)
        pieces = [(variant, len(grp), [grp]) for variant, grp in games.groupby("variant", sort=True)]
    rows = []
    for variant, n, parts in pieces:
        rows.extend(_ludii_rows(variant, n, parts, rng, confidence))
    out = pd.DataFrame(rows)
    if len(out):
        out["metric"] = pd.Categorical(out["metric"], categories=list(LUDII_METRICS), ordered=True)
        out = out.sort_values(["variant", "metric"], kind="stable").reset_index(drop=True)
        out["metric"] = out["metric"].astype(str)
    return out


_MEAN_COLUMNS = ("turns", "lead_change_rate", "drama", "decisiveness")


def _ludii_rows(variant: str, n: int, parts: Iterable[pd.DataFrame], rng: np.random.Generator,
                confidence: float) -> list[dict]:
    """One variant's rows of :func:`ludii_metrics` from its games in pieces (``n`` of them)."""
    seats = None
    columns: set[str] = set()
    kept: list[np.ndarray] | None = [] if blocks(n) is None else None  # few games: the winners themselves
    block_wins = None
    first_seat = completed = top_shared = drawn = 0
    moments = {c: Moments() for c in _MEAN_COLUMNS}
    for part in parts:
        if not len(part):
            continue
        if seats is None:
            seats = int(part["seats"].iloc[0])
            columns = set(part.columns)
            if kept is None:
                block_wins = _BlockWins(n, seats)
        winners = part["winner"].to_numpy(dtype=int)
        if kept is not None:
            kept.append(winners)
        else:
            block_wins.add(winners)
        first_seat += int((winners == 0).sum())
        drawn += int((winners < 0).sum())
        if "completed" in columns:
            completed += int(part["completed"].astype(bool).sum())
        if "top_shared" in columns:
            top_shared += int(part["top_shared"].astype(bool).sum())
        for c in _MEAN_COLUMNS:
            if c in columns:
                moments[c].add(part[c].to_numpy(dtype=float))
    if seats is None:
        return []
    rows = []

    def add(metric: str, interval, unit: str) -> None:
        rows.append({"variant": variant, "metric": metric, "value": interval[0], "low": interval[1],
                     "high": interval[2], "unit": unit})

    if kept is not None:
        balance = _balance_interval(np.concatenate(kept), seats, rng, confidence)
    else:
        balance = block_wins.interval(rng, confidence)
    add("Balance", balance, "share (1 = balanced)")
    add("AdvantageP1", wilson(first_seat, n, confidence), "win rate of seat 0")
    if "completed" in columns:
        add("Completion", wilson(completed, n, confidence), "share of games")
    if "top_shared" in columns:
        add("Drawishness", wilson(top_shared, n, confidence), "share of games")
    else:
        add("Drawishness", wilson(drawn, n, confidence), "share of games")
    if "turns" in columns:
        add("Duration", mean_interval(moments["turns"], confidence), "turns")
    if "lead_change_rate" in columns:
        add("LeadChange", mean_interval(moments["lead_change_rate"], confidence), "changes per turn")
        add("Drama", mean_interval(moments["drama"], confidence), "share of winner's score")
        add("Decisiveness", mean_interval(moments["decisiveness"], confidence), "share of the game")
    return rows
