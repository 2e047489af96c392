"""Compiled simulation kernels against the pyspiel API: speed side by side, and equivalence over many games.

Run: ``python benchmarks/kernels.py [--seconds S] [--repeat R] [--game NAME ...]`` for the speed tables (``--sweep``:
only the sweep figures), ``--verify N`` to replay N kernel games per variant through the pyspiel engine (``--workers W``
processes), ``--same N`` to play N games per variant and line-up (random, heuristic, mixed) on both engine paths and
compare their records (the draw protocol makes them identical), ``--compile-times`` for the cold and warm start of each
kernel in fresh processes.

Every registered game whose kernel entry plays games takes part, through the kernel contract alone
(:mod:`trustme_analysis.engine.kernels`): the entry's ``benchmark_variants`` (label -> game string) are the variants
measured and verified, ``GameEntry.new_kernel`` builds the kernel, ``Kernel.play`` plays the games, ``rollouts`` and
``action_rollouts`` the play-outs, and ``--verify`` replays games through the engine with the one lock-step harness
(:func:`trustme_analysis.engine.lockstep.lockstep`).

Figures, each the fastest of ``--repeat`` alternating rounds, timed in CPU seconds of this process (``--clock
wall`` for wall-clock time): the machines are shared and often loaded, and CPU time leaves out the time other
processes hold the cores (not their effect on caches, so compare ratios, measured side by side):

- **pyspiel games/s**: uniformly random games through the pyspiel API (``benchmarks/playouts.py``'s loop), one core.
- **kernel games/s**: ``Kernel.play`` on batches of seeds, records included (as the kernel's arrays), one core.
- **rollouts/s**: random playouts from a position a quarter into a random game in compiled code (from the true
  position, and from worlds dealt for the seat to act as a search player deals them), against cloning the pyspiel
  state and playing it out.
- **peak memory** of streaming many games through the kernel batch by batch (tracemalloc), for N and 4N games.
- **records**: a kernel game's record fields as the sweep reads them, against replaying the game through the engine
  and running the records function (the other way to make them identical).
- **sweep games/s** (``--sweep``: only this, the records and the memory figures): a sweep's chunks on one worker (play, record rows,
  Parquet encoding) on the pyspiel path and the kernel path, for each game's first variant with random seats and its
  heuristic (where the kernel compiles it; else the reason is printed).
- **sweep start**: from a fresh process's first import until games can be played, numba's cache warm (goal < 2 s),
  against the pyspiel path; **sweep peak memory**: resident, of kernel sweeps of N and 4N games (``--memory-games``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Any

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players.lineup import LineUp, Seat
from trustme_analysis.engine.lockstep import Mismatch, replay, same
from trustme_analysis.registry import GameEntry, game_entry, game_names
from trustme_analysis.sweep.engines import KernelPlayer, resolve_engine
from trustme_analysis.sweep.play import ChunkTask, encoded_chunk

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from playouts import random_playouts

GOAL_RATIO = 100.0
GOAL_ROLLOUTS = 100_000.0

#: The clock of every figure (set from ``--clock``).
clock = time.process_time
clock_name = "CPU"


def kernel_modules(only: list[str] | None = None) -> dict[str, GameEntry]:
    """Short name -> registry entry, for every registered game whose kernel plays games and names variants to
    measure (a game registered under several names is measured once)."""
    out: dict[str, GameEntry] = {}
    seen: set[int] = set()
    for name in game_names():
        entry = game_entry(name)
        k = entry.kernel
        if k is None or not k.plays_games() or not k.benchmark_variants or id(k) in seen or (only and name not in only):
            continue
        seen.add(id(k))
        out[name] = entry
    return out


def warm_up(kernel: Any) -> None:
    """Compile the kernel's entry points (or load them from numba's cache): two games and a few play-outs."""
    played = kernel.play(np.arange(2, dtype=np.uint64), histories=True)
    state, viewer = rollout_position(kernel, played.history(0))
    kernel.rollouts(state, 1, 0)
    kernel.action_rollouts(state, state.legal_actions()[:1], 1, 1, 0, viewer)


def rollout_position(kernel: Any, history: list[int]) -> tuple[Any, int]:
    """The first decision a quarter or more into a game's ``history``, and the seat to act there."""
    state = kernel.new_state()
    for step, action in enumerate(history):
        if step >= len(history) // 4 and not state.is_chance_node() and len(state.legal_actions()) > 1:
            break
        state.apply_action(action)
    return state, state.current_player()


