"""Rule tuning: games spent by racing against an even grid to pick the best of the same candidates, and the time of
the Pinocchio preset.

Run: ``python benchmarks/tune.py [--games N] [--first F] [--workers W] [--only bonus|balance|preset]
[--preset-budget G]``.

**Racing vs an even grid.** The same candidate rule sets (Pinocchio, 4 players, 12 scoring charts, heuristic players)
are tuned twice by ``trustme_analysis.tune`` with every candidate proposed once (``sampler.kind = "grid"``, in the
same seeded order) and the same seed, so candidate ``c``'s games are the same games in both runs (common random
numbers): once with ``racing = "off"`` (the even grid: N games for every candidate), once with ``racing =
"interval"`` (looks after F, 2F, ... N games; a candidate stops when a finished one is better with confidence).
Both pick the candidate with the lowest loss among those played to N games, so the pick's interval is the same width
in both (the same confidence); the table says whether the picks agree, or are tied within the grid's own intervals.
Two objectives: the set-bonus share near 1/3 (a low-noise figure: most charts are far off) and the seat balance
(Ludii's Balance, a noisy figure at 4 players: few charts can be told apart). The reference is the grid's games.

**The Pinocchio preset.** ``reports/tune_pinocchio.toml`` with its budget cut to ``--preset-budget`` games (the
confirmation cut to 400 games per rule set, no sweep reports), timed from the command's start to its tuning report;
the reference is a plain sweep of the same number of games of the rulebook's rules on the same workers, in this
process, so the ratio is the tuning's overhead per game (results sets at every look, the study's database, the
report). The full preset's time is extrapolated from both.
"""

from __future__ import annotations

import argparse
import copy
import os
import tempfile
import time
import tomllib
from pathlib import Path

import pandas as pd

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec
from trustme_analysis.tune import tables
from trustme_analysis.tune.run import run_tuning
from trustme_analysis.tune.spec import parse_tune_spec

ROOT = Path(__file__).resolve().parents[1]

CHARTS = [
    [1, 3, 6, 10, 15, 21], [1, 2, 3, 4, 5, 6], [1, 2, 4, 7, 11, 16], [2, 4, 6, 8, 10, 12],
    [1, 3, 5, 7, 9, 11], [0, 1, 3, 6, 10, 15], [1, 2, 4, 8, 16, 32], [1, 4, 9, 16, 25, 36],
    [2, 3, 5, 8, 12, 17], [1, 3, 6, 9, 12, 15], [3, 5, 7, 9, 11, 13], [1, 2, 3, 5, 8, 13],
]

OBJECTIVES = {
    "bonus": {"name": "set-bonus share", "table": "chart_shares", "where": {"group": "all seats"},
              "column": "set_bonus_share", "target": 0.333},
    "balance": {"name": "seat balance", "table": "ludii_metrics", "where": {"metric": "Balance"}, "column": "value",
                "goal": "maximize"},
}


def race_spec(objective: dict, racing: str, games: int, first: int, chunk: int) -> dict:
    """The tuning spec over the 12 charts, every chart proposed once."""
    return {
        "title": f"benchmark: {objective['name']}, racing {racing}",
        "game": "trustme_pinocchio",
        "seed": 909,
        "params": {"players": 4},
        "lineups": {"heuristic": {"seats": [{"bot": "heuristic"}]}},
        "search": {"chart": {"choices": CHARTS}},
        "objective": [objective],
        "budget": {"games": games * len(CHARTS), "games_per_candidate": games, "first_rung": first,
                   "chunk_size": chunk, "racing": racing, "parallel": 1},
        "sampler": {"kind": "grid"},
    }


def tune(data: dict, out: Path, workers: int) -> tuple[pd.DataFrame, float, int]:
    spec = parse_tune_spec(data, name="bench")
    start = time.perf_counter()
    result = run_tuning(spec, workers=workers, out=out, confirm=False, report=False, quiet=True)
    return tables.load(out)["tune_trials"], time.perf_counter() - start, result.search.games_spent


def pick(trials: pd.DataFrame, games: int) -> pd.Series:
    full = trials[(trials["state"] == "complete") & (trials["games"] >= games)]
    return full.sort_values(["obj0_loss", "trial"]).iloc[0]


