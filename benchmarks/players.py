"""How competent are the players? Every probe and the search player against the heuristic line-up, per game and player
count, and the search player's seconds per decision.

Usage::

    python benchmarks/players.py [--games 400] [--search-games 60] [--budget N] [--only pinocchio2,...]
                                 [--vs-probes 60]

Each row: a challenger in one seat (seats rotating), the heuristic bots in the others; the challenger's win rate with
its 95% Wilson interval against the fair share. The heuristic is "trustworthy" when no probe beats it by more than 10
points; the search player is "competent" when its lower bound is above the fair share. The games are played through
the sweep machinery (a spec's ``[trust]`` table), so this is what a report's "Can these players be trusted?" page
shows. Seconds per decision are the CPU seconds of the search player's own decisions (``time.process_time``: one
core's time, which a busy shared machine does not inflate as it does the wall clock; the search player is
single-threaded).

With ``--vs-probes N`` it also plays the search player in one seat (seats rotating) against line-ups of each probe
(the probe in every other seat), N games each: rows "search vs <probe>", with the mean CPU seconds of the search
player's own decisions in those games.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel

# The search player's game against a probe line-up, as benchmarks/search_vs_probes.py plays it (this folder is on
# sys.path when a benchmark runs as a script).
from search_vs_probes import play as search_game

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis import results
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

GAMES = {
    "pinocchio2": ("trustme_pinocchio", {"players": 2}),
    "pinocchio3": ("trustme_pinocchio", {"players": 3}),
    "pinocchio4": ("trustme_pinocchio", {"players": 4}),
    "liar2": ("trustme_liar", {"players": 2}),
    "liar4": ("trustme_liar", {"players": 4}),
    "board1981_2": ("trustme_1981", {"players": 2}),
}

#: The search player's knobs besides the budget, per key (none: its defaults; Liar's worlds are dealt in its kernel
#: now, kernel_search, so one rollout per world costs no Python per world, and ``rollout = "auto"`` is the compiled
#: heuristic).
SEARCH_KNOBS: dict[str, dict] = {}


def seconds_per_decision(game_string: str, budget: int | None, decisions: int = 20, seed: int = 0,
                         knobs: dict | None = None) -> float:
    """Mean CPU seconds of the search player's decisions at positions of heuristic self-play (after one untimed
    decision that loads or compiles a kernel, a once-per-process cost)."""
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    heuristic = [make_bot(game, "heuristic", p, rng) for p in range(game.num_players())]
    state = game.new_initial_state()
    spent, made = 0.0, -1
    while made < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        p = state.current_player()
        if len(state.legal_actions()) > 1:
            bot = make_bot(game, "search", p, rng, budget=budget, **(knobs or {}))
            start = time.process_time()
            bot.step(state)
            if made >= 0:
                spent += time.process_time() - start
            made += 1
        state.apply_action(heuristic[p].step(state))
    return spent / made


def search_vs_probes(game_string: str, games: int, budget: int | None, workers: int,
                     knobs: dict | None = None) -> list[dict]:
    """The search player in one seat against a line-up of each probe (``games`` games each, seats rotating)."""
    game = pyspiel.load_game(game_string)
    rows = []
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for strategy in probe_strategies(game):
            out = pool.map(search_game, [(game_string, strategy, g, budget, knobs or {}) for g in range(games)])
            wins = sum(w for w, _, _ in out)
            interval = wilson(wins, games)
            rows.append({"challenger": f"search vs {strategy}", "games": games, "win_rate": wins / games,
                         "low": interval.low, "high": interval.high, "fair": 1 / game.num_players(),
                         "seconds": sum(s for _, s, _ in out) / max(sum(m for _, _, m in out), 1)})
    return rows


def trust_rows(name: str, game: str, params: dict, games: int, search_games: int, budget: int | None, workers: int,
               out: Path) -> list[dict]:
    """The trust table of the heuristic line-up of one game (probes with ``games``, search with ``search_games``)."""
    rows = []
    for label, trust in (("probes", {"games": games, "search": False}),
                         ("search", {"games": search_games, "probes": [],
                                     "search": {**({} if budget is None else {"budget": budget}),
                                                **SEARCH_KNOBS.get(name, {})}})):
        try:
            spec = parse_spec({"title": f"players benchmark {name}", "game": game, "params": params, "games": 1,
                               "seed": 7, "lineups": {"heuristic": {"seats": ["heuristic"]}}, "trust": trust})
            folder = out / f"{name}-{label}"
            run_sweep(spec, workers=workers, out=folder, report=False, quiet=True)
        except Exception as exc:  # noqa: BLE001  (a benchmark reports what failed and goes on)
            print(f"{name:12s} {label}: not measured ({type(exc).__name__}: {exc})")
            continue
        rows += results.load(folder)["trust"].to_dict("records")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per probe (seats rotate)")
    parser.add_argument("--search-games", type=int, default=60, help="games of the search player")
    parser.add_argument("--budget", type=int, default=None,
                        help="the search player's rollouts per decision (default: each game's default budget)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated keys of " + ", ".join(GAMES))
    parser.add_argument("--vs-probes", type=int, default=0, help="games of the search player against each probe's "
                        "line-up (0: not played)")
    args = parser.parse_args(argv)
    keys = [k for k in args.only.split(",") if k] or list(GAMES)
    print(f"{'game':12s} {'challenger':26s} {'games':>6s} {'win rate [95%]':>20s} {'fair':>5s} {'CPU s/dec':>10s}")
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            game, params = GAMES[key]
            string = str(pyspiel.load_game(game, params))
            try:
                secs = seconds_per_decision(string, args.budget, knobs=SEARCH_KNOBS.get(key))
            except ValueError as exc:  # no search player for this game yet
                print(f"{key:12s} search player unavailable: {exc}")
                secs = float("nan")
            rows = trust_rows(key, game, params, args.games, args.search_games, args.budget, args.workers, Path(tmp))
            if args.vs_probes:
                rows += search_vs_probes(string, args.vs_probes, args.budget, args.workers, SEARCH_KNOBS.get(key))
            for r in rows:
                interval = f"{100 * r['win_rate']:.0f}% [{100 * r['low']:.0f}, {100 * r['high']:.0f}]"
                timing = f"{secs:.3f}" if r["challenger"] == "search player" else ""
                timing = f"{r['seconds']:.3f}" if "seconds" in r else timing
                print(f"{key:12s} {r['challenger']:26s} {r['games']:6d} {interval:>20s} {100 * r['fair']:4.0f}% "
                      f"{timing:>10s}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
