"""The targets of issue 28 for the trained players, game by game: one table, stage by stage.

Usage::

    python benchmarks/trained.py [--stages exact,train,speed,probes,search] [--games trustme_pinocchio,...]
        [--variants 2p,3p] [--out /tmp/trained_bench] [--seed 0] [--iterations 800000] [--reduced-iterations 8000000]
        [--probe-games 400] [--screen-games 1000] [--search-games 200]

It walks the registry's games whose kernel entry has a ``trained`` part (:class:`trustme_analysis.train.GameTrainer`;
games without one are listed as skipped), each with its full variants (:data:`FULL_VARIANTS`) and the ``[[solve]]``
sections of its solve presets (``reports/solve_*.toml``). Stages (each prints its rows; ``train`` runs first
wherever a later stage needs a policy):

- ``exact``: the trainer on every solve preset's variant, its policy evaluated exactly on the compiled tree
  (exploitability for 2 players, NashConv for more; in % of the utility range, NashConv per player), beside CFR's
  (DCFR, 1,000 full-tree iterations) and the heuristic's, at every abstraction level the trainer names
  (``detail_levels``, default ``(0,)``).
- ``train``: training CPU seconds per full variant at ``--iterations`` and ``--shaping`` (goal <= 120); the
  full-game stages below play these policies.
- ``speed``: kernel games per CPU second with trained seats against random seats, 2 players, in this process (goal
  >= 25%), where the game's kernel takes ``trained=``.
- ``probes``: each probe (the game's simple strategies) in one seat, rotating, against the trained line-up. The
  probes are screened on ``--screen-games`` games each (in the kernel where the trainer offers ``screen_probes``,
  else by the Python bots), then the best one is measured by the Python bots on ``--probe-games`` fresh seeds
  (goal: its win rate <= fair share + 5 points).
- ``stronger``: the search player over the trained policy (``--stronger-budget``, its rollouts played by the
  trained policy; the default report's stronger line-up) against the trained line-up, ``--search-games`` games,
  where the game's kernel plays trained rollouts; ``--stronger-belief on|off`` overrides the game's default belief
  (Liar's is off over trained rollouts).
- ``search``: the search player (budget 1,600) against the trained line-up, ``--search-games`` games, on every
  full variant ``--variants`` keeps (goal <= fair share + 10 points). Slow: about a CPU-second a game.

Win rates carry 95% Wilson intervals; the challenger's seat rotates. A seat wins when it has the best return. The
last table is the issue's targets, filled with what this run measured.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import tomllib
from pathlib import Path

import numpy as np
import pyspiel

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr import evaluate
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.registry import find_game, game_names
from trustme_analysis.solve.profile import bots_policy
from trustme_analysis.solve.run import tree_producer
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.train import TrainSettings, game_settings, train, trainer_for

#: The full variants of each game the targets name (label -> game string); games not listed get their default.
FULL_VARIANTS = {
    "trustme_pinocchio": {"2p": "trustme_pinocchio(players=2)", "3p": "trustme_pinocchio(players=3)",
                          "4p": "trustme_pinocchio(players=4)"},
    "trustme_liar": {"2p": "trustme_liar(players=2)", "4p": "trustme_liar(players=4)"},
    "trustme_1981": {"2p": "trustme_1981(players=2)"},
}
REPORTS = Path(__file__).resolve().parent.parent / "reports"


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def trained_games(only: list[str] | None) -> list[str]:
    """Short names of the registered games with a trainer (those of ``only`` when given); prints the others."""
    out = []
    for name in game_names():
        if only and name not in only:
            continue
        entry = find_game(name)
        if entry is None or entry.kernel is None or entry.kernel.trained is None:
            print(f"(skipped {name}: no trained part in its kernel entry)")
            continue
        out.append(name)
    return out


def solve_presets(short: str) -> list[tuple[str, str, str]]:
    """``(preset file, section name, game string)`` of every ``[[solve]]`` section of ``reports/solve_*.toml``
    whose game is ``short``."""
    out = []
    for path in sorted(REPORTS.glob("solve_*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for section in data.get("solve", []):
            gs = section.get("game") or data.get("game")
            if gs and pyspiel.load_game(gs).get_type().short_name == short:
                out.append((path.name, section.get("name", "?"), gs))
    return out


class Results:
    """The figures the targets table reads, collected while the stages run."""

    def __init__(self):
        self.exact: list[tuple[str, str, int, float]] = []  # game, variant, detail, share of the range
        self.train: dict[tuple[str, str], float] = {}
        self.speed: dict[str, float] = {}
        self.probes: dict[tuple[str, str], tuple[str, float, float, float, int]] = {}
        self.search: dict[tuple[str, str], tuple[float, float, float, int]] = {}


def stage_exact(short: str, seed: int, out: str, iterations: int, res: Results) -> None:
    print(f"\n## {short}: exact exploitability on the solve presets' variants")
    trainer = trainer_for(pyspiel.load_game(short))
    levels = tuple(getattr(trainer, "detail_levels", (0,)))
    heads = " | ".join(f"trained detail={d}" for d in levels)
    print(f"| preset | variant | metric | {heads} | CFR (DCFR 1,000 it) | heuristic |")
    print("|---|---|---|" + "---|" * len(levels) + "---|---|")
    for preset, name, gs in solve_presets(short):
        game = pyspiel.load_game(gs)
        produce, _ = tree_producer(game)
        cg = produce(game, 10**8) if produce is not None else cfr.compile_game(game, max_histories=10**8)
        n = cg.num_players
        span = float(cg.utilities.max() - cg.utilities.min())
        metric = evaluate.exploitability if n == 2 else evaluate.nash_conv
        per = 1 if n == 2 else n

        def share(value: float) -> str:
            return f"{value:.4f} ({pct(value / per / span)})"

        states = trainer.tree_states(cg) if hasattr(trainer, "tree_states") else None
        cells = []
        for detail in levels:
            t0 = time.process_time()
            policy = train(game, game_settings(game, **{**knobs_for(iterations, seed), "detail": detail}), out)
            kw = {"states": states} if states is not None else {}
            value = metric(cg, trainer.tree_policy(cg, policy.lookup(), detail=detail, **kw))
            res.exact.append((short, name, detail, value / per / span))
            cells.append(f"{share(value)}, {time.process_time() - t0:.0f} CPU s")
        solved = cfr.solve(cg, "dcfr", iterations=1000).average
        try:
            bots = {p: make_bot(game, "heuristic", p, np.random.default_rng(0)) for p in range(n)}
            heuristic = share(metric(cg, bots_policy(cg, bots)))
        except (ValueError, KeyError) as exc:  # a game without a heuristic bot
            heuristic = f"({exc})"
        label = "exploitability" if n == 2 else "NashConv (per player in %)"
        print(f"| {preset} | {name} | {label} | {' | '.join(cells)} | {share(metric(cg, solved))} | {heuristic} |",
              flush=True)


#: The full games' training knobs beyond budget and seed (``--shaping``: TrainSettings.shaping; none given: each
#: game's trainer's defaults, ``trustme_analysis.train.game_settings``).
EXTRA: dict = {}


def knobs_for(iterations: int, seed: int) -> dict:
    return {"iterations": iterations, "seed": seed, **EXTRA}


def settings(game, iterations: int, seed: int) -> TrainSettings:
    return game_settings(game, **knobs_for(iterations, seed))


def stage_train(short: str, iterations: int, seed: int, out: str, res: Results) -> None:
    print(f"\n## {short}: training CPU time per full variant ({iterations:,} iterations, detail 0; goal <= 120 CPU s)")
    print("| variant | CPU s | slots stored | reused |")
    print("|---|---|---|---|")
    for label, gs in FULL_VARIANTS.get(short, {"default": short}).items():
        policy = train(gs, settings(gs, iterations, seed), out)
        s = policy.summary
        res.train[(short, label)] = s["cpu_seconds"]
        print(f"| {label} | {s['cpu_seconds']:.1f} | {s['slots']:,} | {policy.reused} |", flush=True)


def two_player(short: str) -> str | None:
    for label, gs in FULL_VARIANTS.get(short, {}).items():
        if pyspiel.load_game(gs).num_players() == 2:
            return gs
    return None


def stage_speed(short: str, iterations: int, seed: int, out: str, res: Results) -> None:
    gs = two_player(short)
    if gs is None:
        return
    print(f"\n## {short}: kernel games per CPU second, 2 players (goal: trained >= 25% of random)")
    game = pyspiel.load_game(gs)
    entry = find_game(short)
    policy = train(game, settings(game, iterations, seed), out)
    kernel_class = entry.kernel_part("kernel")
    seeds = np.arange(20_000, dtype=np.uint64)
    rates = {}
    for label in ("random", "heuristic", "trained"):
        try:
            if label == "trained":
                k = kernel_class(game, ["trained"], trained=(*policy.lookup(), 0))
            else:
                k = kernel_class(game, [label])
        except (TypeError, ValueError) as exc:
            print(f"| {label} seats | not in the kernel: {exc} |")
            continue
        k.play(seeds[:64])  # compile / load the cache first
        t0 = time.process_time()
        k.play(seeds)
        rates[label] = len(seeds) / (time.process_time() - t0)
    for label, r in rates.items():
        print(f"| {label} seats | {r:,.0f} games/CPU s | {pct(r / rates['random'])} of random |")
    if "trained" in rates:
        res.speed[short] = rates["trained"] / rates["random"]


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


def stage_probes(short: str, iterations: int, seed: int, out: str, screen: int, games: int, res: Results) -> None:
    print(f"\n## {short}: best probe vs the trained line-up (goal <= fair share + 5 points)")
    print("| variant | screened (win rate each) | best probe, fresh seeds, Python bots |")
    print("|---|---|---|")
    for label, gs in FULL_VARIANTS.get(short, {"default": short}).items():
        game = pyspiel.load_game(gs)
        n = game.num_players()
        trainer = trainer_for(game)
        policy = train(game, settings(game, iterations, seed), out)
        knobs = {**knobs_for(iterations, seed), "outdir": out}

        def others(p, rng):
            return make_bot(game, "trained", p, rng, **knobs)

        names = list(probe_strategies(game))
        screened = {}
        where = "Python"
        heuristic = ""
        if hasattr(trainer, "screen_probes"):
            screened = trainer.screen_probes(game, policy.lookup(), names + ["heuristic"], screen, seed=1_000_000)
            where = "kernel"
            if "heuristic" in screened:
                heuristic = f"; the heuristic in one seat: {100 * screened.pop('heuristic'):.1f}%"
        for name in names:
            if name not in screened:  # what the kernel does not play: the Python bots
                wins, m = rate(game, lambda p, rng, s=name: make_bot(game, "probe", p, rng, strategy=s), others,
                               np.arange(screen) + 1_000_000)
                screened[name] = wins / m
        best = max(screened, key=screened.get)
        wins, m = rate(game, lambda p, rng: make_bot(game, "probe", p, rng, strategy=best), others,
                       np.arange(games) + 2_000_000)
        iv = wilson(wins, m)
        res.probes[(short, label)] = (best, wins / m, iv.low, iv.high, n)
        cells = ", ".join(f"{k} {100 * v:.1f}%" for k, v in screened.items())
        print(f"| {label} | ({where}, {screen} games each) {cells}{heuristic} | {best}: {fmt(wins, m, n)} |",
              flush=True)


def stage_search(short: str, iterations: int, seed: int, out: str, games: int, res: Results) -> None:
    """The search player (budget 1,600) in one seat, rotating, against the trained line-up of every full variant
    kept by ``--variants``."""
    print(f"\n## {short}: search player (budget 1,600) vs the trained line-up (goal <= fair share + 10 points)")
    for label, gs in FULL_VARIANTS.get(short, {"default": short}).items():
        game = pyspiel.load_game(gs)
        n = game.num_players()
        train(game, settings(game, iterations, seed), out)
        knobs = {**knobs_for(iterations, seed), "outdir": out}
        t0 = time.process_time()
        wins, m = rate(game, lambda p, rng: make_bot(game, "search", p, rng, budget=1600),
                       lambda p, rng: make_bot(game, "trained", p, rng, **knobs), np.arange(games) + 3_000_000)
        iv = wilson(wins, m)
        res.search[(short, label)] = (wins / m, iv.low, iv.high, n)
        print(f"| {label} | search-1600: {fmt(wins, m, n)} | {time.process_time() - t0:.0f} CPU s |", flush=True)


def stage_stronger(short: str, iterations: int, seed: int, out: str, games: int, budget: int,
                   belief: bool | None = None) -> None:
    """The search player over the trained policy (its rollouts play the trained policy in every seat; the default
    report's stronger line-up) in one seat against the trained line-up: how much stronger it is."""
    gs = two_player(short)
    if gs is None:
        return
    game = pyspiel.load_game(gs)
    said = "the game's default" if belief is None else ("on" if belief else "off")
    print(f"\n## {short}: search player over the trained policy (budget {budget:,}, belief {said}) vs the trained "
          "line-up")
    train(game, settings(game, iterations, seed), out)
    knobs = {**knobs_for(iterations, seed), "outdir": out}
    t0 = time.process_time()
    wins, m = rate(game, lambda p, rng: make_bot(game, "search", p, rng, budget=budget, rollout="trained",
                                                 rollout_knobs=knobs, belief=belief),
                   lambda p, rng: make_bot(game, "trained", p, rng, **knobs), np.arange(games) + 4_000_000)
    print(f"| 2p | search-{budget} over trained: {fmt(wins, m, 2)} | {time.process_time() - t0:.0f} CPU s |",
          flush=True)


def targets(res: Results) -> None:
    """The issue's targets table, filled with this run's figures (blank where a stage did not run)."""
    print("\n## issue 28 targets (this run)")
    print("| figure | goal | measured | met |")
    print("|---|---|---|---|")

    def row(figure, goal, measured, met):
        print(f"| {figure} | {goal} | {measured} | {'yes' if met else 'NO'} |")

    for short, name, detail, share in res.exact:
        row(f"exact, {short} {name}, detail={detail}", "<= 3% of the range", pct(share), share <= 0.03)
    for (short, label), (best, r, lo, hi, n) in res.probes.items():
        fair = 1 / n
        row(f"best probe vs trained, {short} {label}", f"<= {100 * (fair + 0.05):.1f}%",
            f"{best}: {100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]", r <= fair + 0.05)
    for (short, label), (r, lo, hi, n) in res.search.items():
        fair = 1 / n
        row(f"search-1600 vs trained, {short} {label}", f"<= {100 * (fair + 0.10):.1f}%",
            f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]", r <= fair + 0.10)
    for short, ratio in res.speed.items():
        row(f"trained/random kernel games/s, {short} 2p", ">= 25%", pct(ratio), ratio >= 0.25)
    for (short, label), cpu in res.train.items():
        row(f"training CPU s, {short} {label}", "<= 120 s", f"{cpu:.1f} s", cpu <= 120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default="exact,train,speed,probes,search")
    parser.add_argument("--games", default="", help="comma-separated short names (default: every trained game)")
    parser.add_argument("--variants", default="", help="comma-separated labels of FULL_VARIANTS (default: all)")
    parser.add_argument("--out", default="/tmp/trained_bench")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=800_000)
    # 8 million: 1981's four-player round (0.71 million histories) needs them (2 million: 5.06% / 3.34% of the range,
    # 8 million: 2.77% / 1.78%, seed 61); every variant still trains in under half a CPU-minute.
    parser.add_argument("--reduced-iterations", type=int, default=8_000_000)
    parser.add_argument("--shaping", type=float, default=None,
                        help="TrainSettings.shaping of the full games (default: each game's trainer's)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a TrainSettings field for the full games' training (repeatable; e.g. prior=0, "
                             "opponents=current, beta=0): the ablations of docs/guide/trained.rst")
    parser.add_argument("--probe-games", type=int, default=400)
    parser.add_argument("--screen-games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--stronger-budget", type=int, default=400,
                        help="the stronger stage's budget (search over the trained policy)")
    parser.add_argument("--stronger-belief", choices=("default", "on", "off"), default="default",
                        help="the stronger stage's search belief (default: the game's, e.g. off in Liar)")
    args = parser.parse_args(argv)
    stages = args.stages.split(",")
    allowed = {"exact", "train", "speed", "probes", "search", "stronger"}
    if set(stages) - allowed:
        parser.error(f"--stages {args.stages!r} is not allowed; allowed: a comma-separated list of "
                     f"{', '.join(sorted(allowed))}")
    res = Results()
    if args.shaping is not None:
        EXTRA["shaping"] = args.shaping
    fields = {f.name: f.type for f in dataclasses.fields(TrainSettings)}
    for item in args.set:
        key, _, text = item.partition("=")
        if key not in fields or not text:
            parser.error(f"--set {item!r} is not allowed; allowed: KEY=VALUE with KEY one of {', '.join(fields)}")
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
    if args.variants:
        keep = set(args.variants.split(","))
        for short, table in FULL_VARIANTS.items():
            FULL_VARIANTS[short] = {k: v for k, v in table.items() if k in keep}
    for short in trained_games([g for g in args.games.split(",") if g] or None):
        if "exact" in stages:
            stage_exact(short, args.seed, args.out, args.reduced_iterations, res)
        if "train" in stages:
            stage_train(short, args.iterations, args.seed, args.out, res)
        if "speed" in stages:
            stage_speed(short, args.iterations, args.seed, args.out, res)
        if "probes" in stages:
            stage_probes(short, args.iterations, args.seed, args.out, args.screen_games, args.probe_games, res)
        if "search" in stages:
            stage_search(short, args.iterations, args.seed, args.out, args.search_games, res)
        if "stronger" in stages and find_game(short).kernel.policy_rollout_kinds:
            belief = None if args.stronger_belief == "default" else args.stronger_belief == "on"
            stage_stronger(short, args.iterations, args.seed, args.out, args.search_games, args.stronger_budget,
                           belief)
    targets(res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
