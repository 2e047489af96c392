"""The Liar kernel against the pyspiel API: random games/s per core, compile time, memory, and ``--verify N``.

Run: ``python benchmarks/kernels_liar.py [--seconds S] [--repeat R] [--verify N] [--jobs J] [--skip-compile]``.

- **games/s per core**: for each of the registry entry's ``kernel.benchmark_variants``, uniform random games through the pyspiel
  API (the loop of ``benchmarks/playouts.py``: ``legal_actions()`` then a uniform pick, chance by
  ``chance_outcomes()``) and through ``Kernel.play`` (records built, columnar), alternating for ``--repeat``
  rounds in this one process. Rates are games per CPU second of the process (``time.process_time``), which time
  spent waiting for a core on a shared machine does not inflate; each figure is its fastest round and the ratio is
  kernel / pyspiel.
- **rollouts/s** of ``Kernel.rollouts`` from the position after the deal, with uniform-random seats and with the
  compiled heuristic in every seat (the search player's rollouts), and **heuristic g/s**: whole games of heuristic
  seats through ``Kernel.play``.
- **compile**: seconds (wall and CPU) from a fresh interpreter to the first finished kernel game, with an empty numba
  cache (cold, in a temporary ``NUMBA_CACHE_DIR``) and again with that cache filled (warm); the import of the package
  (pyspiel, numba and the games) counted apart.
- **memory**: peak resident memory of a process playing G games in chunks of 10,000 (records built then dropped, as a
  sweep does chunk by chunk), for two values of G: flat means the same peak.
- ``--verify N``: N kernel games replayed step by step through the engine (the lock-step harness
  ``trustme_analysis.engine.lockstep``, with what each seat knows compared at every step), spread over the
  benchmark variants and reduced variants covering every parameter, on ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.liar.kernel.kernel import Kernel
from trustme_analysis.registry import game_entry

#: The variants measured (label -> game string): the registry entry's.
BENCHMARK_VARIANTS = dict(game_entry("trustme_liar").kernel.benchmark_variants)

#: Reduced variants for ``--verify`` besides the benchmark ones (every parameter of the engine moved somewhere).
VERIFY_VARIANTS = [
    "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6)",
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,mode=trustme)",
    "trustme_liar(players=2,values=2,copies=2,max_play=2)",
    "trustme_liar(players=3,values=5,copies=3,max_play=3,mode=trustme)",
    "trustme_liar(players=5,values=7,copies=2,max_play=2,first_player=seat3,last_cards=until_covered)",
    "trustme_liar(players=6,values=4,copies=3,max_play=5,announce_gone=forbidden,false_card_accepted=round_end,"
    "mode=trustme,utility=rank)",
    "trustme_liar(players=4,values=5,copies=5,max_play=6,mode=trustme,utility=difference,points_going_out=-7,"
    "points_card_in_hand=3,points_false_card=-2,points_unmasked=0,points_wrongly_accused=1000,max_turns=15)",
    "trustme_liar(players=3,values=1,copies=3)",
    "trustme_liar(players=5,values=6,copies=8,max_play=6,announce_gone=forbidden,last_cards=until_covered)",
    "trustme_liar(players=2,mode=trustme,false_card_accepted=round_end)",
]

CHUNK = 10_000


def pyspiel_rate(game: pyspiel.Game, seconds: float, seed: int) -> tuple[int, float]:
    """Uniform random games through the pyspiel API for about ``seconds`` of CPU; return (games, CPU seconds).

    The loop of ``benchmarks/playouts.py``, timed in CPU seconds.
    """
    rng = np.random.default_rng(seed)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))]
            else:
                legal = state.legal_actions()
                action = legal[rng.integers(len(legal))]
            state.apply_action(action)
        games += 1
    return games, time.process_time() - start


def dealt(kernel: Kernel, seed: int):
    """The kernel state of the game of ``seed`` after its first player and its deal."""
    state = kernel.new_state()
    for action in kernel.play(np.array([seed], dtype=np.uint64), histories=True).history(0):
        if not state.is_chance_node():
            break
        state.apply_action(action)
    return state


def kernel_rate(kernel: Kernel, seconds: float, first_seed: int) -> tuple[int, float]:
    """Play chunks of kernel games for about ``seconds`` of CPU; return (games, CPU seconds)."""
    games, chunk = 0, 256
    start = time.process_time()
    while time.process_time() - start < seconds:
        kernel.play(np.arange(first_seed + games, first_seed + games + chunk, dtype=np.uint64))
        games += chunk
        chunk = min(chunk * 2, CHUNK)
    return games, time.process_time() - start


def speed_table(seconds: float, repeat: int) -> None:
    print("games (and rollouts) per CPU second of one process, fastest of the rounds")
    print(f"{'variant':20s} {'pyspiel g/s':>12s} {'kernel g/s':>12s} {'ratio':>8s} {'turns/game':>11s} "
          f"{'rollouts/s':>11s} {'heuristic g/s':>14s} {'h. rollouts/s':>14s}")
    for label, game_string in BENCHMARK_VARIANTS.items():
        game = pyspiel.load_game(game_string)
        kernel = Kernel(game)
        kernel.play(np.zeros(1, dtype=np.uint64))  # compiled (or loaded) before timing
        kernel.rollouts(dealt(kernel, 1), 1, seed=0)
        best_py = best_k = 0.0
        for r in range(repeat):
            n, elapsed = pyspiel_rate(game, seconds, seed=r)
            best_py = max(best_py, n / elapsed)
            n, elapsed = kernel_rate(kernel, seconds, first_seed=r * 10**9)
            best_k = max(best_k, n / elapsed)
        turns = kernel.play(np.arange(2000, dtype=np.uint64)).arrays["turns"][:, 0].mean()
        state = dealt(kernel, 1)
        count = 20_000
        start = time.process_time()
        kernel.rollouts(state, count, seed=2)
        rollouts = count / (time.process_time() - start)
        smart = Kernel(game, ("heuristic",))
        smart.play(np.zeros(1, dtype=np.uint64))
        n, elapsed = kernel_rate(smart, seconds, first_seed=0)
        start = time.process_time()
        smart.rollouts(dealt(smart, 1), count, seed=2)
        smart_rollouts = count / (time.process_time() - start)
        print(f"{label:20s} {best_py:12.0f} {best_k:12.0f} {best_k / best_py:8.1f} {turns:11.1f} {rollouts:11.0f} "
              f"{n / elapsed:14.0f} {smart_rollouts:14.0f}")


_COMPILE_CHILD = """
import time
t0, c0 = time.perf_counter(), time.process_time()
import numpy as np, pyspiel
import trustme_analysis
from trustme_analysis.games.liar.kernel.kernel import Kernel
t1, c1 = time.perf_counter(), time.process_time()
kernel = Kernel(pyspiel.load_game("trustme_liar(players=4)"))
kernel.play(np.zeros(1, dtype=np.uint64))
t2, c2 = time.perf_counter(), time.process_time()
print(t1 - t0, t2 - t1, c1 - c0, c2 - c1)
"""


def compile_times() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold (empty cache)", "warm (cache filled)"):
            out = [float(x) for x in subprocess.run([sys.executable, "-c", _COMPILE_CHILD], env=env,
                                                    capture_output=True, text=True, check=True).stdout.split()]
            print(f"compile {label:20s}: import {out[0]:6.2f} s (CPU {out[2]:5.2f} s), kernel to the first game "
                  f"{out[1]:6.2f} s (CPU {out[3]:5.2f} s)")


_MEMORY_CHILD = """
import resource, sys
import numpy as np, pyspiel
import trustme_analysis
from trustme_analysis.games.liar.kernel.kernel import Kernel
kernel = Kernel(pyspiel.load_game("trustme_liar(players=4)"))
games, chunk = int(sys.argv[1]), int(sys.argv[2])
wins = 0
for start in range(0, games, chunk):
    recs = kernel.play(np.arange(start, start + chunk, dtype=np.uint64))
    wins += int(recs.arrays["win"].sum())
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, wins)
"""


def memory() -> None:
    for games in (20_000, 200_000):
        out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(games), str(CHUNK)], capture_output=True,
                             text=True, check=True).stdout.split()
        print(f"memory: {games:>7d} games of Liar 4p in chunks of {CHUNK}: peak RSS {float(out[0]):7.1f} MiB")


def _verify_job(args: tuple[str, int, int]) -> tuple[str, int, int, float]:
    from trustme_analysis.engine.lockstep import lockstep
    from trustme_analysis.games.liar.analysis.records import records
    from trustme_analysis.games.liar.kernel.verify import knowledge_extra

    game_string, first, count = args
    start = time.perf_counter()
    game = pyspiel.load_game(game_string)
    games, steps = lockstep(game, Kernel(game), np.arange(first, first + count, dtype=np.uint64), records,
                            extra=knowledge_extra)
    return game_string, games, steps, time.perf_counter() - start


def verify_all(total: int, jobs: int) -> None:
    variants = list(dict.fromkeys([*BENCHMARK_VARIANTS.values(), *VERIFY_VARIANTS]))
    # Full-deck games replay slowly through the engine (thousands of legal plays to list per step): a quarter of them.
    weights = np.array([0.25 if "values" not in v else 1.0 for v in variants])
    counts = np.floor(total * weights / weights.sum()).astype(int)
    counts[-1] += total - counts.sum()
    tasks = []
    for game_string, count in zip(variants, counts):
        for first in range(0, count, 500):
            tasks.append((game_string, 7_000_000 + first, min(500, count - first)))
    start = time.perf_counter()
    per_variant: dict[str, list[int]] = {}
    with ProcessPoolExecutor(jobs) as pool:
        for game_string, games, steps, _ in pool.map(_verify_job, tasks):
            acc = per_variant.setdefault(game_string, [0, 0])
            acc[0] += games
            acc[1] += steps
    elapsed = time.perf_counter() - start
    for game_string, (games, steps) in per_variant.items():
        print(f"verified {games:7d} games, {steps:9d} steps: {game_string}")
    games = sum(g for g, _ in per_variant.values())
    steps = sum(s for _, s in per_variant.values())
    print(f"verify: {games} games ({steps} steps) identical step by step in {elapsed:.0f} s on {jobs} process(es)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure per round")
    parser.add_argument("--repeat", type=int, default=3, help="alternating rounds (fastest kept)")
    parser.add_argument("--verify", type=int, default=0, metavar="N", help="replay N kernel games through the engine")
    parser.add_argument("--jobs", type=int, default=1, help="processes for --verify")
    parser.add_argument("--skip-compile", action="store_true", help="skip the compile-time and memory runs")
    parser.add_argument("--only-verify", action="store_true", help="only run --verify")
    args = parser.parse_args()
    if not args.only_verify:
        if not args.skip_compile:
            compile_times()
            memory()
        speed_table(args.seconds, args.repeat)
    if args.verify:
        verify_all(args.verify, args.jobs)


if __name__ == "__main__":
    main()
