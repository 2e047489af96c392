"""Sweep throughput: games per second of the sweep with 1 worker and all workers, against the bare engine loop.

Run: ``python benchmarks/sweep.py [SPEC.toml] [--games N] [--workers N] [--repeat R]`` (default: the embedded default
spec with its own number of games per variant, all cores, 3 rounds).

``python benchmarks/sweep.py --targets [--games N] [--seed S]`` prints the kernel-sweep targets instead, each a ratio
of two runs in this process: a sweep (play + records + Parquet + manifest, 1 worker, in this process, the chunk sizes
it chooses itself) against the kernel's own games/s on the same seeds (CPU time of this process, fastest of
``--repeat`` rounds), for random and heuristic line-ups of Pinocchio 2p and 4p, Liar 4p and 1981 2p (goal >= 0.5);
the same sweep on 2 workers against 1 (wall-clock; goal >= 1.8 on an idle machine of 2 cores or more); and the
records' bytes per game on disk.

Four figures, each over the same games (same seeds, same bots):

- **bare loop**: the engine and the bots in a plain ``while not state.is_terminal()`` loop in this process; no
  records, no files. This is the reference.
- **bare loop + records**: the same, plus the game's records function (the statistics plug-in's extraction).
- **sweep, 1 worker**: ``run_sweep(workers=1)`` (in this process): seeding, records, DataFrames, Parquet, manifest.
- **sweep, N workers**: ``run_sweep(workers=N)`` on the local process pool, including starting the workers; the
  next line subtracts the pool's start-up (spawning N workers that import the package), measured separately.

The machines are shared and noisy: the runs alternate for ``--repeat`` rounds and each figure is its fastest round;
the ratios (printed beside each figure) are what to compare between runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players.play import sample_chance
from trustme_analysis.sweep.play import seat_bots
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.seeding import game_generators, game_seeds
from trustme_analysis.sweep.spec import Spec, load_spec, parse_spec


def bare_loop(spec: Spec, with_records: bool) -> tuple[int, float]:
    """Play every game of ``spec`` in a plain loop; returns (games, seconds)."""
    records = game_entry(spec.game).part("records") if with_records else None
    games = 0
    start = time.perf_counter()
    for variant in spec.variants:
        game = pyspiel.load_game(variant.game_string)
        for c in range(spec.chunks_per_variant):
            for seed in game_seeds(spec.seed, spec.chunk_games(c).start, len(spec.chunk_games(c))):
                rng, bot_rngs = game_generators(seed, game.num_players())
                _, bots = seat_bots(game, variant.lineup, rng, bot_rngs)
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(sample_chance(state, rng))
                    elif state.is_simultaneous_node():
                        state.apply_actions([bot.step(state) for bot in bots])
                    else:
                        state.apply_action(bots[state.current_player()].step(state))
                if records is not None:
                    records(game, state)
                games += 1
    return games, time.perf_counter() - start


def timed_sweep(spec: Spec, workers: int) -> tuple[int, float]:
    """Run the whole sweep into a fresh temporary folder (no report); returns (games, seconds)."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = run_sweep(spec, workers=workers, out=out, report=False, quiet=True)
        return result.games_played, time.perf_counter() - start


def pool_start_seconds(workers: int) -> float:
    """Seconds to start the sweep's process pool and have every worker import the package (paid once per run)."""
    import multiprocessing

    from trustme_analysis.sweep.runner import _init_worker

    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(os.getpid(),)) as pool:
        pool.map(abs, range(workers), chunksize=1)
    return time.perf_counter() - start


#: The kernel-sweep targets' variants and line-ups.
TARGETS = (
    ("Pinocchio 2p", "trustme_pinocchio", {"players": 2}),
    ("Pinocchio 4p", "trustme_pinocchio", {"players": 4}),
    ("Liar 4p", "trustme_liar", {"players": 4}),
    ("1981 2p", "trustme_1981", {"players": 2}),
)


def kernel_spec(game: str, params: dict, kind: str, games: int, seed: int) -> Spec:
    """A one-variant sweep of ``games`` games of one seat kind, chunk sizes left to the run."""
    return parse_spec({"game": game, "params": params, "games": games, "seed": seed, "engine": "kernel",
                       "lineups": {kind: {"seats": [kind]}}}, name=f"bench-{kind}")


def kernel_games_per_second(spec: Spec, chunk: int) -> float:
    """The kernel alone on the sweep's seeds, in batches of the sweep's chunk size (CPU time)."""
    from trustme_analysis.sweep.engines import kernel_player, seat_kinds

    variant = spec.variants[0]
    player = kernel_player(variant.game_string, seat_kinds(variant.lineup, variant.num_players))
    start = time.process_time()
    for first in range(0, spec.games, chunk):
        player.play(game_seeds(spec.seed, first, min(chunk, spec.games - first)))
    return spec.games / (time.process_time() - start)


def sweep_run(spec: Spec, workers: int) -> tuple[float, float, int, dict]:
    """(CPU seconds of this process, wall seconds, bytes of records, manifest) of the whole sweep in a fresh folder."""
    import json

    with tempfile.TemporaryDirectory() as out:
        cpu, wall = time.process_time(), time.perf_counter()
        run_sweep(spec, workers=workers, out=out, report=False, quiet=True)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        size = sum(p.stat().st_size for p in Path(out, "records").rglob("*.parquet"))
        manifest = json.loads(Path(out, "manifest.json").read_text())
    return cpu, wall, size, manifest


