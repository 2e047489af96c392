"""Computing a sweep's results set from its stored records: the generic tables every game gets, then the game's own
(its registry entry's ``statistics`` part), then the comparisons with the baseline and the headline findings.

Every statistic of a report is computed here, once; the report only draws. The order of the computations is fixed,
and the only randomness (bootstrap intervals) comes from one generator seeded by the sweep's seed, so the same
records always give the same tables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.players import make_bot
from trustme_analysis.registry import find_game
from trustme_analysis.results.checks import MARGIN, load_index, skill_tables, trust_tables
from trustme_analysis.results.table import ResultSet, Table
from trustme_analysis.stats.balance import equal_seats_test, games_table, ludii_metrics, seat_win_rates
from trustme_analysis.stats.compare import GameMetric, biggest_changes, compare_to_baseline
from trustme_analysis.stats.intervals import mean_t, wilson

#: Compared with the baseline when the game's statistics set no metrics of their own.
DEFAULT_METRICS = (
    GameMetric("first seat wins", "seat0_win", "rate", "share of games"),
    GameMetric("best score shared (tie-break)", "top_shared", "rate", "share of games"),
    GameMetric("turns per game", "turns", "mean", "turns"),
    GameMetric("lead changes", "lead_changes", "mean", "changes per game"),
)

#: Significant changes versus the baseline listed among the headline findings.
HEADLINE_CHANGES = 6


class Builder:
    """What a game's ``statistics`` part sees while a results set is computed.

    Attributes:
        manifest: the sweep's manifest.
        records: every stored record (one row per game and seat).
        games: the generic per-game table (:func:`trustme_analysis.stats.balance.games_table`).
        rng: the only randomness (bootstrap intervals), seeded from the sweep's seed.
        results: the results set being filled.
    """

    def __init__(self, manifest: dict[str, Any], records: pd.DataFrame, rng: np.random.Generator):
        self.manifest = manifest
        self.records = records
        self.rng = rng
        self.games = games_table(records)
        self.results = ResultSet(manifest=manifest)
        self.comparison_games: pd.DataFrame = _default_comparison_games(self.games)
        self.comparison_metrics: tuple[GameMetric, ...] = DEFAULT_METRICS

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with records, in order."""
        return sorted(self.records["variant"].unique())

    @property
    def baseline(self) -> str:
        """The baseline variant id (the manifest's, else the first variant)."""
        base = self.manifest.get("baseline")
        return base if base in self.variant_ids else self.variant_ids[0]

    def add(self, name: str, frame: pd.DataFrame, title: str, definition: str, interval: str = "",
            units: Mapping[str, str] | None = None) -> pd.DataFrame:
        """Add a table to the results set; returns ``frame`` (so a computation can go on from it)."""
        self.results.add(Table(name, frame, title, definition, interval, dict(units or {})))
        return frame

    def set_comparisons(self, games: pd.DataFrame, metrics: Sequence[GameMetric]) -> None:
        """Compare the variants with the baseline on the game's own per-game table and metrics."""
        self.comparison_games = games
        self.comparison_metrics = tuple(metrics)


def _default_comparison_games(games: pd.DataFrame) -> pd.DataFrame:
    out = games.copy()
    out["seat0_win"] = (out["winner"] == 0).astype(float)
    if "top_shared" in out.columns:
        out["top_shared"] = out["top_shared"].astype(float)
    return out


def records_key(outdir: str | Path) -> dict[str, Any] | None:
    """What identifies the records of ``outdir`` (the spec's fingerprint and every chunk file with its size), or
    ``None`` when no records are stored."""
    root = Path(outdir)
    files = sorted((root / RECORDS).glob("*/chunk-*.parquet"))
    if not files:
        return None
    # The checks' sub-sweeps (OUTDIR/checks/) feed the trust and skill tables.
    checks = sorted(root.glob(f"checks/*/{RECORDS}/*/chunk-*.parquet"))
    manifest = load_manifest(outdir)
    return {
        "fingerprint": manifest.get("fingerprint"),
        "chunks": [[str(f.relative_to(root)), f.stat().st_size] for f in files + checks],
    }


