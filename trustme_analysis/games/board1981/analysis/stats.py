"""Statistics of Trust Me (1981) sweeps: wealth, game length, claims, investing rounds, payoff rows, the claimant's
reserve, Wild Goose Chase sends, Trust Me cards and challenges; and the investing round alone.

Every function takes the records DataFrame (columns from :mod:`trustme_analysis.games.board1981.analysis.records` plus the sweep's
``variant`` and ``game_index``) and returns a tidy table per variant with 95% intervals. Games are the independent
units: a share or amount pooled over games (e.g. shares bought per decision) gets a bootstrap interval that resamples
whole games (:func:`~trustme_analysis.stats.intervals.ratio_of_sums`); a per-game mean gets a t interval; a per-game
yes/no gets a Wilson interval. Definitions: ``docs/guide/statistics_1981.rst``.

Each table is made by an accumulator fed a variant's records a piece at a time (a chunk's games; the functions below
feed it a variant's records in one piece): counts, the moments of the means and the units of the bootstraps
(:mod:`trustme_analysis.stats.streaming`), merged exactly, so :func:`compute` holds no array of every game or record
of a variant, and its tables are those of all records at once (bit for bit up to 10,000 games a variant).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from trustme_analysis.games.board1981.analysis.records import ROW_LABELS
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

GAME_KEY = ["variant", "game_index"]

#: Per-game metrics of ``trustme_1981`` compared with the baseline (columns of :func:`games`).
COMPARISON_METRICS = (
    GameMetric("first seat advantage (win rate - fair share)", "seat0_advantage", "mean", "share of games"),
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
        seat0_win=("win", "first"),  # (rows in seat order: seat 0's; a tie counts a win for every tied seat)
        winners=("win", "sum"),
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
    # Seat 0's win minus the game's fair share (winners / players): zero on average in a fair game, ties included
    # (a tie counted as nobody's win, as before, biased it down by the tie rate over the players; 1/players alone
    # would bias the seat's tie-inclusive win rate up).
    out["seat0_advantage"] = out["seat0_win"].astype(float) - out["winners"].astype(float) / out["players"]
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


class _Wealth:
    """:func:`wealth_summary` of one variant (``games`` games) accumulated a chunk at a time: per game the money and
    wealth of all seats and of the winners as the units of the bootstraps (every game has its richest seat(s)), a
    tally of the seats' final wealth (quantiles), and integer totals; the per-game means come from ``game_rows``."""

    def __init__(self, variant: str, games: int, game_rows: GameRows, rng: np.random.Generator,
                 confidence: float = CONFIDENCE):
        self.variant, self.game_rows, self.rng, self.confidence = variant, game_rows, rng, confidence
        self.every, self.won = BlockSums(games, 2), BlockSums(games, 2)
        self.wealth = Tally()
        self.seats = self.money = self.shares = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        self.every.add(chunk.groupby("game_index")[["money", "wealth"]].sum().to_numpy(dtype=float))
        self.won.add(chunk[chunk["win"].astype(bool)].groupby("game_index")[["money", "wealth"]].sum()
                     .to_numpy(dtype=float))
        self.wealth.add(chunk["wealth"].to_numpy(dtype=float))
        self.seats += len(chunk)
        self.money += int(chunk["money"].sum())
        self.shares += int(chunk["shares"].sum())

    def rows(self) -> pd.DataFrame:
        if not self.seats:
            return pd.DataFrame()
        m = self.game_rows.moments(self.variant, ["mean_wealth", "winner_wealth", "margin"])
        q = self.wealth.quantile([0.1, 0.5, 0.9])
        every, won = self.every.units, self.won.units
        return pd.DataFrame([
            {
                "variant": self.variant,
                "games": self.game_rows.rows_of(self.variant),
                **_row("wealth", mean_interval(m["mean_wealth"], self.confidence)),
                "wealth_q10": q[0],
                "wealth_median": q[1],
                "wealth_q90": q[2],
                **_row("winner_wealth", mean_interval(m["winner_wealth"], self.confidence)),
                **_row("margin", mean_interval(m["margin"], self.confidence)),
                **_row("money_share", ratio_of_sums(every[:, 0], every[:, 1], self.rng, confidence=self.confidence)),
                **_row("winner_money_share", ratio_of_sums(won[:, 0], won[:, 1], self.rng,
                                                           confidence=self.confidence)),
                # Integer totals over the seat rows, divided once: the mean pandas gives over all of them.
                "mean_money": self.money / self.seats,
                "mean_shares": self.shares / self.seats,
            }
        ])