# ---------------------------------------------------------------- speed


def kernel_games_per_second(kernel: Any, seconds: float, first_seed: int) -> float:
    """Random games per second through ``Kernel.play`` (records included)."""
    batch = 2_000
    games = 0
    seed = first_seed
    start = clock()
    while True:
        kernel.play(np.arange(seed, seed + batch, dtype=np.uint64))  # (records made, as arrays)
        games += batch
        seed += batch
        elapsed = clock() - start
        if elapsed >= seconds:
            return games / elapsed
        batch = min(50_000, max(batch, int(games / elapsed * 0.5)))


def pyspiel_rollouts_per_second(state: pyspiel.State, seconds: float) -> float:
    """Random playouts per second from a pyspiel state (clone, then the reference loop's moves)."""
    rng = np.random.default_rng(0)
    n = 0
    start = clock()
    while clock() - start < seconds:
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])
        n += 1
    return n / (clock() - start)


def kernel_rollouts_per_second(kernel: Any, state: Any, viewer: int | None, seconds: float) -> float:
    """Play-outs per second from ``state`` (``viewer``: from worlds dealt for that seat, one action's round of a search
    player; ``None``: from the true position)."""
    n = 1_000
    done = 0
    start = clock()
    seed = 1
    first = state.legal_actions()[:1]
    while True:
        if viewer is None:
            kernel.rollouts(state, n, seed)
        else:
            kernel.action_rollouts(state, first, n, 1, seed, viewer)
        done += n
        seed += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed
        n = min(1_000_000, max(n, int(done / elapsed * 0.5)))


