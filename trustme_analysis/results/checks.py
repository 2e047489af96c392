"""The tables that say how far a sweep's players can be trusted, from the sub-sweeps under ``OUTDIR/checks/``
(:mod:`trustme_analysis.sweep.checks` plays them): each challenger's win rate against each tested line-up, a verdict
per line-up, and the skill trace.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import binom

from trustme_analysis.outdir import load_records

from trustme_analysis.stats.balance import fair_share
from trustme_analysis.stats.intervals import CONFIDENCE, wilson
from trustme_analysis.stats.power import detectable_excess

CHECKS_DIR = "checks"
CHECKS_INDEX = "checks.json"
#: The family-wise level of the probes' one-sided tests (Holm over the probes of a variant).
ALPHA = 0.05

#: The verdict of the probes against a line-up, per tested variant: decided either way. ``exploitable``: a probe wins
#: more than its fair share (one-sided, Holm over the probes, 5%); ``holds``: none does, and the games would have
#: found a probe winning its fair share + the stated excess with 80% power.
VERDICTS = {
    "exploitable": "exploitable: a probe wins more than its fair share",
    "holds": "holds against every probe",
}


def verdict_text(row: Any) -> str:
    """The verdict of one ``trust_verdicts`` row in words: the probe and its margin when one beats the line-up, else
    the excess no probe reaches (at 80% power)."""
    if row["verdict"] == "exploitable":
        return (f"exploitable: {row['best_challenger']} wins {100 * (row['win_rate'] - row['fair']):.1f} points more "
                f"than its fair share [{100 * (row['low'] - row['fair']):.1f}, {100 * (row['high'] - row['fair']):.1f}]")
    if row["verdict"] == "holds":
        return (f"holds: no probe wins more than its fair share + {100 * row['detectable']:.1f} points (80% power)")
    return VERDICTS.get(str(row["verdict"]), str(row["verdict"]))


def search_text(row: Any) -> str:
    """The search challenger's figure in words ("a search player gains 13.0 [6.1, 20.2] points"), or "" when the
    check played none."""
    gain = row.get("search_gain") if hasattr(row, "get") else None
    if gain is None or gain != gain:
        return ""
    verb = "gains" if gain >= 0 else "loses"
    return (f"a search player {verb} {abs(100 * gain):.1f} points [{100 * row['search_low']:+.1f}, "
            f"{100 * row['search_high']:+.1f}] over its fair share ({int(row['search_games']):,} games)")


def load_index(outdir: str | Path) -> list[dict[str, Any]]:
    """The checks stored in ``outdir`` (empty when the spec asked for none)."""
    path = Path(outdir) / CHECKS_DIR / CHECKS_INDEX
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


def _challenger_rows(folder: Path, lineups: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per game: which challenger (and step), its seat, whether it won, and how many seats won the game
    (more than one where tied seats all count a win)."""
    records = load_records(folder)
    players = int(records["seat"].max()) + 1
    rows = []
    for name, role in lineups.items():
        games = records[records["lineup"] == name]
        winners = games.groupby("game_index", sort=False)["win"].sum()
        mine = games[games["seat"] == role["seat"]]
        for index, win in zip(mine["game_index"], mine["win"].astype(bool)):
            rows.append({**role, "lineup": name, "win": bool(win), "winners": int(winners[index]),
                         "players": players})
    return pd.DataFrame(rows)


def _fair(grp: pd.DataFrame) -> float:
    """The challenger's fair share over its games: as good as the seats against it, it wins as often as the mean
    number of winners per game over the seats (``stats.balance.fair_share``; 1 / players where a game has one
    winner)."""
    return fair_share(int(grp["winners"].sum()), len(grp), int(grp["players"].iloc[0]))


