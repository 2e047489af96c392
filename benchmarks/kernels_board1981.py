"""The trustme_1981 kernel against the pyspiel API: random games per second, rollouts, compile time, memory; and a
lock-step verification of many kernel games through the engine.

Run: ``python benchmarks/kernels_board1981.py [--seconds S] [--verify N [--workers W]] [--no-compile] [--no-memory]``

- Speed: for each of the kernel module's ``BENCHMARK_VARIANTS``, uniform-random full games through the pyspiel API
  (the loop of ``benchmarks/playouts.py``) and through ``Kernel.play_random`` (records as columns included; and with
  ``to_rows()``), measured side by side in this process on CPU time (the machines are shared: CPU time of this
  process is steadier than wall time), and the ratio. Also random rollouts per second from a day-1 position.
- Compile: a fresh process that builds a kernel and plays one game, with an empty numba cache (cold) and again with
  that cache filled (warm); wall time from process start.
- Memory: peak resident memory of a process playing N games in chunks (``Kernel.iter_random``) for two N.
- ``--verify N``: N kernel games over a mix of variants (full games at 2-4 players and reduced variants), each replayed
  through the engine step by step (``kernel_verify.verify_games``); prints counts and time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the Trust Me games)
from trustme_analysis.games.board1981.kernel import BENCHMARK_VARIANTS, Kernel

ROOT = Path(__file__).resolve().parent.parent

#: The verification mix: full games at every player count and variants reduced by a turn cap or odd rules.
VERIFY_VARIANTS = [
    "trustme_1981(players=2)",
    "trustme_1981(players=3)",
    "trustme_1981(players=4)",
    "trustme_1981(players=4,peek=true,roll_off_tie=defender,utility=wealth)",
    "trustme_1981(players=2,roll_off_tie=challenger,utility=wealth_diff,trust_mix=2/10/16,bamboozled=6/)",
    "trustme_1981(players=3,payoff_mix=2/2/2/10,lots=1/2/3,money=3,shares=0,max_turns=80)",
    "trustme_1981(players=4,max_turns=30,trust_mix=1/1/6)",
    "trustme_1981(players=2,max_turns=20,peek=true,lots=7/)",
]


def pyspiel_random_games(game_string: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Uniform-random full games through the pyspiel API for about ``seconds`` of CPU time: (games, cpu seconds)."""
    game = pyspiel.load_game(game_string)
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


def kernel_random_games(kernel: Kernel, seconds: float, chunk: int, rows: bool) -> tuple[int, float]:
    """``play_random`` in chunks for about ``seconds`` of CPU time (``rows``: also build the rows)."""
    kernel.play_random(np.arange(2, dtype=np.uint64))  # compiled (or loaded) before timing
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        played = kernel.play_random(np.arange(games, games + chunk, dtype=np.uint64))
        if rows:
            played.to_rows()
        games += chunk
    return games, time.process_time() - start


def kernel_rollouts(kernel: Kernel, seconds: float, n: int = 2000) -> tuple[int, float]:
    """Random playouts from a day-1 position (after the deal and the first roll) for about ``seconds``."""
    state = kernel.new_state(seed=12345)
    kernel.rollouts(state, 2, seed=0)
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        kernel.rollouts(state, n, seed=done)
        done += n
    return done, time.process_time() - start


def speed_table(seconds: float) -> None:
    print(f"\n## Random games per CPU second (pyspiel API loop vs kernel; {seconds:.0f} s each)\n")
    head = (
        f"| {'variant':8s} | {'pyspiel games/s':>15s} | {'kernel games/s':>14s} | {'ratio':>6s} | "
        f"{'kernel+rows games/s':>19s} | {'ratio':>6s} | {'rollouts/s':>10s} |"
    )
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for label, game_string in BENCHMARK_VARIANTS.items():
        base_games, base_time = pyspiel_random_games(game_string, seconds)
        base = base_games / base_time
        kernel = Kernel(pyspiel.load_game(game_string))
        k_games, k_time = kernel_random_games(kernel, seconds, chunk=2000, rows=False)
        r_games, r_time = kernel_random_games(kernel, seconds, chunk=2000, rows=True)
        ro, ro_time = kernel_rollouts(kernel, seconds)
        fast, with_rows = k_games / k_time, r_games / r_time
        print(
            f"| {label:8s} | {base:15.1f} | {fast:14.0f} | {fast / base:6.0f} | {with_rows:19.0f} | "
            f"{with_rows / base:6.0f} | {ro / ro_time:10.0f} |"
        )