def compute(outdir: str | Path) -> ResultSet:
    """Every statistic of the sweep stored in ``outdir``, from its manifest and records (nothing is simulated).

    Raises:
        FileNotFoundError: ``outdir`` holds no sweep (no manifest or no records).
    """
    manifest = load_manifest(outdir)
    records = load_records(outdir)
    # Bootstrap intervals draw from a generator seeded by the sweep's own seed, so recomputing gives the same tables.
    rng = np.random.default_rng([int(manifest.get("seed", 0)), 0x5EED])
    b = Builder(manifest, records, rng)
    _variants(b)
    _balance(b)
    entry = find_game(str(manifest.get("game", "")))
    statistics = entry.part("statistics") if entry is not None else None
    if statistics is not None:
        statistics(b)
    comparisons = _comparisons(b)
    _what_differs(b, entry)
    _lineup_comparison(b)
    _checks(b, outdir)
    _headlines(b, comparisons)
    return b.results


def _variants(b: Builder) -> None:
    per_variant = b.games.groupby("variant").size().to_dict()
    known = {v.get("id"): v for v in b.manifest.get("variants", [])}
    rows = []
    for vid in b.variant_ids:
        v = known.get(vid, {})
        rows.append({
            "variant": vid,
            "label": str(v.get("label") or v.get("game_string") or vid),
            "game_string": str(v.get("game_string", "")),
            "lineup": str(v.get("lineup", "")),
            "players": int(b.games.loc[b.games["variant"] == vid, "seats"].iloc[0]),
            "games": int(per_variant.get(vid, 0)),
            "baseline": vid == b.baseline,
        })
    b.add("variants", pd.DataFrame(rows), "The variants played",
          "One row per variant (rule variant x line-up) with games stored; 'baseline' marks the variant the others "
          "are compared with.", units={"games": "games"})


def _balance(b: Builder) -> None:
    rates = seat_win_rates(b.records)
    b.add("seat_win_rates", rates, "Win rate per seat",
          "Share of games won from each seat (after tie-breaks); fair = 1 / players.", "Wilson 95%",
          {"win_rate": "share of games", "fair": "share of games"})
    b.add("equal_seats_test", equal_seats_test(b.records), "Chi-square test that every seat wins equally often",
          "Observed wins per seat against total wins / seats; first_seat_advantage = seat 0's win rate - 1/players.",
          units={"first_seat_advantage": "share of games"})
    b.add("ludii_metrics", ludii_metrics(b.records, b.rng, games=b.games), "Balance metrics (Ludii)",
          "Balance, AdvantageP1, Completion, Drawishness, Duration, LeadChange, Drama and Decisiveness per variant "
          "(definitions in the statistics guide).",
          "Wilson 95% for shares, t 95% for means, bootstrap 95% over games for Balance")
    b.add("games", b.games, "One row per game",
          "Winner (-1: shared), seats, turns and the score-trace metrics of every game.")


def _comparisons(b: Builder) -> pd.DataFrame:
    metrics = b.comparison_metrics if len(b.variant_ids) >= 2 else []
    comp = compare_to_baseline(b.comparison_games, metrics, b.baseline)
    b.add("comparisons", comp, f"Every variant against the baseline {b.baseline}",
          "Variant minus baseline on each per-game measure; p_holm adjusts the p-values over all comparisons "
          "(Holm); significant when p_holm < 0.05; effect = difference / the baseline's standard deviation.",
          "unadjusted 95%: Newcombe for shares of games, Welch for means")
    return comp


def _seat_reads(game: pyspiel.Game, seats: Any) -> tuple[str, ...] | None:
    """The scoring-only parameters any bot of a line-up reads (``None``: some bot may read any)."""
    entries = seats.get("pool", []) if isinstance(seats, dict) else list(seats or [])
    read: set[str] = set()
    for seat in entries:
        bot = make_bot(game, seat.get("bot", "random"), 0, np.random.default_rng(0), **(seat.get("knobs") or {}))
        if bot.reads is None:
            return None
        read |= set(bot.reads)
    return tuple(sorted(read))


