"""Our vectorised CFR+ / DCFR against OpenSpiel's C++ ``pyspiel.CFRPlusSolver``, side by side in one run.

Prints one markdown table per measurement:

1. seconds per iteration on each game (ours: CFR+ and DCFR over the compiled tree; OpenSpiel: CFRPlusSolver), and
   the ratio OpenSpiel / ours (higher is better for us);
2. seconds to reach exploitability 1e-3 on Leduc poker (ours including the compile), checked every
   ``--eval-every`` iterations; evaluation time is excluded on both sides;
3. exploitability after n iterations of each of our five full-tree algorithms (``--no-curves`` skips it);
4. one exploitability evaluation of the uniform policy: seconds and memory, ours (``cfr.exploitability`` on the
   compiled tree) against ``pyspiel.exploitability``. Memory: ours is the peak of numpy allocations seen by
   ``tracemalloc``; OpenSpiel's is the growth of peak resident memory in a fresh subprocess (C++ allocations are
   invisible to tracemalloc).

Usage::

    python benchmarks/cfr_vs_openspiel.py                 # kuhn_poker, leduc_poker, liars_dice
    python benchmarks/cfr_vs_openspiel.py --games kuhn_poker leduc_poker --cpp-iterations 5

Every time is given twice, wall-clock and CPU seconds of the measuring process: both sides run single-threaded,
so on a machine shared with other jobs the CPU figure is the steadier comparison. Timings are taken on whatever the
machine is doing; per-iteration and evaluation figures are medians of
``--chunks`` short chunks, ours to the Leduc target the median of ``--repeat`` runs (OpenSpiel's single run there
takes tens of seconds). Run it on an idle machine for clean figures. ``pyspiel.exploitability`` runs once, in a
fresh subprocess, so that its memory can be measured.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cfr  # noqa: E402

GAMES = ["kuhn_poker", "leduc_poker", "liars_dice"]


def _clock() -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process). Both sides are single-threaded, so CPU time is the figure that
    other jobs on a shared machine disturb least; wall time is reported beside it."""
    return time.perf_counter(), time.process_time()


def _since(mark: tuple[float, float]) -> tuple[float, float]:
    now = _clock()
    return now[0] - mark[0], now[1] - mark[1]


def _median_chunk(step, chunks: int, per_chunk: int) -> tuple[float, float]:
    """Median over ``chunks`` timed chunks of (wall, CPU) seconds per call of ``step`` (the machine may be shared:
    the median of several short chunks is steadier than one long run)."""
    walls, cpus = [], []
    for _ in range(chunks):
        mark = _clock()
        for _ in range(per_chunk):
            step()
        wall, cpu = _since(mark)
        walls.append(wall / per_chunk)
        cpus.append(cpu / per_chunk)
    return statistics.median(walls), statistics.median(cpus)


