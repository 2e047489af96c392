"""The targets of issue 28 for Liar's trained player: one table, stage by stage.

Usage::

    python benchmarks/trained_liar.py [--stages exact,train,speed,heuristic,probes] [--out /tmp/trained_liar]
        [--seed 0] [--iterations 2000000] [--reduced-iterations 2000000] [--probe-games 400] [--screen-games 100]
        [--kernel-games 4000] [--variants 2p,4p]

Stages (``train`` runs, or finds stored, the full-game policies the later stages read):

- ``exact``: the trainer on the reduced variants of ``reports/solve_liar.toml`` (tiny_plays2, tiny_plays2_trustme)
  and ``reports/solve_liar_long.toml`` (long), its policy evaluated exactly on the compiled tree (exploitability,
  two players; in % of the utility range) beside CFR's (DCFR, full tree) and the heuristic's, at both abstraction
  levels (``detail`` 1 and 0).
- ``train``: training CPU seconds per full variant (Liar 2 and 4 players) at ``--iterations`` (``detail`` 0).
- ``speed``: kernel games per CPU second with trained seats against random seats, in this process.
- ``heuristic``: in the kernel, one trained seat against heuristic seats and one heuristic seat against trained
  seats (``--kernel-games`` games, seats rotating), and the trained line-up against random seats.
- ``probes``: each probe in one seat (rotating) against the trained line-up (engine games, the trained bot);
  every probe is screened on ``--screen-games`` games, then the best one is measured on ``--probe-games`` fresh
  seeds (goal: its win rate <= fair share + 5 points).

Win rates carry 95% Wilson intervals. A seat wins when it has the best return (a tie at the top counts for each
seat in it).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr import evaluate
from trustme_analysis.games.liar.kernel.kernel import Kernel
from trustme_analysis.games.liar.kernel.training import TRAINER
from trustme_analysis.games.liar.kernel.tree import compile_tree
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.solve.profile import bots_policy
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.train import TrainSettings, game_settings, train

REDUCED = {
    "tiny_plays2": "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,first_player=seat0)",
    "tiny_plays2_trustme": ("trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,mode=trustme,"
                            "first_player=seat0)"),
    "long": "trustme_liar(players=2,values=3,copies=4,max_play=2,max_turns=8)",
}
FULL = {"2p": "trustme_liar(players=2)", "4p": "trustme_liar(players=4)"}
CFR_ITERATIONS = {"tiny_plays2": 1000, "tiny_plays2_trustme": 1000, "long": 300}


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def stage_exact(seed: int, out: str, iterations: int) -> None:
    print(f"\n## exact exploitability on the solve presets' variants ({iterations:,} iterations)")
    print("| variant | utility range | trained detail=1 | trained detail=0 | CFR (DCFR) | heuristic |")
    print("|---|---|---|---|---|---|")
    for name, gs in REDUCED.items():
        game = pyspiel.load_game(gs)
        cg = compile_tree(game, 10**8)
        n = cg.num_players
        span = float(cg.utilities.max() - cg.utilities.min())
        metric = evaluate.exploitability if n == 2 else evaluate.nash_conv
        per = 1 if n == 2 else n

        def share(value: float) -> str:
            return f"{value:.4f} ({pct(value / per / span)})"

        states = TRAINER.tree_states(cg)
        cells = []
        for detail in (1, 0):
            policy = train(game, game_settings(game, iterations=iterations, seed=seed, detail=detail), out)
            value = metric(cg, TRAINER.tree_policy(cg, policy.lookup(), states, detail=detail))
            cells.append(f"{share(value)}, {policy.summary['cpu_seconds']:.0f} CPU s")
        k = CFR_ITERATIONS[name]
        solved = cfr.solve(cg, "dcfr", iterations=k).average
        bots = {p: make_bot(game, "heuristic", p, np.random.default_rng(0)) for p in range(n)}
        heuristic = metric(cg, bots_policy(cg, bots))
        print(f"| {name} | {span:g} | {cells[0]} | {cells[1]} | {share(metric(cg, solved))} ({k:,} it) | "
              f"{share(heuristic)} |", flush=True)


def settings(iterations: int, seed: int) -> TrainSettings:
    """The full games' settings: the budget and seed, else the trainer's defaults."""
    return game_settings("trustme_liar", iterations=iterations, seed=seed)


def stage_train(iterations: int, seed: int, out: str) -> None:
    print(f"\n## training CPU time per full variant ({iterations:,} iterations, detail 0)")
    print("| variant | CPU s | slots stored | reused |")
    print("|---|---|---|---|")
    for label, gs in FULL.items():
        policy = train(gs, settings(iterations, seed), out)
        s = policy.summary
        print(f"| Liar {label} | {s['cpu_seconds']:.1f} | {s['slots']:,} | {policy.reused} |", flush=True)


def stage_speed(iterations: int, seed: int, out: str) -> None:
    print("\n## kernel games per CPU second (trained vs random seats)")
    for label, gs in FULL.items():
        game = pyspiel.load_game(gs)
        policy = train(game, settings(iterations, seed), out)
        seeds = np.arange(4000, dtype=np.uint64)
        rates = {}
        for kind in ("random", "heuristic", "trained"):
            k = Kernel(game, [kind], trained=(*policy.lookup(), 0))
            k.play(seeds[:16])
            t0 = time.process_time()
            k.play(seeds)
            rates[kind] = len(seeds) / (time.process_time() - t0)
        cells = ", ".join(f"{kind} {r:,.0f} ({pct(r / rates['random'])})" for kind, r in rates.items())
        print(f"| Liar {label} | {cells} |", flush=True)


def kernel_rate(game, policy, me_kind: str, other: str, games: int, base: int) -> tuple[int, int]:
    """Wins of one ``me_kind`` seat among ``other`` seats in ``games`` kernel games, the seat rotating (an equal
    share of the games in each seat, seeds ``base ...``)."""
    n = game.num_players()
    per = games // n
    wins = 0
    for me in range(n):
        kinds = [other] * n
        kinds[me] = me_kind
        k = Kernel(game, kinds, trained=(*policy.lookup(), 0))
        seeds = np.arange(base + me * per, base + (me + 1) * per, dtype=np.uint64)
        wins += sum(int(g[me]["win"]) for g in k.play(seeds).rows())
    return wins, n * per


def fmt(wins: int, games: int, n: int) -> str:
    iv = wilson(wins, games)
    return (f"{100 * wins / games:.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}] (fair {100 / n:.1f}%, "
            f"{games} games)")


def stage_heuristic(iterations: int, seed: int, out: str, games: int) -> None:
    print(f"\n## trained and heuristic seats in the kernel ({games:,} games each, seats rotating)")
    print("| variant | one trained seat vs heuristic seats | one heuristic seat vs trained seats | "
          "one trained seat vs random seats |")
    print("|---|---|---|---|")
    for label, gs in FULL.items():
        game = pyspiel.load_game(gs)
        n = game.num_players()
        policy = train(game, settings(iterations, seed), out)
        cells = [fmt(*kernel_rate(game, policy, a, b, games, 10_000_000 * (i + 1)), n)
                 for i, (a, b) in enumerate((("trained", "heuristic"), ("heuristic", "trained"),
                                            ("trained", "random")))]
        print(f"| Liar {label} | " + " | ".join(cells) + " |", flush=True)


def play(game: pyspiel.Game, seat_bot, others, seed: int) -> bool:
    """One engine game, the challenger in seat ``seed % players``: whether it won."""
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


def stage_probes(iterations: int, seed: int, out: str, screen: int, games: int) -> None:
    print("\n## best probe vs the trained line-up (goal <= fair share + 5 points)")
    print("| variant | screened (win rate each) | best probe, fresh seeds | CPU s |")
    print("|---|---|---|---|")
    for label, gs in FULL.items():
        game = pyspiel.load_game(gs)
        n = game.num_players()
        train(game, settings(iterations, seed), out)
        knobs = {"iterations": iterations, "seed": seed, "outdir": out}
        t0 = time.process_time()

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
        print(f"| Liar {label} | {cells} | {best}: {fmt(wins, m, n)} | {time.process_time() - t0:.0f} |",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default="exact,train,speed,heuristic,probes")
    parser.add_argument("--out", default="/tmp/trained_liar")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=2_000_000)
    parser.add_argument("--reduced-iterations", type=int, default=2_000_000)
    parser.add_argument("--probe-games", type=int, default=400)
    parser.add_argument("--screen-games", type=int, default=100)
    parser.add_argument("--kernel-games", type=int, default=4000)
    parser.add_argument("--variants", default=",".join(FULL), help="full variants of the later stages: 2p,4p")
    args = parser.parse_args(argv)
    chosen = args.variants.split(",")
    unknown = sorted(set(chosen) - set(FULL))
    if unknown:
        parser.error(f"--variants {args.variants!r}: unknown {unknown}; allowed: {', '.join(FULL)}")
    for label in list(FULL):
        if label not in chosen:
            del FULL[label]
    stages = args.stages.split(",")
    if "exact" in stages:
        stage_exact(args.seed, args.out, args.reduced_iterations)
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
