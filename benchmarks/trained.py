"""The targets of issue 28 for Pinocchio's trained player: one table, stage by stage.

Usage::

    python benchmarks/trained.py [--stages exact,train,speed,probes,search] [--out /tmp/trained_bench]
        [--seed 0] [--iterations 800000] [--probe-games 400] [--screen-games 100] [--search-games 200]

Stages (each prints its rows; ``train`` must have run, or runs, before ``speed``, ``probes`` and ``search``):

- ``exact``: the trainer on the reduced variants of ``reports/solve_pinocchio.toml`` (park_two, park_one) and
  ``reports/solve_pinocchio_three.toml`` (two_days), its policy evaluated exactly on the compiled tree
  (exploitability for 2 players, NashConv for 3; in % of the utility range, NashConv per player), beside CFR's
  (DCFR, 1,000 full-tree iterations) and the heuristic's. Both abstraction levels (``detail`` 0 and 1).
- ``train``: training CPU seconds per full variant (Pinocchio 2/3/4p) at ``--iterations`` (goal <= 120).
- ``speed``: kernel games per CPU second with trained seats against random seats, 2p, in this process (goal
  >= 25%).
- ``probes``: each probe in one seat (rotating) against the trained line-up; every probe is screened on
  ``--screen-games`` games, then the best one is measured on ``--probe-games`` fresh seeds (goal: its win rate <=
  fair share + 5 points).
- ``search``: the search player (budget 1,600) against the trained line-up, 2p, ``--search-games`` games (goal <=
  fair share + 10 points). Slow: about a CPU-second a game.

Win rates carry 95% Wilson intervals. A seat wins when it has the best return (Pinocchio's returns include the
tie-break chain).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr import evaluate
from trustme_analysis.games.pinocchio.kernel import kernel
from trustme_analysis.games.pinocchio.kernel.tree import compile_tree
from trustme_analysis.games.pinocchio.kernel.training import TRAINER
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.solve.profile import bots_policy
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.train import TrainSettings, train

REDUCED = {
    "park_two": "trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,"
                "chart=1/3/6,runouts_to_end=1)",
    "park_one": "trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=1,stacks=1/1/1,"
                "chart=1/3/6,runouts_to_end=1)",
    "two_days": "trustme_pinocchio(players=3,values=3,copies=2,park_size=2,stacks=1/1/1,chart=1/3/6,"
                "runouts_to_end=2)",
}
FULL = {"2p": "trustme_pinocchio(players=2)", "3p": "trustme_pinocchio(players=3)",
        "4p": "trustme_pinocchio(players=4)"}
REDUCED_ITERATIONS = 2_000_000


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def stage_exact(seed: int, out: str) -> None:
    print("\n## exact exploitability on the solve presets' variants (win/loss utility)")
    print("| variant | metric | trained detail=1 | trained detail=0 | CFR (DCFR 1,000 it) | heuristic |")
    print("|---|---|---|---|---|---|")
    for name, gs in REDUCED.items():
        game = pyspiel.load_game(gs)
        cg = compile_tree(game, 10**8)
        n = cg.num_players
        span = float(cg.utilities.max() - cg.utilities.min())
        metric = evaluate.exploitability if n == 2 else evaluate.nash_conv
        per = 1 if n == 2 else n  # NashConv per player for 3+

        def share(value: float) -> str:
            return f"{value:.4f} ({pct(value / per / span)})"

        states = TRAINER.tree_states(cg)
        cells = []
        for detail in (1, 0):
            t0 = time.process_time()
            policy = train(game, TrainSettings(iterations=REDUCED_ITERATIONS, seed=seed, detail=detail), out)
            value = metric(cg, TRAINER.tree_policy(cg, policy.lookup(), states, detail=detail))
            cells.append(f"{share(value)}, {time.process_time() - t0:.0f} CPU s")
        solved = cfr.solve(cg, "dcfr", iterations=1000).average
        bots = {p: make_bot(game, "heuristic", p, np.random.default_rng(0)) for p in range(n)}
        heuristic = metric(cg, bots_policy(cg, bots))
        label = "exploitability" if n == 2 else "NashConv (per player in %)"
        print(f"| {name} | {label} | {cells[0]} | {cells[1]} | {share(metric(cg, solved))} | {share(heuristic)} |")


def trained_settings(iterations: int, seed: int) -> TrainSettings:
    return TrainSettings(iterations=iterations, seed=seed)


def stage_train(iterations: int, seed: int, out: str) -> None:
    print(f"\n## training CPU time per full variant ({iterations:,} iterations, detail 0; goal <= 120 CPU s)")
    print("| variant | CPU s | slots stored | reused |")
    print("|---|---|---|---|")
    for label, gs in FULL.items():
        policy = train(gs, trained_settings(iterations, seed), out)
        s = policy.summary
        print(f"| Pinocchio {label} | {s['cpu_seconds']:.1f} | {s['slots']:,} | {policy.reused} |", flush=True)


def stage_speed(iterations: int, seed: int, out: str) -> None:
    print("\n## kernel games per CPU second, Pinocchio 2p (goal: trained >= 25% of random)")
    game = pyspiel.load_game(FULL["2p"])
    policy = train(game, trained_settings(iterations, seed), out)
    seeds = np.arange(20_000, dtype=np.uint64)
    rates = {}
    for label, k in (("random", kernel.Kernel(game, ["random"])),
                     ("heuristic", kernel.Kernel(game, ["heuristic"])),
                     ("trained", kernel.Kernel(game, ["trained"], trained=(*policy.lookup(), 0)))):
        k.play(seeds[:64])  # compile / load the cache first
        t0 = time.process_time()
        k.play(seeds)
        rates[label] = len(seeds) / (time.process_time() - t0)
    for label, r in rates.items():
        print(f"| {label} seats | {r:,.0f} games/CPU s | {pct(r / rates['random'])} of random |")


def play(game: pyspiel.Game, seat_bot, others, seed: int) -> bool:
    """One game, the challenger in seat ``seed % players``: whether it won."""
    n = game.num_players()
    rng = np.random.default_rng(seed)
    me = seed % n
    bots = [seat_bot(p, rng) if p == me else others(p, rng) for p in range(n)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    return returns[me] == max(returns)


def rate(game, seat_bot, others, seeds) -> tuple[int, int]:
    wins = sum(play(game, seat_bot, others, int(s)) for s in seeds)
    return wins, len(seeds)


def fmt(wins: int, games: int, n: int) -> str:
    iv = wilson(wins, games)
    return (f"{100 * wins / games:.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}] (fair {100 / n:.1f}%, "
            f"{games} games)")


def stage_probes(iterations: int, seed: int, out: str, screen: int, games: int) -> None:
    print("\n## best probe vs the trained line-up (goal <= fair share + 5 points)")
    print("| variant | screened (win rate each) | best probe, fresh seeds |")
    print("|---|---|---|")
    for label, gs in FULL.items():
        game = pyspiel.load_game(gs)
        n = game.num_players()
        train(game, trained_settings(iterations, seed), out)
        knobs = {"iterations": iterations, "seed": seed, "outdir": out}

        def others(p, rng):
            return make_bot(game, "trained", p, rng, **knobs)

        screened = {}
        for name in probe_strategies(game):
            wins, m = rate(game, lambda p, rng, s=name: make_bot(game, "probe", p, rng, strategy=s), others,
                           np.arange(screen) + 1_000_000)
            screened[name] = wins / m
        best = max(screened, key=screened.get)
        wins, m = rate(game, lambda p, rng: make_bot(game, "probe", p, rng, strategy=best), others,
                       np.arange(games) + 2_000_000)
        cells = ", ".join(f"{k} {100 * v:.0f}%" for k, v in screened.items())
        print(f"| Pinocchio {label} | {cells} | {best}: {fmt(wins, m, n)} |", flush=True)


def stage_search(iterations: int, seed: int, out: str, games: int) -> None:
    print("\n## search player (budget 1,600) vs the trained line-up (goal <= fair share + 10 points)")
    game = pyspiel.load_game(FULL["2p"])
    train(game, trained_settings(iterations, seed), out)
    knobs = {"iterations": iterations, "seed": seed, "outdir": out}
    t0 = time.process_time()
    wins, m = rate(game, lambda p, rng: make_bot(game, "search", p, rng, budget=1600),
                   lambda p, rng: make_bot(game, "trained", p, rng, **knobs), np.arange(games) + 3_000_000)
    print(f"| Pinocchio 2p | search-1600: {fmt(wins, m, 2)} | {time.process_time() - t0:.0f} CPU s |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default="exact,train,speed,probes,search")
    parser.add_argument("--out", default="/tmp/trained_bench")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=800_000)
    parser.add_argument("--probe-games", type=int, default=400)
    parser.add_argument("--screen-games", type=int, default=100)
    parser.add_argument("--search-games", type=int, default=200)
    args = parser.parse_args(argv)
    stages = args.stages.split(",")
    if "exact" in stages:
        stage_exact(args.seed, args.out)
    if "train" in stages:
        stage_train(args.iterations, args.seed, args.out)
    if "speed" in stages:
        stage_speed(args.iterations, args.seed, args.out)
    if "probes" in stages:
        stage_probes(args.iterations, args.seed, args.out, args.screen_games, args.probe_games)
    if "search" in stages:
        stage_search(args.iterations, args.seed, args.out, args.search_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