def trust_tables(outdir: str | Path, lineup_of: dict[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``trust`` (per tested variant and challenger: games, wins, win rate with its Wilson interval, fair share, edge)
    and ``trust_verdicts`` (per tested variant: the best challenger and the verdict)."""
    rows, verdicts = [], []
    for check in load_index(outdir):
        if check["kind"] != "trust":
            continue
        games = _challenger_rows(Path(outdir) / CHECKS_DIR / check["name"], check["lineups"])
        if games.empty:
            continue
        per_variant = []
        for challenger, grp in games.groupby("challenger", sort=False):
            kind = str(grp["kind"].iloc[0]) if "kind" in grp.columns and grp["kind"].notna().all() else (
                "search" if challenger == "search player" else "probe")
            row = challenger_row(check["variant"], lineup_of.get(check["variant"], ""), str(challenger), kind,
                                 int(grp["win"].sum()), len(grp), _fair(grp))
            rows.append(row)
            per_variant.append(row)
        verdicts.append(verdict_of(check["variant"], per_variant))
    trust = pd.DataFrame(rows, columns=["variant", "lineup", "challenger", "kind", "games", "wins", "win_rate", "low",
                                        "high", "fair", "edge", "p_value", "p_holm"])
    verdict_table = pd.DataFrame(verdicts, columns=VERDICT_COLUMNS)
    return trust, verdict_table


VERDICT_COLUMNS = ["variant", "lineup", "best_challenger", "games", "win_rate", "low", "high", "fair", "verdict",
                   "detectable", "probes", "search_games", "search_gain", "search_low", "search_high"]


def challenger_row(variant: str, lineup: str, challenger: str, kind: str, wins: int, games: int,
                   fair: float) -> dict[str, Any]:
    """One challenger's row of the ``trust`` table: its win rate with the Wilson interval, its edge over the fair
    share, and the one-sided p-value of "wins more than its fair share" (``p_holm`` is set by the verdict)."""
    est, low, high = wilson(wins, games, CONFIDENCE)
    return {"variant": variant, "lineup": lineup, "challenger": challenger, "kind": kind, "games": games,
            "wins": wins, "win_rate": est, "low": low, "high": high, "fair": fair, "edge": est - fair,
            # The chance of this many wins or more from a challenger that wins its fair share.
            "p_value": float(binom.sf(wins - 1, games, min(max(fair, 1e-12), 1 - 1e-12))), "p_holm": math.nan}


def verdict_of(variant: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One variant's verdict from its challengers' rows (each gains its Holm-adjusted ``p_holm``): the probes decide
    it, the search player's gain is its own figure."""
    probes = [r for r in rows if r["kind"] == "probe"]
    search = next((r for r in rows if r["kind"] == "search"), None)
    m = len(probes)
    # Holm's step-down adjusted p-values over the probes (monotone, capped at 1).
    running = 0.0
    for i, r in enumerate(sorted(probes, key=lambda r: r["p_value"])):
        running = max(running, min(1.0, (m - i) * r["p_value"]))
        r["p_holm"] = running
    out: dict[str, Any] = {"variant": variant, "lineup": rows[0]["lineup"] if rows else "", "probes": m,
                           "search_games": search["games"] if search else 0,
                           "search_gain": search["edge"] if search else math.nan,
                           "search_low": search["low"] - search["fair"] if search else math.nan,
                           "search_high": search["high"] - search["fair"] if search else math.nan}
    if not probes:
        best = search
        out.update(verdict="", detectable=math.nan)
    else:
        beating = [r for r in probes if r["p_holm"] <= ALPHA and r["edge"] > 0]
        if beating:
            best = max(beating, key=lambda r: (r["edge"], -r["p_holm"]))
            out.update(verdict="exploitable", detectable=math.nan)
        else:
            best = max(probes, key=lambda r: (r["edge"], r["win_rate"]))
            # The excess every probe's games would have found (80% power, Holm's first step over the probes).
            out.update(verdict="holds", detectable=max(detectable_excess(r["fair"], r["games"], tests=m)
                                                       for r in probes))
    if best is not None:
        out.update(best_challenger=best["challenger"], games=best["games"], win_rate=best["win_rate"], low=best["low"],
                   high=best["high"], fair=best["fair"])
    return out


def skill_tables(outdir: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``skill_trace`` (per rule variant and step: the stronger budget's win rate against the previous one) and
    ``skill_summary`` (per rule variant: skill vs luck, the mean over steps of (win rate - fair) / (1 - fair))."""
    rows, summary = [], []
    for check in load_index(outdir):
        if check["kind"] != "skill":
            continue
        games = _challenger_rows(Path(outdir) / CHECKS_DIR / check["name"], check["lineups"])
        if games.empty:
            continue
        edges, variances = [], []
        for step, grp in games.groupby("step", sort=True):
            fair = _fair(grp)
            wins, n = int(grp["win"].sum()), len(grp)
            est, low, high = wilson(wins, n, CONFIDENCE)
            rows.append({"variant": check["variant"], "step": int(step), "budget": int(grp["budget"].iloc[0]),
                         "previous": int(grp["previous"].iloc[0]), "games": n, "wins": wins, "win_rate": est,
                         "low": low, "high": high, "fair": fair})
            if fair >= 1.0:  # every game a tie of every seat: no skill can show
                edges.append(math.nan)
                variances.append(math.nan)
                continue
            edges.append((wins / n - fair) / (1 - fair))
            variances.append((wins / n) * (1 - wins / n) / n / (1 - fair) ** 2)
        value = float(np.mean(edges))
        half = 1.959963984540054 * math.sqrt(sum(variances)) / len(edges)
        summary.append({"variant": check["variant"], "steps": len(edges), "skill_vs_luck": value,
                        "low": value - half, "high": value + half})
    trace = pd.DataFrame(rows, columns=["variant", "step", "budget", "previous", "games", "wins", "win_rate", "low",
                                        "high", "fair"])
    return trace, pd.DataFrame(summary, columns=["variant", "steps", "skill_vs_luck", "low", "high"])