def streaming_peak(kernel: Any, games: int) -> float:
    """Peak traced memory (MiB) of playing ``games`` games in batches of 2,000, keeping a running total only."""
    tracemalloc.start()
    total = 0
    for first in range(0, games, 2_000):
        total += len(kernel.play(np.arange(first, min(games, first + 2_000), dtype=np.uint64)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def speed(modules: dict[str, Any], seconds: float, repeat: int) -> None:
    rows = []
    for short_name, entry in modules.items():
        first = True
        for label, game_string in entry.kernel.benchmark_variants.items():
            start = time.perf_counter()
            game = pyspiel.load_game(game_string)
            kernel = entry.new_kernel(game)
            if first:
                print(f"{short_name}: compiling (first run only) ...", end=" ", flush=True)
            warm_up(kernel)
            if first:
                print(f"kernel ready in {time.perf_counter() - start:.2f} s (wall)")
                first = False
            best_py = best_k = 0.0
            for r in range(repeat):
                start = clock()
                g, _, _ = random_playouts(game_string, seconds, seed=r)
                best_py = max(best_py, g / (clock() - start))
                best_k = max(best_k, kernel_games_per_second(kernel, seconds, first_seed=10**6 * (r + 1)))
            rows.append((label, best_py, best_k))
            print(f"  measured {label}", flush=True)
    print()
    print(f"{'variant':28s} {'pyspiel games/s':>16s} {'kernel games/s':>15s} {'ratio':>8s}  goal >= {GOAL_RATIO:.0f}x")
    for label, py, k in rows:
        ratio = k / py
        print(f"{label:28s} {py:16,.0f} {k:15,.0f} {ratio:7.0f}x  {'met' if ratio >= GOAL_RATIO else 'NOT met'}")

    print()
    for short_name, entry in modules.items():
        for label, game_string in list(entry.kernel.benchmark_variants.items())[:3]:
            game = pyspiel.load_game(game_string)
            kernel = entry.new_kernel(game)
            state, viewer = rollout_position(kernel, kernel.play(np.array([3], np.uint64), histories=True).history(0))
            py_state = game.new_initial_state()
            for a in state.history():
                py_state.apply_action(a)
            best_py = best_k = best_true = 0.0
            for _ in range(repeat):
                best_py = max(best_py, pyspiel_rollouts_per_second(py_state, seconds / 2))
                best_k = max(best_k, kernel_rollouts_per_second(kernel, state, viewer, seconds))
                best_true = max(best_true, kernel_rollouts_per_second(kernel, state, None, seconds / 2))
            print(f"rollouts/s a quarter into a game, {label}: kernel {best_k:,.0f} (worlds dealt for seat "
                  f"{viewer}; {best_true:,.0f} from the true position); pyspiel clone + play "
                  f"{best_py:,.0f} ({best_k / best_py:.0f}x); goal >= {GOAL_ROLLOUTS:,.0f}: "
                  f"{'met' if best_k >= GOAL_ROLLOUTS else 'NOT met'}")



def streaming_memory(modules: dict[str, Any]) -> None:
    """Peak traced memory of streaming N and 4N games through each kernel batch by batch."""
    for short_name, entry in modules.items():
        game_string = next(iter(entry.kernel.benchmark_variants.values()))
        kernel = entry.new_kernel(pyspiel.load_game(game_string))
        small, large = streaming_peak(kernel, 20_000), streaming_peak(kernel, 80_000)
        print(f"peak memory streaming {game_string}: 20,000 games {small:.1f} MiB, 80,000 games {large:.1f} MiB "
              f"({'flat' if large < 1.25 * small + 1 else 'NOT flat'})")


# ---------------------------------------------------------------- sweeps


#: Chunk sizes of the sweep figure: the default spec's (pyspiel path and kernel) and a large one for the kernel, whose
#: per-chunk cost (one compiled call, one Parquet file) is then spread over many games.
SWEEP_CHUNK = 50
SWEEP_KERNEL_CHUNK = 1_000


def sweep_games_per_second(game_string: str, lineup: LineUp, engine: str, chunk: int, seconds: float) -> float:
    """Games per second of a sweep's chunks on one worker: play, build the record rows, encode the Parquet chunk."""
    records = game_entry(pyspiel.load_game(game_string).get_type().short_name).part("records")
    games = 0
    c = 0
    start = clock()
    while True:
        task = ChunkTask("v00", 0, c, c * chunk, chunk, 7, game_string, lineup, {}, records, engine=engine)
        encoded_chunk(task)  # as a sweep stores it (a kernel chunk through Arrow arrays)
        games += chunk
        c += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games / elapsed


def lineups_for(short_name: str) -> dict[str, LineUp]:
    """The line-ups of the sweep figure: random seats, and the game's heuristic where it registers one."""
    out = {"random": LineUp("random", seats=(Seat("random"),))}
    from trustme_analysis.players.registry import bot_kinds

    if "heuristic" in bot_kinds(short_name):
        out["heuristic"] = LineUp("heuristic", seats=(Seat("heuristic"),))
    return out


def sweep_speed(modules: dict[str, Any], seconds: float, repeat: int) -> None:
    """Sweep games/s on one worker, kernel against pyspiel path, for each game's first variant and its line-ups."""
    print(f"sweep chunks on one worker (play + record rows + Parquet encoding), {clock_name} seconds; pyspiel path "
          f"in chunks of {SWEEP_CHUNK} games, kernel in chunks of {SWEEP_CHUNK} and {SWEEP_KERNEL_CHUNK}:")
    print(f"{'variant':22s} {'line-up':10s} {'pyspiel games/s':>16s} {'kernel (50)':>12s} {'kernel (1000)':>14s} "
          f"{'ratio':>7s}")
    for short_name, entry in modules.items():
        label, game_string = next(iter(entry.kernel.benchmark_variants.items()))
        for name, lineup in lineups_for(short_name).items():
            engine, why = resolve_engine("auto", game_string, lineup)
            best_py = best_small = best_large = 0.0
            for _ in range(repeat):
                best_py = max(best_py, sweep_games_per_second(game_string, lineup, "pyspiel", SWEEP_CHUNK,
                                                              seconds))
                if engine == "kernel":
                    sweep_games_per_second(game_string, lineup, "kernel", 2, 0.0)  # compile or load
                    best_small = max(best_small, sweep_games_per_second(game_string, lineup, "kernel", SWEEP_CHUNK,
                                                                        seconds))
                    best_large = max(best_large, sweep_games_per_second(game_string, lineup, "kernel",
                                                                        SWEEP_KERNEL_CHUNK, seconds))
            if engine == "kernel":
                print(f"{label:22s} {name:10s} {best_py:16,.0f} {best_small:12,.0f} {best_large:14,.0f} "
                      f"{best_large / best_py:6.0f}x")
            else:
                print(f"{label:22s} {name:10s} {best_py:16,.0f} {'-':>12s} {'-':>14s} {'-':>7s}  (not compiled: {why})")
            sys.stdout.flush()


def records_cost(modules: dict[str, Any], games: int = 500) -> None:
    """Two ways to give a kernel game's records: the kernel's own fields (what sweeps use), or replaying its action
    sequence through the engine and running the game's records function on the final state."""
    print(f"records of {games} kernel games (CPU ms, best of 3): the kernel's fields, read column by column, against "
          "replaying each game through the engine + records()")
    for short_name, entry in modules.items():
        game_string = next(iter(entry.kernel.benchmark_variants.values()))
        game = pyspiel.load_game(game_string)
        player = KernelPlayer(game_string, ["random"] * game.num_players())
        records = game_entry(short_name).part("records")
        seeds = list(range(5_000, 5_000 + games))
        player.columns(seeds)
        own = rebuilt = math.inf
        for _ in range(3):
            start = time.process_time()
            player.columns(seeds)
            own = min(own, time.process_time() - start)
            start = time.process_time()
            played = player.play(seeds, histories=True)
            for g in range(games):
                state = game.new_initial_state()
                for action in played.history(g):
                    state.apply_action(action)
                records(game, state)
            rebuilt = min(rebuilt, time.process_time() - start)
        print(f"  {game_string}: kernel {1000 * own:.0f} ms, replay + records() {1000 * rebuilt:.0f} ms "
              f"({rebuilt / own:.0f}x)", flush=True)


_SWEEP_PROBE = """
import resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec
spec = parse_spec({spec!r})
for v in spec.variants:  # what run_sweep does before its first chunk
    if v.engine == "kernel":
        engines.warm_up(v.game_string, engines.seat_kinds(v.lineup, v.num_players))
t1, c1 = time.perf_counter(), time.process_time()
run_sweep(spec, workers=1, out=sys.argv[1], report=False, quiet=True)
t2 = time.perf_counter()
print(t1 - t0, c1 - c0, t2 - t1, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def _sweep_probe(spec: dict[str, Any]) -> tuple[float, float, float, float]:
    """A sweep in a fresh process: (wall and CPU seconds from the first import until games can be played: import,
    spec, kernels loaded; wall seconds of the sweep; peak resident MiB)."""
    with tempfile.TemporaryDirectory() as out:
        text = subprocess.run([sys.executable, "-c", _SWEEP_PROBE.format(spec=spec), out],
                              capture_output=True, text=True, check=True).stdout.split()
    start, start_cpu, run, rss = (float(x) for x in text[-4:])
    return start, start_cpu, run, rss


def sweep_start_and_memory(modules: dict[str, Any], memory_games: int) -> None:
    """A kernel sweep's start (fresh processes, warm numba cache) against the pyspiel path's, and its peak memory
    for N and 4N games."""
    print("start of a sweep in a fresh process (numba's cache warm): from the first import until games can be played "
          "(import, spec, kernels loaded), the fastest of 3, wall (CPU) seconds")
    for short_name, entry in modules.items():
        game_string = next(iter(entry.kernel.benchmark_variants.values()))
        players = pyspiel.load_game(game_string).num_players()
        base = {"game": short_name, "grid": {"players": [players]}, "seed": 3,
                "lineups": {"random": {"seats": [{"bot": "random"}]}}}
        tiny = {**base, "games": 10, "chunk_size": 10}
        _sweep_probe({**tiny, "engine": "kernel"})  # fills numba's cache if it is empty
        k = min((_sweep_probe({**tiny, "engine": "kernel"}) for _ in range(3)), key=lambda t: t[0])
        p = min((_sweep_probe({**tiny, "engine": "pyspiel"}) for _ in range(3)), key=lambda t: t[0])
        print(f"  {short_name} {players}p: kernel {k[0]:.2f} s ({k[1]:.2f} s CPU); pyspiel path {p[0]:.2f} s "
              f"({p[1]:.2f} s CPU); goal < 2 s: {'met' if k[0] < 2 else 'NOT met'}", flush=True)
    print(f"peak resident memory of a kernel sweep (1 worker, chunks of {SWEEP_KERNEL_CHUNK}, no report):")
    for short_name, entry in modules.items():
        players = pyspiel.load_game(next(iter(entry.kernel.benchmark_variants.values()))).num_players()
        base = {"game": short_name, "grid": {"players": [players]}, "seed": 3, "chunk_size": SWEEP_KERNEL_CHUNK,
                "lineups": {"random": {"seats": [{"bot": "random"}]}}, "engine": "kernel"}
        sizes = (memory_games, 4 * memory_games)
        peaks = [_sweep_probe({**base, "games": g})[3] for g in sizes]
        print(f"  {short_name} {players}p: {sizes[0]:,} games {peaks[0]:.0f} MiB, {sizes[1]:,} games "
              f"{peaks[1]:.0f} MiB ({'flat' if peaks[1] < 1.1 * peaks[0] + 5 else 'NOT flat'})", flush=True)


# ---------------------------------------------------------------- equivalence


def verify_chunk(args: tuple[str, str, int, int]) -> tuple[int, int, list[str]]:
    """Replay kernel games ``first .. first + n - 1`` through the engine in lock-step (the one harness); returns
    (games, steps, failures)."""
    short_name, game_string, first, n = args
    import trustme_analysis  # noqa: F401,F811  (a spawned worker registers the games)

    entry = game_entry(short_name)
    game = pyspiel.load_game(game_string)
    kernel = entry.new_kernel(game)
    records = entry.part("records")
    played = kernel.play(np.arange(first, first + n, dtype=np.uint64), histories=True)
    rows = played.rows()
    steps = 0
    failures: list[str] = []
    for g in range(n):
        try:
            steps += replay(game, kernel, played.history(g), rows[g], records, seed=first + g)
        except Mismatch as e:
            failures.append(str(e))
        except Exception as e:  # noqa: BLE001  (an engine or records error on a kernel game is a finding too)
            failures.append(f"{game_string} seed {first + g}: {type(e).__name__}: {e}")
    return n, steps, failures


def same_chunk(args: tuple[str, tuple[str, ...], int, int]) -> tuple[int, list[str]]:
    """Games ``first .. first + n - 1`` of one variant and line-up played by the kernel and by the pyspiel path (the
    Python engine and bots, drawing by the draw protocol); returns (games, the seeds whose records differ)."""
    game_string, kinds, first, n = args
    import trustme_analysis  # noqa: F401,F811  (a spawned worker registers the games)
    from trustme_analysis.players.play import play_game
    from trustme_analysis.sweep.play import game_randomness, seat_bots

    game = pyspiel.load_game(game_string)
    records = game_entry(game.get_type().short_name).part("records")
    seeds = list(range(first, first + n))
    kernel_rows = KernelPlayer(game_string, kinds).rows(seeds)
    lineup = LineUp(name="same", seats=tuple(Seat(k) for k in kinds))
    differing = []
    for seed, rows in zip(seeds, kernel_rows):
        rng, seat_rngs = game_randomness(True, seed, game.num_players())
        _, bots = seat_bots(game, lineup, rng, seat_rngs)
        if not same(rows, records(game, play_game(game, bots, rng))):
            differing.append(f"{game_string} {','.join(kinds)} seed {seed}")
    return n, differing


def same_records(modules: dict[str, Any], n: int, workers: int) -> None:
    """``--same N``: both engine paths, N games per variant and line-up the kernel's game loop plays."""
    chunk = 500
    total, differing = 0, []
    start_all = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for entry in modules.values():
            plays = entry.kernel.game_seat_kinds
            for label, game_string in entry.kernel.benchmark_variants.items():
                players = pyspiel.load_game(game_string).num_players()
                lineups = [("random",) * players]
                if "heuristic" in plays:
                    lineups += [("heuristic",) * players, tuple(("heuristic", "random")[p % 2] for p in range(players))]
                for kinds in lineups:
                    start = time.perf_counter()
                    tasks = [(game_string, kinds, 10**9 + k, min(chunk, n - k)) for k in range(0, n, chunk)]
                    games, bad = 0, []
                    for g, d in pool.imap_unordered(same_chunk, tasks):
                        games += g
                        bad += d
                    print(f"{label:28s} {'/'.join(sorted(set(kinds))):18s} {games:9,d} games, {len(bad)} with "
                          f"different records, {time.perf_counter() - start:7.1f} s", flush=True)
                    for line in bad[:5]:
                        print("   ", line)
                    total += games
                    differing += bad
    print(f"played {total:,d} games on both engines in {time.perf_counter() - start_all:.0f} s with {workers} "
          f"worker(s): {len(differing)} with different records")


def verify(modules: dict[str, Any], n: int, workers: int) -> None:
    chunk = 2_000
    total_games = 0
    all_failures: list[str] = []
    start_all = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for short_name, entry in modules.items():
            game_total = 0
            for i, (label, game_string) in enumerate(entry.kernel.benchmark_variants.items()):
                first = 10**9 * (i + 1)
                start = time.perf_counter()
                tasks = [(short_name, game_string, first + k, min(chunk, n - k)) for k in range(0, n, chunk)]
                games = steps = 0
                failures: list[str] = []
                for g, s, f in pool.imap_unordered(verify_chunk, tasks):
                    games += g
                    steps += s
                    failures += f
                elapsed = time.perf_counter() - start
                print(f"{label:28s} {games:9,d} games {steps:12,d} steps replayed, {len(failures)} differing, "
                      f"{elapsed:7.1f} s", flush=True)
                for f in failures[:5]:
                    print("   ", f)
                game_total += games
                all_failures += failures
            print(f"{short_name}: {game_total:,d} games verified")
            total_games += game_total
    print(f"verified {total_games:,d} games in {time.perf_counter() - start_all:.0f} s with {workers} worker(s): "
          f"{len(all_failures)} differing")
    if all_failures:
        sys.exit(1)


# ---------------------------------------------------------------- compile times


_PROBE = """
import time
t0 = time.perf_counter()
import numpy as np, pyspiel, trustme_analysis
from trustme_analysis.registry import game_entry
t1 = time.perf_counter()
entry = game_entry({name!r})
entry.kernel_part("kernel")
t2 = time.perf_counter()
kernel = entry.new_kernel(pyspiel.load_game({game!r}))
kernel.play(np.arange(2, dtype=np.uint64), histories=True).columns()
t3 = time.perf_counter()
print(f"{{t1 - t0:.2f}} {{t2 - t1:.2f}} {{t3 - t2:.2f}}")
"""


def compile_times(modules: dict[str, Any]) -> None:
    """Cold (empty numba cache) and warm start of each kernel, each in a fresh process."""
    for short_name, entry in modules.items():
        game_string = next(iter(entry.kernel.benchmark_variants.values()))
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            for run in ("cold", "warm"):
                out = subprocess.run([sys.executable, "-c", _PROBE.format(name=short_name, game=game_string)],
                                     env=env, capture_output=True, text=True, check=True).stdout.split()
                imp, mod, ready = (float(x) for x in out[-3:])
                print(f"{short_name} {run}: import trustme_analysis {imp:.2f} s, kernel module {mod:.2f} s, "
                      f"kernel compiled and ready {ready:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure per round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each figure is its fastest round")
    parser.add_argument("--game", action="append", help="only this game (short name); repeatable")
    parser.add_argument("--verify", type=int, metavar="N", help="replay N kernel games per variant through pyspiel")
    parser.add_argument("--same", type=int, metavar="N", help="play N games per variant and line-up on both engines "
                        "and compare their records")
    parser.add_argument("--workers", type=int, default=1, help="processes for --verify and --same")
    parser.add_argument("--compile-times", action="store_true", help="cold and warm kernel start in fresh processes")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="time figures in CPU or wall seconds")
    parser.add_argument("--sweep", action="store_true", help="only the memory and sweep figures (games/s, start, "
                        "memory)")
    parser.add_argument("--memory-games", type=int, default=20_000, help="N of the sweep memory figure (N and 4N)")
    args = parser.parse_args()
    global clock, clock_name
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    clock_name = "CPU" if args.clock == "cpu" else "wall"
    print(f"clock: {args.clock} seconds")
    modules = kernel_modules(args.game)
    if not modules:
        sys.exit("no registered game has a kernel that plays games")
    if args.verify:
        verify(modules, args.verify, args.workers)
    elif args.same:
        same_records(modules, args.same, args.workers)
    elif args.compile_times:
        compile_times(modules)
    else:
        if not args.sweep:  # --sweep: only the sweep figures
            speed(modules, args.seconds, args.repeat)
            print()
        streaming_memory(modules)
        print()
        records_cost(modules)
        print()
        sweep_speed(modules, args.seconds, args.repeat)
        print()
        sweep_start_and_memory(modules, args.memory_games)


if __name__ == "__main__":
    main()