def _what_differs(b: Builder, entry: Any) -> None:
    """For every variant: the rule parameters that set it apart from the baseline, and whether they only change the
    scoring and go unread by its players (then it is the same play as the baseline's, scored differently)."""
    variants = {str(v.get("id")): v for v in b.manifest.get("variants", [])}
    base = variants.get(b.baseline, {})
    scoring_only = set(entry.scoring_only) if entry is not None else set()
    rows = []
    for vid in b.variant_ids:
        v = variants.get(vid, {})
        params, base_params = v.get("params") or {}, base.get("params") or {}
        differs = sorted(k for k in set(params) | set(base_params) if params.get(k) != base_params.get(k))
        only_scoring = bool(differs) and set(differs) <= scoring_only and v.get("lineup") == base.get("lineup")
        read = None
        if only_scoring and v.get("game_string"):
            read = _seat_reads(pyspiel.load_game(str(v["game_string"])), v.get("seats"))
        unread = only_scoring and read is not None and not set(differs) & set(read)
        rows.append({"variant": vid, "differs_in": ", ".join(differs), "scoring_only": only_scoring,
                     "read_by_players": "" if read is None else ", ".join(read), "same_play": unread})
    b.add("variant_differences", pd.DataFrame(rows, columns=["variant", "differs_in", "scoring_only",
                                                             "read_by_players", "same_play"]),
          "What sets each variant apart from the baseline",
          "The rule parameters whose values differ from the baseline's; scoring_only: they change only how a "
          "finished game is scored (the game's declaration); same_play: and no player of the line-up reads them, so "
          "the variant's games are played as the baseline's would be and only the scoring differs (a difference in "
          "game length or play between them is then chance, not the rule).")


def _lineup_comparison(b: Builder) -> None:
    """With several line-ups: every compared measure of each rule variant under each line-up, side by side."""
    variants = b.manifest.get("variants", [])
    lineups = list(dict.fromkeys(str(v.get("lineup", "")) for v in variants))
    if len(lineups) < 2:
        return
    rows = []
    for v in variants:
        vid = v.get("id")
        games = b.comparison_games[b.comparison_games["variant"] == vid]
        if games.empty:
            continue
        rule = ", ".join(f"{k}={val}" for k, val in (v.get("grid") or {}).items()) or "the spec's rules"
        for metric in b.comparison_metrics:
            if metric.column not in games.columns:
                continue
            values = games[metric.column].to_numpy(dtype=float)
            values = values[~np.isnan(values)]
            if metric.kind == "rate":
                est, low, high = wilson(int(values.sum()), values.size)
            else:
                iv = mean_t(values)
                est, low, high = iv.estimate, iv.low, iv.high
            rows.append({"rules": rule, "lineup": str(v.get("lineup", "")), "variant": vid, "measure": metric.name,
                         "unit": metric.unit, "value": est, "low": low, "high": high, "games": int(values.size)})
    b.add("lineup_comparison", pd.DataFrame(rows), "Each measure under each line-up",
          "Per rule variant, the value of every compared measure under each line-up of players, side by side: a "
          "conclusion holds under competent play when it holds in the competent line-up's row.",
          "Wilson 95% for shares of games, t 95% for means")