def wealth_summary(
    records: pd.DataFrame, game_rows: pd.DataFrame | GameRows, rng: np.random.Generator,
    confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Per variant: final wealth per seat and the winner's (t intervals over games), the winner's margin, and the
    share of all final wealth held as money rather than shares (bootstrap over games), for all seats and winners."""
    rows = game_rows if isinstance(game_rows, GameRows) else GameRows.from_frame(game_rows)
    return accumulate_records(records, lambda v, n: _Wealth(v, n, rows, rng, confidence))


class _WealthTrace:
    """:func:`~trustme_analysis.stats.traces.trace_bands` of one variant (the richest seat(s) and the others; the
    horizon: the median length of every trace) accumulated a chunk at a time: per group and turn the moments of the
    wealth of the seats still playing, in record order (their values kept for up to
    :data:`~trustme_analysis.stats.streaming.EXACT_UNITS` games' seats: then the bands are ``trace_bands``' bit for
    bit), and how many traces have each length."""

    LABELS = ("richest", "other seats")

    def __init__(self, variant: str, confidence: float = CONFIDENCE):
        self.variant, self.confidence = variant, confidence
        self.turns: dict[bool, list[Moments]] = {True: [], False: []}
        self.lengths = np.zeros(0, dtype=np.int64)
        self.units = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        if not self.units:
            self.units = streaming.EXACT_UNITS * int(chunk["players"].iloc[0])
        traces = [np.asarray(t, dtype=float) for t in chunk["score_trace"]]
        counts = np.bincount([t.size for t in traces])
        size = max(counts.size, self.lengths.size)
        self.lengths = np.pad(self.lengths, (0, size - self.lengths.size)) + np.pad(counts, (0, size - counts.size))
        won = chunk["win"].to_numpy(dtype=bool)
        for group in (True, False):
            mine = [t for t, w in zip(traces, won) if w == group]
            width = max((t.size for t in mine), default=0)
            # Seats x turns, NaN after a game's end, so each turn adds the seats still playing.
            grid = np.full((len(mine), width), np.nan)
            for row, t in enumerate(mine):
                grid[row, : t.size] = t
            turns = self.turns[group]
            turns.extend(Moments(self.units) for _ in range(width - len(turns)))
            for turn in range(width):
                turns[turn].add(grid[:, turn])

    def rows(self) -> pd.DataFrame:
        total = int(self.lengths.sum())
        # The middle element of the sorted lengths, as trace_bands takes it.
        horizon = int(np.searchsorted(np.cumsum(self.lengths), total // 2, side="right")) if total else 0
        rows = []
        for label, group in zip(self.LABELS, (True, False)):
            turns = self.turns[group]
            for turn in range(horizon):
                iv = mean_interval(turns[turn] if turn < len(turns) else Moments(), self.confidence)
                rows.append({"variant": self.variant, "group": label, "turn": turn + 1, "mean": iv.estimate,
                             "low": iv.low, "high": iv.high})
        return pd.DataFrame(rows)


def game_length(game_rows: pd.DataFrame | GameRows, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: turns per game (t interval, quantiles), and the share of games ended by two briefcases left and
    by the turn cap (Wilson). One pass over each variant's games (:func:`games` rows), a piece at a time: counts,
    the moments of the turns and a tally of them (whole numbers: the quantiles of all games)."""
    source = game_rows if isinstance(game_rows, GameRows) else GameRows.from_frame(game_rows)
    rows = []
    for variant in source.variant_ids:
        n = cases = cap = 0
        turns, seen = Moments(), Tally()
        for gv in source.pieces(variant, ["turns", "end_trigger"]):
            n += len(gv)
            turns.add(gv["turns"].to_numpy(dtype=float))
            seen.add(gv["turns"].to_numpy(dtype=float))
            cases += int((gv["end_trigger"] == "two_cases_left").sum())
            cap += int((gv["end_trigger"] == "turn_cap").sum())
        if not n:
            continue
        q = seen.quantile([0.1, 0.5, 0.9])
        rows.append(
            {
                "variant": variant,
                "games": n,
                **_row("turns", mean_interval(turns, confidence)),
                "turns_q10": q[0],
                "turns_median": q[1],
                "turns_q90": q[2],
                **_row("end_cases", wilson(cases, n, confidence)),
                **_row("end_cap", wilson(cap, n, confidence)),
            }
        )
    return pd.DataFrame(rows)


class _Sums:
    """A table of per-game sums of one variant (``games`` games; the ``columns`` summed over each game's seats)
    accumulated a chunk at a time (:class:`~trustme_analysis.stats.streaming.GameSums`: moments, totals, bootstrap
    units); ``finish(variant, sums, ratio, confidence)`` makes the rows, ``ratio(num, den)`` drawing the bootstrap."""

    def __init__(self, variant: str, games: int, columns: Sequence[str], finish: Callable[..., list[dict]],
                 rng: np.random.Generator, confidence: float = CONFIDENCE):
        self.variant, self.finish, self.rng, self.confidence = variant, finish, rng, confidence
        self.sums = GameSums(games, columns)

    def add(self, chunk: pd.DataFrame) -> None:
        if len(chunk):
            self.sums.add(chunk.groupby("game_index")[self.sums.columns].sum())

    def ratio(self, num: np.ndarray, den: np.ndarray) -> Interval:
        return ratio_of_sums(num, den, self.rng, confidence=self.confidence)

    def rows(self) -> pd.DataFrame:
        if not self.sums.games:
            return pd.DataFrame()
        return pd.DataFrame(self.finish(self.variant, self.sums, self.ratio, self.confidence))


_CLAIM_SUMS = ("claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost")


def _claim_rows(variant: str, s: GameSums, ratio: Callable[..., Interval], confidence: float) -> list[dict]:
    made = s.unit("claims_unseen") + s.unit("claims_looked")
    return [
        {
            "variant": variant,
            **_row("unseen", mean_interval(s.moments["claims_unseen"], confidence)),
            **_row("looked", mean_interval(s.moments["claims_looked"], confidence)),
            **_row("taken", mean_interval(s.moments["claims_taken"], confidence)),
            **_row("lost", mean_interval(s.moments["claims_lost"], confidence)),
            "claims_made": s.total("claims_unseen") + s.total("claims_looked"),
            **_row("unseen_share", ratio(s.unit("claims_unseen"), made)),
            **_row("known_share", ratio(s.unit("claims_known"), made)),
        }
    ]


def claims(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: claims per game made unseen, made after looking, and taken from another player (t intervals);
    the share of claims made unseen and the share of claims of a briefcase the claimer had looked under (bootstrap
    over games)."""
    return accumulate_records(records, lambda v, n: _Sums(v, n, _CLAIM_SUMS, _claim_rows, rng, confidence))


_INVESTING_SUMS = ("bought_known", "bought_unknown", "divested_known", "divested_unknown", "decisions_known",
                   "decisions_unknown", "bought_own", "divested_own", "claimant_rounds")
#: Investor knowledge and its columns: shares bought, divested, and the decisions they are counted per.
_KNOWLEDGE = (("looked", "bought_known", "divested_known", "decisions_known"),
              ("not looked", "bought_unknown", "divested_unknown", "decisions_unknown"),
              ("own claim", "bought_own", "divested_own", "claimant_rounds"))


def _investing_rows(variant: str, s: GameSums, ratio: Callable[..., Interval], confidence: float) -> list[dict]:
    return [
        {
            "variant": variant,
            "knowledge": label,
            "decisions": s.total(decisions),
            **_row("decisions_per_game", mean_interval(s.moments[decisions], confidence)),
            **_row("bought", ratio(s.unit(bought), s.unit(decisions))),
            **_row("divested", ratio(s.unit(divested), s.unit(decisions))),
            "shares_bought": s.total(bought),
            "shares_divested": s.total(divested),
        }
        for label, bought, divested, decisions in _KNOWLEDGE
    ]


def investing(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and investor knowledge (``looked``: the investor had looked under that briefcase; ``not looked``;
    ``own claim``): shares bought and divested per decision (bootstrap over games) and decisions per game (t).

    For ``own claim`` the denominator is the claimant's investing rounds (one decision each).
    """
    return accumulate_records(records, lambda v, n: _Sums(v, n, _INVESTING_SUMS, _investing_rows, rng, confidence))


def _summed(rv: pd.DataFrame, inverse: np.ndarray, games: int, column: str, width: int) -> np.ndarray:
    """Per game (``inverse``: each row's game, numbered in game order) the sums over its seats of a list column of
    ``width`` entries (integer amounts, exact as floats)."""
    out = np.zeros((games, width))
    np.add.at(out, inverse, _stack(rv[column], width))
    return out


#: The list columns of :func:`payoff_rows` summed over a game's seats (one entry per payoff row).
_PAYOFF_LISTS = ("gain_known_per_row", "gain_unknown_per_row", "reveals_known_per_row", "reserve_per_row")


class _Payoffs:
    """:func:`payoff_rows` of one variant (``games`` games) accumulated a chunk at a time: per game and payoff row,
    the reveals, the seats' gains and reveals (looked or not) and the reserve as the units of the bootstraps
    (:class:`~trustme_analysis.stats.streaming.BlockSums`), and the moments of the reveals per game."""

    def __init__(self, variant: str, games: int, rng: np.random.Generator, confidence: float = CONFIDENCE):
        self.variant, self.rng, self.confidence = variant, rng, confidence
        self.width = len(ROW_LABELS)
        # Per payoff row: reveals, gain_known, gain_unknown, known, unknown, reserve.
        self.units = BlockSums(games, 6 * self.width)
        self.reveals = [Moments() for _ in range(self.width)]
        self.games = 0

    def add(self, chunk: pd.DataFrame) -> None:
        if not len(chunk):
            return
        rv = chunk.sort_values(GAME_KEY + ["seat"], kind="stable")
        _, inverse = np.unique(rv["game_index"].to_numpy(), return_inverse=True)
        games = int(inverse.max()) + 1
        gain_known, gain_unknown, known, reserve = (_summed(rv, inverse, games, col, self.width)
                                                    for col in _PAYOFF_LISTS)
        first = rv.drop_duplicates("game_index")
        reveals = _stack(first["reveals_per_row"], self.width)
        unknown = reveals * first["players"].to_numpy(dtype=float)[:, None] - known
        self.units.add(np.hstack([reveals, gain_known, gain_unknown, known, unknown, reserve]))
        for r, m in enumerate(self.reveals):
            m.add(reveals[:, r])
        self.games += games

    def rows(self) -> pd.DataFrame:
        if not self.games:
            return pd.DataFrame()
        w = self.width
        reveals, gain_known, gain_unknown, known, unknown, reserve = (
            self.units.units[:, k * w:(k + 1) * w] for k in range(6))
        all_reveals = reveals.sum(axis=1)  # whole numbers: exact per game or per block
        rows = []
        for r, label in enumerate(ROW_LABELS):
            rows.append(
                {
                    "variant": self.variant,
                    "row": r,
                    "label": label,
                    "reveals": int(self.reveals[r].total),
                    **_row("per_game", mean_interval(self.reveals[r], self.confidence)),
                    **_row("share", self._ratio(reveals[:, r], all_reveals)),
                    **_row("gain_known", self._ratio(gain_known[:, r], known[:, r])),
                    **_row("gain_unknown", self._ratio(gain_unknown[:, r], unknown[:, r])),
                    **_row("reserve", self._ratio(reserve[:, r], reveals[:, r])),
                    "seat_reveals_known": int(known[:, r].sum()),
                }
            )
        return pd.DataFrame(rows)

    def _ratio(self, num: np.ndarray, den: np.ndarray) -> Interval:
        return ratio_of_sums(num, den, self.rng, confidence=self.confidence)


def payoff_rows(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and payoff row: reveals per game (t) and the row's share of reveals; what a seat gained or lost per
    reveal of that row, for seats that had looked under the briefcase and seats that had not (bootstrap over games);
    and the reserve the claimant received per round of that row.

    ``gain_known`` is (payoff money + shares kept - shares held) summed over seats that had looked, divided by the
    number of such seat-reveals; ``gain_unknown`` likewise; the reserve is excluded from both.
    """
    return accumulate_records(records, lambda v, n: _Payoffs(v, n, rng, confidence))


_EVENT_SUMS = ("wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "challenges_made",
               "challenges_won", "bamboozled_escaped")


def _event_rows(variant: str, s: GameSums, ratio: Callable[..., Interval], confidence: float) -> list[dict]:
    def mean(column: str) -> Interval:
        return mean_interval(s.moments[column], confidence)

    return [
        {
            "variant": variant,
            **_row("wgc_sent", mean("wgc_sent")),
            **_row("wgc_received", mean("wgc_received")),
            **_row("cards_move", mean("cards_move")),
            **_row("cards_bamboozled", mean("cards_bamboozled")),
            **_row("cards_challenge", mean("cards_challenge")),
            **_row("challenges", mean("challenges_made")),
            "challenges_total": s.total("challenges_made"),
            "bamboozled_total": s.total("cards_bamboozled"),
            **_row("challenger_wins", ratio(s.unit("challenges_won"), s.unit("challenges_made"))),
            **_row("escaped", ratio(s.unit("bamboozled_escaped"), s.unit("cards_bamboozled"))),
        }
    ]


def table_events(records: pd.DataFrame, rng: np.random.Generator, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant: Wild Goose Chase sends and Trust Me cards of each kind per game (t intervals), the share of
    challenges the challenger won and of Bamboozled rolls escaped (bootstrap over games)."""
    return accumulate_records(records, lambda v, n: _Sums(v, n, _EVENT_SUMS, _event_rows, rng, confidence))


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


def _with_role(records: pd.DataFrame) -> pd.DataFrame:
    return records.assign(role=_role(records))


def _by_row_rows(variant: str, groups: Groups, confidence: float) -> list[dict]:
    return [
        {
            "variant": variant,
            "row": int(row),
            "label": ROW_LABELS[int(row)],
            "role": role,
            "seats": g.n,
            **_row("change", mean_interval(g.moments["wealth_change"], confidence)),
            **_row("payoff", mean_interval(g.moments["payoff_gain"], confidence)),
            "reserve_mean": g.moments["reserve_received"].mean(),
        }
        for (row, role), g in groups.items()
    ]


def _by_row(variant: str, confidence: float = CONFIDENCE) -> Accumulated:
    groups = Groups(["row", "role"], means=("wealth_change", "payoff_gain", "reserve_received"), seats="players")
    return Accumulated(groups, lambda g: _by_row_rows(variant, g, confidence), _with_role)


def investment_by_row(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant, payoff row and role (:data:`ROLES`: claimant or investor, who had or had not looked under the
    briefcase): seats, mean wealth change and mean payoff gain (t intervals over seats), and the claimant's reserve.

    Seats in one round are not independent; each round has at most one seat per role unless several investors share
    a role, so the t interval over seats is close to one over rounds.
    """
    return accumulate_records(records, lambda v, n: _by_row(v, confidence))


def _by_knowledge_rows(variant: str, groups: Groups, confidence: float) -> list[dict]:
    return [
        {
            "variant": variant,
            "role": role,
            "seats": g.n,
            **_row("bought", mean_interval(g.moments["bought"], confidence)),
            **_row("divested", mean_interval(g.moments["divested"], confidence)),
            # Shares bought or divested are never negative: a nonzero count is "any".
            **_row("buy_rate", wilson(g.counts["bought"], g.n, confidence)),
            **_row("divest_rate", wilson(g.counts["divested"], g.n, confidence)),
            **_row("change", mean_interval(g.moments["wealth_change"], confidence)),
        }
        for (role,), g in groups.items()
    ]


def _by_knowledge(variant: str, confidence: float = CONFIDENCE) -> Accumulated:
    groups = Groups(["role"], flags=("bought", "divested"), means=("bought", "divested", "wealth_change"),
                    seats="players")
    return Accumulated(groups, lambda g: _by_knowledge_rows(variant, g, confidence), _with_role)


def investment_by_knowledge(records: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per variant and role (:data:`ROLES`): shares bought and divested per seat (t), the share of seats that bought
    any and that divested any (Wilson), and the mean wealth change (t)."""
    return accumulate_records(records, lambda v, n: _by_knowledge(v, confidence))


#: The record columns each table of :func:`compute` and :func:`compute_investment` reads (one chunk at a time).
GAMES_COLUMNS = (*GAME_KEY, "seat", "players", "turns", "end_trigger", "top_shared", "margin", "winner", "win",
                 "wealth", "money", "claims_unseen", "claims_looked", "claims_taken", "claimant_rounds", "reserve_received",
                 "wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "challenges_made",
                 "challenges_won")
WEALTH_COLUMNS = (*GAME_KEY, "win", "money", "wealth", "shares")
TRACE_COLUMNS = ("variant", "players", "win", "score_trace")
CLAIM_COLUMNS = (*GAME_KEY, "claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost")
INVESTING_COLUMNS = (*GAME_KEY, "bought_known", "bought_unknown", "divested_known", "divested_unknown",
                     "decisions_known", "decisions_unknown", "bought_own", "divested_own", "claimant_rounds")
PAYOFF_COLUMNS = (*GAME_KEY, "seat", "players", "gain_known_per_row", "gain_unknown_per_row", "reveals_known_per_row",
                  "reserve_per_row", "reveals_per_row")
EVENT_COLUMNS = (*GAME_KEY, "wgc_sent", "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge",
                 "challenges_made", "challenges_won", "bamboozled_escaped")
ROUND_COLUMNS = (*GAME_KEY, "claimant", "row", "wealth_change", "reserve_received", "win", "bought")
ROUND_ROW_COLUMNS = ("variant", "players", "row", "claimant", "seen", "wealth_change", "payoff_gain",
                     "reserve_received")
ROUND_ROLE_COLUMNS = ("variant", "players", "claimant", "seen", "bought", "divested", "wealth_change")


def _pieces(b: Builder, columns: Sequence[str], table: Callable[[str, pd.DataFrame], pd.DataFrame]):
    """A per-game table's pieces: ``table(variant, records)`` of each chunk (a game's rows are all in one chunk)."""
    for vid in b.variant_ids:
        for chunk in b.chunks(vid, columns):
            if len(chunk):
                yield table(vid, chunk)


def compute(b: Builder) -> None:
    """Add the ``trustme_1981`` tables to a results set being computed (the board game's ``statistics`` part).

    Tables, in the order of the report's pages: ``board1981_games`` (per game; what the variants are compared on),
    ``wealth_summary``, ``wealth_trace``, ``game_length``, ``claims``, ``investing``, ``payoff_rows`` and
    ``table_events``.

    Every table is computed in passes over one variant's chunks at a time: a chunk gives counts, moments and the
    bootstraps' units, merged exactly (the accumulators above), so memory holds one chunk's records plus a bounded
    number of figures per variant; the per-game table goes to disk as it is made (:meth:`Builder.add_pieces`), and
    the comparisons, the wealth summary and the game length read it back a piece at a time.
    """
    order = [b.baseline] + [v for v in b.variant_ids if v != b.baseline]
    table = b.add_pieces("board1981_games",
                         _pieces(b, GAMES_COLUMNS, lambda v, r: games(r, b.games_of(v, r["game_index"].to_numpy()))),
                         "One row per Trust Me (1981) game",
                         "The per-game measures the variants are compared on (seat advantage, wealth, margin, turns, "
                         "the turn cap, claims, investing, lead changes).")
    b.set_comparisons(table, COMPARISON_METRICS)
    game_rows = b.comparison_rows
    b.add("wealth_summary", b.accumulate_variants(lambda v, n: _Wealth(v, n, game_rows, b.rng), WEALTH_COLUMNS),
          "Final wealth: money and shares",
          "Wealth = money + shares ($1 a share). Per variant: mean final wealth per seat, its spread, the richest "
          "seat's wealth, the winner's margin, and the share of wealth held as money.",
          "t 95% over games for means, bootstrap 95% over games for shares", {"wealth": "dollars"})
    b.add("wealth_trace", b.accumulate_variants(lambda v, n: _WealthTrace(v), TRACE_COLUMNS, order),
          "Wealth over the game",
          "Mean wealth (money + shares) after each turn of the richest seat(s) at the end and of the others, up to "
          "the turn half of the games reached.", "t 95% over seats", {"mean": "dollars", "turn": "turn"})
    b.add("game_length", game_length(game_rows), "Game length and how games end",
          "Turns per game with quantiles; share of games ended by the rules (two briefcases left) or by the turn cap.",
          "t 95% for means, Wilson 95% for shares of games", {"turns": "turns"})
    b.add("claims", b.accumulate_variants(lambda v, n: _Sums(v, n, _CLAIM_SUMS, _claim_rows, b.rng), CLAIM_COLUMNS),
          "Claims",
          "Per variant: claims made per game, how many were on briefcases the claimant had looked under, and how "
          "many were won or lost.", "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("investing",
          b.accumulate_variants(lambda v, n: _Sums(v, n, _INVESTING_SUMS, _investing_rows, b.rng), INVESTING_COLUMNS),
          "Investing in other players' claims",
          "Per variant: shares bought and divested in other players' investing rounds, split by whether the seat had "
          "looked under the briefcase.", "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("payoff_rows", b.accumulate_variants(lambda v, n: _Payoffs(v, n, b.rng), PAYOFF_COLUMNS), "Payoff rows",
          "Per variant and payoff row: reveals per game and the wealth change it brought, by whether the seat had "
          "looked under the briefcase; the claimant's reserve.",
          "t 95% for per-game means, bootstrap 95% over games for shares")
    b.add("table_events",
          b.accumulate_variants(lambda v, n: _Sums(v, n, _EVENT_SUMS, _event_rows, b.rng), EVENT_COLUMNS),
          "Table events",
          "Per variant: looks, Hot Tips, Wild Goose Chases, Trust Me cards by kind, Bamboozled escapes and challenges "
          "per game.", "t 95% for per-game means, bootstrap 95% over games for shares")


def compute_investment(b: Builder) -> None:
    """Add the ``trustme_1981_investment`` tables (the investing round's ``statistics`` part): ``investment_rounds``
    (per round; what the variants are compared on), ``investment_by_row`` and ``investment_by_knowledge``, a chunk
    at a time as :func:`compute`'s (the per-round table on disk piece by piece; the seat tables' counts and
    moments by row and role in one pass)."""
    rounds = b.add_pieces("investment_rounds", _pieces(b, ROUND_COLUMNS, lambda v, r: investment_games(r)),
                          "One row per investing round",
                          "The per-round measures the variants are compared on (buying, divesting, the claimant's "
                          "gain).")
    b.set_comparisons(rounds, INVESTMENT_METRICS)
    # Neither seat table draws a bootstrap: one pass over the chunks feeds both.
    seats = b.accumulate_tables({"investment_by_row": lambda v, n: _by_row(v),
                                 "investment_by_knowledge": lambda v, n: _by_knowledge(v)},
                                tuple(dict.fromkeys((*ROUND_ROW_COLUMNS, *ROUND_ROLE_COLUMNS))))
    b.add("investment_by_row", seats["investment_by_row"],
          "Wealth change by payoff row and role",
          "Mean wealth change of a seat over the round (payoffs and, for the claimant, the reserve), by the payoff "
          "row revealed and the seat's role (claimant or investor, looked or not).", "t 95% over seats",
          {"change": "dollars", "payoff": "dollars"})
    b.add("investment_by_knowledge", seats["investment_by_knowledge"],
          "Shares bought and divested by role",
          "Per seat and role: shares bought and divested, the share of seats that bought or divested, and the wealth "
          "change.", "t 95% over seats for means, Wilson 95% for shares of seats", {"bought": "shares per seat"})