def targets(games: int, seed: int, repeat: int, workers: int, parallel_games: int) -> None:
    """Print the kernel-sweep targets' table (see the module's docstring)."""
    from trustme_analysis.sweep.chunking import resolve_chunking

    print(f"kernel sweeps of {games:,} games, seed {seed}, {os.cpu_count()} cores; CPU time, fastest of {repeat}")
    print(f"{'variant':14s} {'line-up':10s} {'chunk':>7s} {'kernel g/s':>11s} {'sweep g/s':>10s} {'ratio':>6s} "
          f"{'bytes/game':>10s}")
    for label, game, params in TARGETS:
        for kind in ("random", "heuristic"):
            spec = kernel_spec(game, params, kind, games, seed)
            chunk = resolve_chunking(spec)[0].chunk_size_of(spec.variants[0])
            kernel = sweep = 0.0
            size = 0
            for _ in range(repeat):
                kernel = max(kernel, kernel_games_per_second(spec, chunk))
                cpu, _, size, manifest = sweep_run(spec, 1)
                sweep = max(sweep, games / cpu)
            print(f"{label:14s} {kind:10s} {manifest['chunk_sizes']['v00']:7,d} {kernel:11,.0f} {sweep:10,.0f} "
                  f"{sweep / kernel:6.2f} {size / games:10.1f}", flush=True)
    # Parallel: the sweep command in a fresh process (import, kernel load and pool start-up included, as a user runs
    # it), 1 worker against N. Wall-clock speed-up is what a user sees, but on a shared machine other jobs take cores;
    # the CPU figure (the command and its workers) is the speed-up an idle machine of N cores would give, the
    # command's start-up being paid once either way: 1 worker's CPU seconds against those of N workers over N.
    spec_file = Path(tempfile.mkdtemp()) / "parallel.toml"
    spec_file.write_text(f'game = "trustme_pinocchio"\nengine = "kernel"\ngames = {parallel_games}\nseed = {seed}\n'
                         '[params]\nplayers = 2\n[lineups.random]\nseats = ["random"]\n', encoding="utf-8")
    best: dict[int, tuple[float, float]] = {}
    for _ in range(repeat):
        for n in (1, workers):
            with tempfile.TemporaryDirectory() as out:
                before, tick = _cpu_with_children(), time.perf_counter()
                subprocess.run([sys.executable, "-m", "trustme_analysis.sweep", str(spec_file), "--out", out,
                                "--workers", str(n), "--no-report", "--quiet"], check=True)
                wall, cpu = time.perf_counter() - tick, _cpu_with_children() - before
            if n not in best or wall < best[n][0]:
                best[n] = (wall, cpu)
    (wall1, cpu1), (walln, cpun) = best[1], best[workers]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{parallel_games:,} games of Pinocchio 2p random (the command, fresh processes), 1 worker against "
          f"{workers}: wall {wall1:.2f} s / {walln:.2f} s = {wall1 / walln:.2f}x (load average {load:.2f} at the "
          f"end); CPU {cpu1:.2f} s / {cpun:.2f} s: an idle machine's {workers * cpu1 / cpun:.2f}x")


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its finished child processes (a pool's workers)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", help="sweep spec (default: the embedded default spec)")
    parser.add_argument("--games", type=int, default=None, help="games per variant (default: the spec's)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="workers of the parallel run")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each figure is its fastest round")
    parser.add_argument("--targets", action="store_true", help="the kernel-sweep targets' table")
    parser.add_argument("--seed", type=int, default=1, help="master seed of --targets' sweeps")
    parser.add_argument("--parallel-games", type=int, default=2_000_000, help="games of --targets' 1-vs-N sweep")
    args = parser.parse_args()
    if args.targets:
        targets(args.games or 100_000, args.seed, args.repeat, max(2, args.workers), args.parallel_games)
        return

    spec = load_spec(args.spec)
    if args.games is not None:
        raw = spec.as_dict()
        raw["games"] = args.games
        raw["baseline"] = spec.baseline_table()
        spec = parse_spec(raw, name=spec.name, path=spec.path)
    print(f"spec {spec.path or 'default'}: {len(spec.variants)} variants x {spec.games} games, "
          f"chunk_size {spec.chunk_size}, {os.cpu_count()} cores")
    runs = {
        "bare loop (engine + bots)": lambda: bare_loop(spec, with_records=False),
        "bare loop + records": lambda: bare_loop(spec, with_records=True),
        "sweep, 1 worker (in-process)": lambda: timed_sweep(spec, 1),
        f"sweep, {args.workers} workers (process pool)": lambda: timed_sweep(spec, args.workers),
        "pool start-up": lambda: (0, pool_start_seconds(args.workers)),
    }
    # Rounds alternate the runs, and each keeps its fastest round: on a shared machine, other jobs only slow runs.
    best: dict[str, tuple[int, float]] = {}
    for _ in range(args.repeat):
        for name, run in runs.items():
            games, seconds = run()
            if name not in best or seconds < best[name][1]:
                best[name] = (games, seconds)
    start_up = best.pop("pool start-up")[1]
    rows = [(name, *result) for name, result in best.items()]
    reference = rows[0][1] / rows[0][2]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the end: {load:.2f} (on {os.cpu_count()} cores; other work skews the parallel figure)")
    print(f"{'run':40s} {'games':>7s} {'seconds':>8s} {'games/s':>9s} {'vs bare loop':>13s}")
    for name, n, secs in rows:
        rate = n / secs
        print(f"{name:40s} {n:7d} {secs:8.2f} {rate:9.1f} {rate / reference:13.3f}")
    name, n, secs = rows[-1]
    rate = n / (secs - start_up)
    print(f"{'  the same without pool start-up':40s} {n:7d} {secs - start_up:8.2f} {rate:9.1f} {rate / reference:13.3f}"
          f"   (start-up {start_up:.2f} s)")


if __name__ == "__main__":
    main()