_COMPILE_SNIPPET = """
import time
marks = [(time.perf_counter(), time.process_time())]
import numpy as np, pyspiel, trustme_analysis
from trustme_analysis.games.board1981.kernel import Kernel
marks.append((time.perf_counter(), time.process_time()))
kernel = Kernel(pyspiel.load_game("trustme_1981(players=4)"))
kernel.play_random(np.arange(1, dtype=np.uint64))
marks.append((time.perf_counter(), time.process_time()))
state = kernel.new_state(1)
state.legal_actions(); state.apply_action(state.legal_actions()[0]); state.returns()
kernel.rollouts(state, 1, seed=0)
marks.append((time.perf_counter(), time.process_time()))
print(" ".join(f"{b[0] - a[0]:.2f}/{b[1] - a[1]:.2f}" for a, b in zip(marks, marks[1:])))
print(f"{marks[-1][0] - marks[0][0]:.2f}/{marks[-1][1] - marks[0][1]:.2f}")
"""


def compile_table() -> None:
    print("\n## Compile time in a fresh process (wall/CPU seconds; the machine is shared, CPU is this process's)\n")
    print("| numba cache | imports | Kernel + first play_random | KernelState + rollouts | total |")
    print("|---|---|---|---|---|")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache
        for label in ("cold (empty)", "warm"):
            out = subprocess.run(
                [sys.executable, "-c", _COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            print(f"| {label} | {' | '.join(out)} |")


_MEMORY_SNIPPET = """
import resource, sys
import numpy as np, pyspiel, trustme_analysis
from trustme_analysis.games.board1981.kernel import Kernel
kernel = Kernel(pyspiel.load_game("trustme_1981(players=4)"))
kernel.play_random(np.arange(1, dtype=np.uint64))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
wins = 0
for played in kernel.iter_random(np.arange(int(sys.argv[1]), dtype=np.uint64), chunk=2000):
    wins += int(played.columns["win"].sum())
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, wins)
"""


def memory_table(sizes: tuple[int, ...] = (4_000, 40_000)) -> None:
    print("\n## Peak memory playing N games in chunks of 2,000 (4 players; MiB resident)\n")
    print("| games | after warm-up | peak |")
    print("|---|---|---|")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for n in sizes:
        out = subprocess.run(
            [sys.executable, "-c", _MEMORY_SNIPPET, str(n)], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        print(f"| {n:,} | {int(out[0]) / 1024:.0f} | {int(out[1]) / 1024:.0f} |")


def _verify_chunk(task: tuple[str, int, int]) -> tuple[str, int, float]:
    from trustme_analysis.games.board1981.kernel_verify import verify_games

    game_string, first_seed, count = task
    start = time.process_time()
    done = verify_games(pyspiel.load_game(game_string), np.arange(first_seed, first_seed + count, dtype=np.uint64))
    return game_string, done, time.process_time() - start


def verify(total: int, workers: int, chunk: int = 250) -> None:
    per_variant = -(-total // len(VERIFY_VARIANTS))
    tasks = []
    for v, game_string in enumerate(VERIFY_VARIANTS):
        for start in range(0, per_variant, chunk):
            tasks.append((game_string, 10**9 * (v + 1) + start, min(chunk, per_variant - start)))
    counts = {g: 0 for g in VERIFY_VARIANTS}
    cpu = {g: 0.0 for g in VERIFY_VARIANTS}
    print(f"\n## Lock-step verification: {per_variant * len(VERIFY_VARIANTS):,} games, {workers} worker(s)\n")
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game_string, done, seconds in pool.map(_verify_chunk, tasks):
            counts[game_string] += done
            cpu[game_string] += seconds
    wall = time.perf_counter() - wall
    print("| variant | games identical | CPU s |")
    print("|---|---|---|")
    for game_string in VERIFY_VARIANTS:
        print(f"| `{game_string}` | {counts[game_string]:,} | {cpu[game_string]:.0f} |")
    print(f"\n{sum(counts.values()):,} games identical to the engine step by step; {wall:.0f} s wall, "
          f"{sum(cpu.values()):.0f} s CPU.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per speed measurement")
    parser.add_argument("--verify", type=int, default=0, metavar="N", help="replay N kernel games through the engine")
    parser.add_argument("--workers", type=int, default=1, help="processes for --verify")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed table")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time table")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory table")
    args = parser.parse_args()
    if not args.no_compile:
        compile_table()
    if not args.no_speed:
        speed_table(args.seconds)
    if not args.no_memory:
        memory_table()
    if args.verify:
        verify(args.verify, args.workers)


if __name__ == "__main__":
    main()