def _per_iteration_ours(cg, algorithm: str, iterations: int, chunks: int) -> tuple[float, float]:
    solver = cfr.TreeSolver(cg, algorithm)
    solver.iterate(1)  # warm-up: lazy plans, first allocations
    return _median_chunk(lambda: solver.iterate(1), chunks, max(1, iterations // chunks))


def _per_iteration_cpp(game, iterations: int, chunks: int) -> tuple[float, float]:
    solver = pyspiel.CFRPlusSolver(game)
    return _median_chunk(solver.evaluate_and_update_policy, chunks, max(1, iterations // chunks))


def _time_to_target_ours(game_string: str, algorithm: str, target: float, every: int, cap: int):
    """(wall, CPU, iterations, compile wall): compile plus iterations, evaluations excluded."""
    mark = _clock()
    cg = cfr.compile_game(game_string)
    wall, cpu = _since(mark)
    compile_wall = wall
    solver = cfr.TreeSolver(cg, algorithm)
    while solver.iteration < cap:
        mark = _clock()
        solver.iterate(every)
        dw, dc = _since(mark)
        wall, cpu = wall + dw, cpu + dc
        if cfr.exploitability(cg, solver.average_policy()) <= target:
            return wall, cpu, solver.iteration, compile_wall
    return float("nan"), float("nan"), solver.iteration, compile_wall


def _time_to_target_cpp(game, target: float, every: int, cap: int):
    """(wall, CPU, iterations) of CFRPlusSolver's iterations, evaluations excluded."""
    solver = pyspiel.CFRPlusSolver(game)
    wall = cpu = 0.0
    done = 0
    while done < cap:
        mark = _clock()
        for _ in range(every):
            solver.evaluate_and_update_policy()
        dw, dc = _since(mark)
        wall, cpu = wall + dw, cpu + dc
        done += every
        if pyspiel.exploitability(game, solver.average_policy()) <= target:
            return wall, cpu, done
    return float("nan"), float("nan"), done


def _eval_ours(cg, chunks: int):
    pol = cg.uniform_policy()
    value = cfr.exploitability(cg, pol)  # warm-up
    tracemalloc.start()
    cfr.exploitability(cg, pol)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    wall, cpu = _median_chunk(lambda: cfr.exploitability(cg, pol), chunks, 1)
    return value, wall, cpu, peak


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux >= 4.0), so the peak measured covers only what follows."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def _eval_cpp_child(game_string: str) -> None:
    """Run in a fresh subprocess: one pyspiel.exploitability of the uniform policy; prints JSON."""
    game = pyspiel.load_game(game_string)
    policy = pyspiel.UniformRandomPolicy(game)
    reset = _reset_peak_rss()
    before = _status_kib("VmRSS")
    mark = _clock()
    value = pyspiel.exploitability(game, policy)
    wall, cpu = _since(mark)
    # Without a reset the lifetime peak (imports included) is all there is, which overstates the evaluation.
    peak = _status_kib("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"value": value, "wall": wall, "cpu": cpu, "bytes": max(peak - before, 0) * 1024}))


def _eval_cpp(game_string: str):
    out = subprocess.run(
        [sys.executable, __file__, "--eval-child", game_string], check=True, capture_output=True, text=True
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return data["value"], data["wall"], data["cpu"], data["bytes"]


def _pair(values, scale: float = 1.0, fmt: str = "{:.2f}") -> str:
    return " / ".join(fmt.format(v * scale) for v in values)


def _ratio(reference, ours) -> str:
    return " / ".join(f"{r / o:.1f}x" if o > 0 else "n/a" for r, o in zip(reference, ours))


def _table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES, help="game strings (default: %(default)s)")
    parser.add_argument("--ours-iterations", type=int, default=50, help="timed iterations of ours per game")
    parser.add_argument("--cpp-iterations", type=int, default=10,
                        help="timed iterations of CFRPlusSolver per game (liars_dice uses a third of these)")
    parser.add_argument("--chunks", type=int, default=5,
                        help="timed chunks per per-iteration figure; the median is reported")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of ours to the Leduc target; the median is reported (OpenSpiel's runs once)")
    parser.add_argument("--target", type=float, default=1e-3, help="exploitability target on Leduc")
    parser.add_argument("--eval-every", type=int, default=10, help="check the target every this many iterations")
    parser.add_argument("--no-curves", dest="curves", action="store_false",
                        help="skip the table of exploitability after n iterations of each algorithm")
    parser.add_argument("--eval-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.eval_child:
        _eval_cpp_child(args.eval_child)
        return 0

    print(f"python {sys.version.split()[0]}, open_spiel {getattr(pyspiel, '__version__', '?')}; "
          "figures: wall-clock / CPU seconds of this process (ratios: OpenSpiel divided by ours)")
    rows = []
    compiled = {}
    for name in args.games:
        game = pyspiel.load_game(name)
        cg = cfr.compile_game(name)
        compiled[name] = cg
        plus = _per_iteration_ours(cg, "cfr+", args.ours_iterations, args.chunks)
        dcfr = _per_iteration_ours(cg, "dcfr", args.ours_iterations, args.chunks)
        cpp_its = args.chunks if cg.num_nodes > 100_000 else max(args.cpp_iterations, args.chunks)
        cpp = _per_iteration_cpp(game, cpp_its, args.chunks)
        rows.append([
            name, cg.num_nodes, f"{cg.compile_seconds:.2f}", f"{cg.nbytes / 1e6:.1f}",
            _pair(plus, 1e3), _pair(dcfr, 1e3), _pair(cpp, 1e3), _ratio(cpp, plus), _ratio(cpp, dcfr),
        ])
    print("\n## Milliseconds per iteration (wall / CPU)\n")
    print(_table(["game", "histories", "compile s", "compiled MB", "ours CFR+", "ours DCFR",
                  "C++ CFRPlusSolver", "ratio CFR+", "ratio DCFR"], rows))

    if "leduc_poker" in args.games:
        leduc = pyspiel.load_game("leduc_poker")
        cpp_wall, cpp_cpu, cpp_its = _time_to_target_cpp(leduc, args.target, args.eval_every, 20000)
        rows = []
        for algorithm in ("cfr+", "dcfr"):
            runs = [_time_to_target_ours("leduc_poker", algorithm, args.target, args.eval_every, 20000)
                    for _ in range(args.repeat)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            comp = statistics.median(r[3] for r in runs)
            rows.append([f"ours {algorithm} (compile {comp:.2f} s incl.)", runs[0][2], _pair((wall, cpu)),
                         _ratio((cpp_wall, cpp_cpu), (wall, cpu))])
        rows.append(["C++ CFRPlusSolver", cpp_its, _pair((cpp_wall, cpp_cpu)), "1.0x / 1.0x"])
        print(f"\n## Leduc poker: seconds to exploitability <= {args.target:g} (checked every {args.eval_every}, "
              "evaluations excluded)\n")
        print(_table(["solver", "iterations", "seconds (wall / CPU)", "C++ / ours"], rows))

    if args.curves:
        checkpoints = {"kuhn_poker": (10, 100, 1000), "leduc_poker": (10, 100, 1000), "liars_dice": (10, 50, 200)}
        for name in args.games:
            marks = checkpoints.get(name, (10, 100))
            rows = []
            for algorithm in ("cfr", "cfr+", "linear", "dcfr", "pcfr+"):
                solver = cfr.TreeSolver(compiled[name], algorithm)
                row = [algorithm]
                for mark in marks:
                    solver.iterate(mark - solver.iteration)
                    row.append(f"{cfr.exploitability(compiled[name], solver.average_policy()):.2e}")
                rows.append(row)
            print(f"\n## {name}: exploitability of the average policy after n iterations\n")
            print(_table(["algorithm"] + [f"n={m}" for m in marks], rows))

    rows = []
    for name in args.games:
        value, wall, cpu, nbytes = _eval_ours(compiled[name], args.chunks)
        ref_value, ref_wall, ref_cpu, ref_bytes = _eval_cpp(name)
        rows.append([name, _pair((wall, cpu), fmt="{:.4f}"), f"{nbytes / 1e6:.1f}",
                     _pair((ref_wall, ref_cpu), fmt="{:.4f}"), f"{ref_bytes / 1e6:.1f}",
                     _ratio((ref_wall, ref_cpu), (wall, cpu)), f"{abs(value - ref_value):.1e}"])
    print("\n## One exploitability evaluation of the uniform policy (seconds wall / CPU)\n")
    print(_table(["game", "ours s", "ours MB (tracemalloc peak)", "pyspiel s", "pyspiel MB (peak RSS growth)",
                  "speed-up", "|difference|"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