def _checks(b: Builder, outdir: str | Path) -> None:
    """The challengers' win rates, the verdicts and the skill trace, when the spec asked for them."""
    if not load_index(outdir):
        return
    lineup_of = {str(v.get("id")): str(v.get("lineup", "")) for v in b.manifest.get("variants", [])}
    trust, verdicts = trust_tables(outdir, lineup_of)
    if len(trust):
        b.add("trust", trust, "Challengers against the line-ups",
              "Each challenger (a probe: one of the game's named fixed strategies; or the search player) sits in one "
              "seat, the line-up's own bots in the others, seats rotating; win rate = share of its games it won; "
              "fair = 1 / players; edge = win rate - fair.", "Wilson 95%",
              {"win_rate": "share of games", "fair": "share of games", "edge": "share of games"})
        b.add("trust_verdicts", verdicts, "Can these players be trusted?",
              f"Per tested variant, the challenger with the best lower bound. exploitable: its lower 95% bound beats "
              f"the fair share by more than {MARGIN:.0%}; no weakness found: every challenger's upper bound is within "
              f"{MARGIN:.0%} of the fair share; inconclusive otherwise.", "Wilson 95%",
              {"win_rate": "share of games"})
    trace, summary = skill_tables(outdir)
    if len(trace):
        b.add("skill_trace", trace, "Skill trace",
              "Search players of growing budget, each against the previous one (the stronger in one seat, seats "
              "rotating): the stronger's win rate at each step.", "Wilson 95%", {"win_rate": "share of games"})
        b.add("skill_summary", summary, "Skill vs luck",
              "Mean over the steps of (win rate - fair) / (1 - fair): 0 when more thinking never helps (luck), 1 when "
              "the stronger player always wins (skill).", "normal approximation 95%")


def _headlines(b: Builder, comparisons: pd.DataFrame) -> None:
    """The findings the first page states: the baseline's seat balance and measures, then the biggest changes."""
    rows: list[dict[str, Any]] = []
    base = b.baseline
    rates = b.results["seat_win_rates"]
    for r in rates[rates["variant"] == base].itertuples():
        rows.append({"kind": "seat", "variant": base, "measure": f"seat {r.seat} wins", "unit": "share of games",
                     "value": r.win_rate, "low": r.low, "high": r.high, "reference": r.fair, "p": math.nan,
                     "games": r.games})
    test = b.results["equal_seats_test"]
    test = test[test["variant"] == base]
    if len(test):
        rows.append({"kind": "balance test", "variant": base, "measure": "all seats win equally often",
                     "unit": "p-value", "value": float(test["p_value"].iloc[0]), "low": math.nan, "high": math.nan,
                     "reference": math.nan, "p": float(test["p_value"].iloc[0]), "games": int(test["games"].iloc[0])})
    games = b.comparison_games[b.comparison_games["variant"] == base]
    for metric in b.comparison_metrics:
        if metric.column not in games.columns:
            continue
        values = games[metric.column].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        if metric.kind == "rate":
            est, low, high = wilson(int(values.sum()), values.size)
        else:
            iv = mean_t(values)
            est, low, high = iv.estimate, iv.low, iv.high
        rows.append({"kind": "baseline", "variant": base, "measure": metric.name, "unit": metric.unit,
                     "value": est, "low": low, "high": high, "reference": math.nan, "p": math.nan,
                     "games": int(values.size)})
    if "trust_verdicts" in b.results:
        for r in b.results["trust_verdicts"].itertuples():
            rows.append({"kind": "trust", "variant": r.variant, "measure": f"{r.best_challenger} against {r.lineup}",
                         "unit": "share of games", "value": r.win_rate, "low": r.low, "high": r.high,
                         "reference": r.fair, "p": math.nan, "games": r.games, "verdict": r.verdict})
    top = biggest_changes(comparisons, limit=HEADLINE_CHANGES)
    for r in top[top["significant"].astype(bool)].itertuples() if len(top) else []:
        rows.append({"kind": "change", "variant": r.variant, "measure": r.metric, "unit": r.unit,
                     "value": r.difference, "low": r.low, "high": r.high, "reference": r.baseline_value,
                     "p": r.p_holm, "games": math.nan})
    columns = ["kind", "variant", "measure", "unit", "value", "low", "high", "reference", "p", "games", "verdict"]
    b.add("headlines", pd.DataFrame(rows, columns=columns), "Headline findings",
          "The baseline's seat win rates (reference: the fair rate), the chi-square test of equal seats (p-value), "
          "the baseline's value on every compared measure, and the significant changes versus the baseline "
          "(value: variant minus baseline; reference: the baseline's value; p: Holm-adjusted), and for each line-up "
          "tested, the strongest challenger's win rate (reference: the fair share) with the verdict.",
          "Wilson 95% for shares of games, t 95% for means; changes: Newcombe / Welch 95%")