def race_vs_grid(which: str, games: int, first: int, chunk: int, workers: int, tmp: Path) -> None:
    objective = OBJECTIVES[which]
    grid, grid_s, grid_games = tune(race_spec(objective, "off", games, first, chunk), tmp / f"{which}-grid", workers)
    race, race_s, race_games = tune(race_spec(objective, "interval", games, first, chunk), tmp / f"{which}-race",
                                    workers)
    g, r = pick(grid, games), pick(race, games)
    tied = grid[(grid["obj0_loss_low"] <= g["obj0_loss_high"])]["rules"].tolist()
    print(f"\n{objective['name']} ({len(CHARTS)} charts, {games} games per candidate, race looks after "
          f"{', '.join(str(first * 2 ** k) for k in range(10) if first * 2 ** k < games)} and {games} games)")
    print(f"  {'run':<18}{'games':>8}{'seconds':>10}{'ratio (grid/run)':>18}  pick: loss [95%]")
    for name, n, s, p in (("even grid", grid_games, grid_s, g), ("racing", race_games, race_s, r)):
        print(f"  {name:<18}{n:>8}{s:>10.1f}{grid_games / n:>18.2f}  {p['rules']}: {p['obj0_loss']:.4f} "
              f"[{p['obj0_loss_low']:.4f}, {p['obj0_loss_high']:.4f}]")
    stopped = race[race["state"] == "stopped by the race"]
    print(f"  the race stopped {len(stopped)} of {len(race)} candidates early (games each: "
          f"{', '.join(str(x) for x in sorted(stopped['games']))}); same pick: "
          f"{'yes' if g['rules'] == r['rules'] else 'no'}"
          f"; race's pick among the grid's ties (intervals overlapping the grid's pick): "
          f"{'yes' if r['rules'] in tied else 'no'} ({len(tied)} tied)")


def preset_time(budget: int, workers: int, tmp: Path) -> None:
    data = tomllib.loads((ROOT / "reports" / "tune_pinocchio.toml").read_text(encoding="utf-8"))
    full = copy.deepcopy(data)
    data["budget"]["games"] = budget or data["budget"]["games"]
    data["confirm"] = {**data.get("confirm", {}), "games": 400, "reports": False}
    spec = parse_tune_spec(data, name="preset")
    start = time.perf_counter()
    result = run_tuning(spec, workers=workers, out=tmp / "preset", quiet=True)
    seconds = time.perf_counter() - start
    confirm_games = 400 * len(set(result.confirmed.values()))  # the rulebook may also be a recommended set
    games = result.search.games_spent + confirm_games
    # Reference: a plain sweep of as many games of the rulebook's rules, same workers, this process.
    ref = parse_spec(spec.candidate_data(spec.rulebook, games, out=tmp / "reference"), name="reference")
    ref_start = time.perf_counter()
    run_sweep(ref, workers=workers, report=False, quiet=True)
    ref_s = time.perf_counter() - ref_start
    print(f"\nPinocchio preset (reports/tune_pinocchio.toml, budget cut to {spec.budget.games} games, confirmation "
          f"400 games per rule set, no sweep reports), {workers} workers")
    print(f"  {'run':<34}{'games':>8}{'seconds':>10}{'games/s':>10}{'ratio':>8}")
    print(f"  {'plain sweep of the rulebook':<34}{games:>8}{ref_s:>10.1f}{games / ref_s:>10.1f}{1.0:>8.2f}")
    print(f"  {'tuning (search, confirm, report)':<34}{games:>8}{seconds:>10.1f}{games / seconds:>10.1f}"
          f"{ref_s / seconds:>8.2f}")
    print(f"  search: {result.search.trials_finished} trials, {result.search.games_spent} games; stopped: "
          f"{result.search.stopped}")
    full_games = full["budget"]["games"] + full["confirm"]["games"] * (1 + full["confirm"]["best"])
    print(f"  full preset ({full['budget']['games']} search games + up to {full_games - full['budget']['games']} "
          f"confirmation games) extrapolated: {full_games / (games / seconds) / 60:.1f} minutes on {workers} workers "
          "(plus its confirmation sweeps' reports)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=800, help="games per candidate (default 800)")
    parser.add_argument("--first", type=int, default=100, help="games at the race's first look (default 100)")
    parser.add_argument("--chunk", type=int, default=50, help="games per chunk (default 50)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=["bonus", "balance", "preset"], default=None)
    parser.add_argument("--preset-budget", type=int, default=4000,
                        help="search games of the timed preset (0: the preset's own budget)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-tune-") as tmp:
        for which in ("bonus", "balance"):
            if args.only in (None, which):
                race_vs_grid(which, args.games, args.first, args.chunk, args.workers, Path(tmp))
        if args.only in (None, "preset"):
            preset_time(args.preset_budget, args.workers, Path(tmp))


if __name__ == "__main__":
    main()
