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

from trustme_analysis.outdir import load_records
from trustme_analysis.stats.balance import fair_share
from trustme_analysis.stats.intervals import CONFIDENCE, wilson

CHECKS_DIR = "checks"
CHECKS_INDEX = "checks.json"
#: A challenger whose lower 95% bound beats the fair share by more than this has found a weakness.
MARGIN = 0.05

VERDICTS = {
    "exploitable": "exploitable: a challenger wins clearly more than its fair share",
    "no weakness found": "no challenger wins clearly more than its fair share",
    "inconclusive": "inconclusive: a challenger may win more than its fair share; play more games to tell",
}


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
            fair = _fair(grp)
            wins, n = int(grp["win"].sum()), len(grp)
            est, low, high = wilson(wins, n, CONFIDENCE)
            row = {"variant": check["variant"], "lineup": lineup_of.get(check["variant"], ""),
                   "challenger": challenger, "games": n, "wins": wins, "win_rate": est, "low": low, "high": high,
                   "fair": fair, "edge": est - fair}
            rows.append(row)
            per_variant.append(row)
        best = max(per_variant, key=lambda r: (r["low"], r["win_rate"]))
        if best["low"] > best["fair"] + MARGIN:
            verdict = "exploitable"
        elif all(r["high"] <= r["fair"] + MARGIN for r in per_variant):
            verdict = "no weakness found"
        else:
            verdict = "inconclusive"
        verdicts.append({"variant": check["variant"], "lineup": best["lineup"], "best_challenger": best["challenger"],
                         "games": best["games"], "win_rate": best["win_rate"], "low": best["low"],
                         "high": best["high"], "fair": best["fair"], "verdict": verdict})
    trust = pd.DataFrame(rows, columns=["variant", "lineup", "challenger", "games", "wins", "win_rate", "low", "high",
                                        "fair", "edge"])
    verdict_table = pd.DataFrame(verdicts, columns=["variant", "lineup", "best_challenger", "games", "win_rate",
                                                    "low", "high", "fair", "verdict"])
    return trust, verdict_table


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
