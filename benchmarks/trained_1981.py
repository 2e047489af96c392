"""The targets of issue 28 for Trust Me (1981)'s trained player: one table, stage by stage.

Usage::

    python benchmarks/trained_1981.py [--stages exact,train,speed,heuristic,probes] [--out /tmp/trained_1981]
        [--seed 0] [--iterations 400000] [--reduced-iterations 1000000] [--probe-games 400] [--screen-games 100]
        [--kernel-games 4000] [--set KEY=VALUE ...]

Stages (``train`` runs, or finds stored, the full-game policy the later stages play):

- ``exact``: the trainer on the reduced variants of ``reports/solve_1981.toml`` (duel, three) and
  ``reports/solve_1981_lots.toml`` (four, duel_every_lot): the investing round alone, embedded in the board game's
  kernel (``kernel/training.py``), its policy evaluated exactly on the compiled tree (exploitability for 2 players,
  NashConv per player for 3 and 4; in % of the tree's utility range), beside CFR's (DCFR, ``--cfr-iterations``
  full-tree iterations) and the heuristic's. Both abstraction levels (``detail`` 0 and 1).
- ``train``: training CPU seconds for the full 2-player game at ``--iterations`` (detail 0).
- ``speed``: kernel games per CPU second with trained seats against random and heuristic seats, 2p.
- ``heuristic``: the heuristic in one seat against a trained seat, seats alternating, ``--kernel-games`` kernel
  games; and the trained seat against random.
- ``probes``: each probe of ``simple_strategies`` in one seat (rotating) against the trained line-up, screened on
  ``--screen-games`` games each, the best one measured on ``--probe-games`` fresh seeds (goal: its win rate <= fair
  share + 5 points). Played through the engine with the ``trained`` bot.

Training takes the trainer's defaults (``trustme_analysis.train.game_settings``: for the full game the heuristic's
prior, average-strategy opponents and ``beta = 1.5``; the investing round alone its own) but for ``--set`` fields
(the full game's training only; e.g. ``--set prior=0 --set opponents=current --set beta=0`` for plain MCCFR).

Win rates carry 95% Wilson intervals. A seat wins when its return is the best (win/loss utility; a tie of all seats
is no win).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

import numpy as np
import pyspiel

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr import evaluate
from trustme_analysis.games.board1981.kernel.investment import compile_tree
from trustme_analysis.games.board1981.kernel.kernel import Kernel
from trustme_analysis.games.board1981.kernel.training import INVESTMENT_TRAINER
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.players.trained import TrainedBot
from trustme_analysis.solve.profile import bots_policy
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.train import TrainSettings, game_settings, train

REDUCED = {
    "duel": "trustme_1981_investment(players=2,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/5/10,"
            "utility=wealth_diff)",
    "three": "trustme_1981_investment(players=3,payoff_mix=6/4/4/2,seen=50,money=5,shares=5,lots=1/5,utility=wealth)",
    "four": "trustme_1981_investment(players=4,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/2/5/10,"
            "utility=wealth)",
    "duel_every_lot": "trustme_1981_investment(players=2,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,"
                      "lots=1/2/3/4/5/6/7/8/9/10,utility=wealth_diff)",
}
FULL = "trustme_1981(players=2)"
#: ``--set`` fields for the full game's training (over the trainer's defaults).
EXTRA: dict[str, Any] = {}


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def stage_exact(seed: int, out: str, iterations: int, cfr_iterations: int, only: list[str] | None) -> None:
    print(f"\n## exact exploitability on the solve presets' variants ({iterations:,} training iterations)")
    print("| variant | metric | trained detail=1 | trained detail=0 | CFR (DCFR) | heuristic |")
    print("|---|---|---|---|---|---|")
    for name, gs in REDUCED.items():
        if only and name not in only:
            continue
        game = pyspiel.load_game(gs)
        cg = compile_tree(game, 10**8)
        n = cg.num_players
        span = float(cg.utilities.max() - cg.utilities.min())
        metric = evaluate.exploitability if n == 2 else evaluate.nash_conv
        per = 1 if n == 2 else n

        def share(value: float) -> str:
            return f"{value:.4f} ({pct(value / per / span)})"

        states = INVESTMENT_TRAINER.tree_states(cg)
        cells = []
        for detail in (1, 0):
            t0 = time.process_time()
            policy = train(game, game_settings(game, iterations=iterations, seed=seed, detail=detail), out)
            value = metric(cg, INVESTMENT_TRAINER.tree_policy(cg, policy.lookup(), states, detail=detail))
            cells.append(f"{share(value)}, {time.process_time() - t0:.0f} CPU s")
        t0 = time.process_time()
        solved = cfr.solve(cg, "dcfr", iterations=cfr_iterations).average
        cfr_cell = f"{share(metric(cg, solved))}, {cfr_iterations:,} it, {time.process_time() - t0:.0f} CPU s"
        bots = {p: make_bot(game, "heuristic", p, np.random.default_rng(0)) for p in range(n)}
        heuristic = metric(cg, bots_policy(cg, bots))
        label = "exploitability" if n == 2 else "NashConv (per player in %)"
        print(f"| {name} (range {span:g}) | {label} | {cells[0]} | {cells[1]} | {cfr_cell} | {share(heuristic)} |",
              flush=True)


def settings(iterations: int, seed: int) -> TrainSettings:
    """The full game's settings: the budget, the seed and ``--set``, else the trainer's defaults."""
    return game_settings(FULL, iterations=iterations, seed=seed, **EXTRA)


def stage_train(iterations: int, seed: int, out: str) -> None:
    print(f"\n## training CPU time, full game 2p ({iterations:,} iterations, detail 0)")
    policy = train(FULL, settings(iterations, seed), out, print)
    s = policy.summary
    print(f"| 1981 2p | {s['cpu_seconds']:.1f} CPU s | {s['slots']:,} slots | reused: {policy.reused} |", flush=True)


def kernel_duel(game, policy, kinds: tuple[str, str], games: int, seed: int) -> tuple[int, int]:
    """``kinds[0]`` against ``kinds[1]`` in kernel games, seats alternating; wins of ``kinds[0]``."""
    keys, avg = policy.lookup()
    wins = 0
    total = 0
    for seat in (0, 1):
        order = [kinds[0], kinds[1]] if seat == 0 else [kinds[1], kinds[0]]
        kern = Kernel(game, order, trained=(keys, avg, 0))
        played = kern.play(np.arange(games // 2, dtype=np.uint64) + np.uint64(seed + 10_000_000 * seat))
        for rows in played.rows():
            wins += int(rows[seat]["winner"] == seat)  # the sole richest seat (a shared top is no win)
            total += 1
    return wins, total


def stage_speed(iterations: int, seed: int, out: str) -> None:
    print("\n## kernel games per CPU second, 1981 2p")
    game = pyspiel.load_game(FULL)
    policy = train(game, settings(iterations, seed), out)
    keys, avg = policy.lookup()
    seeds = np.arange(4_000, dtype=np.uint64)
    rates = {}
    for label, kinds in (("random", ["random"]), ("heuristic", ["heuristic"]), ("trained", ["trained"])):
        k = Kernel(game, kinds, trained=(keys, avg, 0))
        k.play(seeds[:16])
        t0 = time.process_time()
        k.play(seeds)
        rates[label] = len(seeds) / (time.process_time() - t0)
    for label, r in rates.items():
        print(f"| {label} seats | {r:,.0f} games/CPU s | {pct(r / rates['random'])} of random |")


def fmt(wins: int, games: int, n: int) -> str:
    iv = wilson(wins, games)
    return (f"{100 * wins / games:.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}] (fair {100 / n:.1f}%, "
            f"{games} games)")


def stage_heuristic(iterations: int, seed: int, out: str, games: int) -> None:
    print("\n## kernel games against the trained seat, 1981 2p (seats alternating)")
    game = pyspiel.load_game(FULL)
    policy = train(game, settings(iterations, seed), out)
    for a, b in (("heuristic", "trained"), ("trained", "random"), ("heuristic", "random")):
        wins, m = kernel_duel(game, policy, (a, b), games, seed)
        print(f"| {a} vs {b} | {a}: {fmt(wins, m, 2)} |", flush=True)


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
    return returns[me] == max(returns) and returns[me] > min(returns)


def rate(game, seat_bot, others, seeds) -> tuple[int, int]:
    wins = sum(play(game, seat_bot, others, int(s)) for s in seeds)
    return wins, len(seeds)


def stage_probes(iterations: int, seed: int, out: str, screen: int, games: int) -> None:
    print("\n## best probe vs the trained line-up, 1981 2p (goal <= fair share + 5 points)")
    print("| screened (win rate each) | best probe, fresh seeds | CPU s |")
    print("|---|---|---|")
    game = pyspiel.load_game(FULL)
    n = game.num_players()
    chosen = settings(iterations, seed)
    train(game, chosen, out)
    t0 = time.process_time()

    def others(p, rng):
        return TrainedBot(game, p, rng, chosen, out)

    screened = {}
    for name in probe_strategies(game):
        wins, m = rate(game, lambda p, rng, s=name: make_bot(game, "probe", p, rng, strategy=s), others,
                       np.arange(screen) + 1_000_000)
        screened[name] = wins / m
        print(f"  screened {name}: {100 * wins / m:.0f}% of {m}", flush=True)
    best = max(screened, key=screened.get)
    wins, m = rate(game, lambda p, rng: make_bot(game, "probe", p, rng, strategy=best), others,
                   np.arange(games) + 2_000_000)
    cells = ", ".join(f"{k} {100 * v:.0f}%" for k, v in screened.items())
    print(f"| {cells} | {best}: {fmt(wins, m, n)} | {time.process_time() - t0:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default="exact,train,speed,heuristic,probes")
    parser.add_argument("--out", default="/tmp/trained_1981")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=400_000)
    parser.add_argument("--reduced-iterations", type=int, default=1_000_000)
    parser.add_argument("--cfr-iterations", type=int, default=1_000)
    parser.add_argument("--variants", default="", help="only these reduced variants (comma-separated)")
    parser.add_argument("--probe-games", type=int, default=400)
    parser.add_argument("--screen-games", type=int, default=100)
    parser.add_argument("--kernel-games", type=int, default=4_000)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a TrainSettings field for the full game's training (repeatable; e.g. prior=0)")
    args = parser.parse_args(argv)
    fields = {f.name for f in dataclasses.fields(TrainSettings)}
    for item in args.set:
        key, _, text = item.partition("=")
        if key not in fields or not text:
            print(f"--set {item!r} is not allowed; allowed: KEY=VALUE with KEY one of {', '.join(sorted(fields))}")
            return 2
        value: object = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        if text in ("true", "false"):
            value = text == "true"
        EXTRA[key] = value
    stages = args.stages.split(",")
    known = {"exact", "train", "speed", "heuristic", "probes"}
    if set(stages) - known:
        print(f"--stages={args.stages!r} is not allowed; allowed: a comma-separated list of {', '.join(sorted(known))}")
        return 2
    only = [v for v in args.variants.split(",") if v] or None
    if only and set(only) - set(REDUCED):
        print(f"--variants={args.variants!r} is not allowed; allowed: {', '.join(REDUCED)}")
        return 2
    if "exact" in stages:
        stage_exact(args.seed, args.out, args.reduced_iterations, args.cfr_iterations, only)
    if "train" in stages:
        stage_train(args.iterations, args.seed, args.out)
    if "speed" in stages:
        stage_speed(args.iterations, args.seed, args.out)
    if "heuristic" in stages:
        stage_heuristic(args.iterations, args.seed, args.out, args.kernel_games)
    if "probes" in stages:
        stage_probes(args.iterations, args.seed, args.out, args.screen_games, args.probe_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
