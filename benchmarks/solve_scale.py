"""How far ``cfr`` scales: sampling speed against OpenSpiel's C++, memory and compile rate per history, and the
largest tree solved to 1% of its utility range within a time budget. Prints one markdown table per figure and a
summary of the ratios at the end.

1. MCCFR iterations per second on Leduc poker (one iteration = one traversal per player): ours compiled on the tree
   (:class:`cfr.CompiledSamplingSolver`), ours through the pyspiel API (:class:`cfr.SamplingSolver`) and OpenSpiel's
   C++ ``ExternalSamplingMCCFRSolver`` / ``OutcomeSamplingMCCFRSolver``, measured in this process; ratio = ours
   compiled / C++.
2. Bytes per history, each game in a fresh subprocess: the compiled tree; the peak while compiling; the peak while a
   CFR+ iteration runs and while the exploitability is evaluated (both with the compiled tree counted). Peaks are
   ``tracemalloc`` peaks (numpy, ``array`` and Python objects, and the arrays numba's compiled code allocates) and
   peak resident memory growth (``VmHWM`` after a reset; includes allocator slack: freed memory the allocator keeps).
   A game with a kernel tree producer (the Trust Me games that have one) is compiled by it, as ``[[solve]]`` does.
   ``--before REF`` measures the ``cfr`` and ``trustme_analysis`` packages of git revision ``REF`` the same way,
   side by side.
3. Compile rate of the pyspiel path (histories per CPU second); with ``--before``, also of ``REF``.
4. Largest tree solved to ``--share`` (1%) of its utility range within ``--budget`` seconds (wall, compile and
   evaluations included), trying the games of ``--ladder`` in order and stopping after the first failure.
5. The Trust Me games through the same pyspiel path: compile rate of ``--trustme-compile-games`` (Python games: every
   history is a Python ``clone`` and ``apply_action``), and the ``--trustme-ladder`` of variants solved to 1% within
   the budget.
6. Compile rate of a Trust Me game's kernel producer (the registry's ``kernel`` part, ``compile_tree``) against the
   pyspiel path, same variant, same child process (``--kernel-compile-games``); ``--trustme-ladder`` compiles through
   the kernel producer when ``--producer kernel`` is given.

Usage::

    python benchmarks/solve_scale.py                                   # all four, default ladder
    python benchmarks/solve_scale.py --skip ladder --before a8b7405    # quick figures, with the old package beside
    python benchmarks/solve_scale.py --skip mccfr memory compile --ladder "liars_dice(numdice=2,dice_sides=4)"
    python benchmarks/solve_scale.py --skip mccfr memory compile ladder            # the Trust Me rows only

CPU seconds of the measuring process are the steadier figures on a shared machine (every solver here is
single-threaded); wall seconds are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pyspiel

ROOT = Path(__file__).resolve().parents[1]
# Children measuring another revision's package get its directory here instead of this checkout's.
sys.path.insert(0, os.environ.get("CFR_BENCH_PATH", str(ROOT)))

MEMORY_GAMES = [
    "leduc_poker",
    "liars_dice",
    "liars_dice(numdice=2,dice_sides=3)",
    # Compiled by the Liar kernel producer: 1.22 and 7.42 million histories.
    "trustme_liar(players=2,values=3,copies=4,max_play=2,max_turns=8)",
    "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=10)",
]
COMPILE_GAMES = ["leduc_poker", "liars_dice"]
LADDER = [
    "liars_dice",
    "liars_dice(numdice=2,dice_sides=3)",
    "liars_dice(numdice=2,dice_sides=4)",
]
#: One variant per Trust Me game, each compiled in well under a minute through the pyspiel API.
TRUSTME_COMPILE_GAMES = [
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6)",
    "trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,"
    "runouts_to_end=1)",
    "trustme_1981_investment(players=3,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/2/3/5/10,utility=wealth)",
]
#: Variants compiled by both producers for the kernel-vs-pyspiel compile rate: Liar's (that of reports/solve_liar.toml
#: with the first player drawn, and that of reports/solve_liar_long.toml), Pinocchio's of
#: reports/solve_pinocchio_three.toml (0.84 million histories; about a minute through the pyspiel API), and two of the
#: Trust Me (1981) investing round: three players with six lots (94,589 histories) and the four-player variant of
#: reports/solve_1981_lots.toml (711,165 histories).
KERNEL_COMPILE_GAMES = [
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6)",
    "trustme_liar(players=2,values=3,copies=4,max_play=2,max_turns=8)",
    "trustme_pinocchio(players=3,values=3,copies=2,park_size=2,stacks=1/1/1,chart=1/3/6,runouts_to_end=2)",
    "trustme_1981_investment(players=3,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/2/3/4/5/10,utility=wealth)",
    "trustme_1981_investment(players=4,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/2/5/10,utility=wealth)",
]
#: Two-player Liar variants of growing size (the first player drawn at a chance node): 0.27, 1.22, 2.05, 7.42, 10.95 and
#: 24.48 million histories (counted by the kernel producer on 2026-12-01).
TRUSTME_LADDER = [
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6)",
    "trustme_liar(players=2,values=3,copies=4,max_play=2,max_turns=8)",
    "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=9)",
    "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=10)",
    "trustme_liar(players=2,values=4,copies=2,max_play=1,max_turns=8)",
    "trustme_liar(players=2,values=5,copies=2,max_play=1,max_turns=7)",
]

#: A tiny variant per game with a kernel tree producer, compiled before the clock starts (numba's code loaded).
WARM_UP_VARIANTS = {
    "trustme_liar": "trustme_liar(players=2,values=2,copies=2,max_play=1,max_turns=3)",
    "trustme_1981_investment": ("trustme_1981_investment(players=2,payoff_mix=1/1/0/1,seen_each=0/50,money=2,shares=2,"
                                "lots=1/2,utility=wealth_diff)"),
}


def _register_games() -> None:
    """Register the Trust Me games with pyspiel when this checkout's package is importable (children load them)."""
    try:
        import trustme_analysis  # noqa: F401
    except ImportError:
        pass


def _table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------- 1. MCCFR
def _rate(step, chunk: int, seconds: float) -> tuple[float, float]:
    """(iterations per wall second, per CPU second) of ``step(chunk)`` repeated for about ``seconds`` CPU seconds."""
    step(chunk)  # warm-up (compiled code loaded, tables allocated)
    done = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        step(chunk)
        done += chunk
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def mccfr_table(game_name: str, seconds: float) -> tuple[str, dict]:
    import cfr

    game = pyspiel.load_game(game_name)
    cg = cfr.compile_game(game)
    rows, ratios = [], {}
    for method, cpp_class in (("external", pyspiel.ExternalSamplingMCCFRSolver),
                              ("outcome", pyspiel.OutcomeSamplingMCCFRSolver)):
        ours = cfr.CompiledSamplingSolver(cg, method, 1)
        python = cfr.SamplingSolver(game, method, 1)
        cpp = cpp_class(game, seed=1)

        def cpp_step(n, solver=cpp):
            for _ in range(n):
                solver.run_iteration()

        r_ours = _rate(ours.iterate, 20000, seconds)
        r_py = _rate(python.iterate, 50, seconds)
        r_cpp = _rate(cpp_step, 500, seconds)
        ratios[method] = r_ours[1] / r_cpp[1]
        rows.append([method, f"{r_ours[0]:,.0f} / {r_ours[1]:,.0f}", f"{r_py[0]:,.0f} / {r_py[1]:,.0f}",
                     f"{r_cpp[0]:,.0f} / {r_cpp[1]:,.0f}", f"{r_ours[0] / r_cpp[0]:.1f}x / {ratios[method]:.1f}x",
                     f"{r_py[1] / r_cpp[1]:.2f}x"])
    text = _table(["sampling", "ours compiled it/s (wall / CPU)", "ours pyspiel-API it/s", "OpenSpiel C++ it/s",
                   "compiled / C++", "pyspiel-API / C++ (CPU)"], rows)
    return text, ratios


# -------------------------------------------------------------------------------------------------- 2. memory
def _status_kib(field: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")


def _producer(game: pyspiel.Game):
    """``(compile(game, max_histories), name)``: the game's kernel tree producer if it has one, else the pyspiel
    walk."""
    import cfr

    try:
        from trustme_analysis.solve.run import tree_producer
    except ImportError:
        tree_producer = None
    produce, name = tree_producer(game) if tree_producer is not None else (None, "")
    if produce is None:
        return (lambda g, limit: cfr.compile_game(g, max_histories=limit)), "pyspiel walk"
    return produce, name


def _memory_child(game_name: str) -> None:
    """In a fresh process: compile, one CFR+ iteration, one exploitability; print JSON of bytes and seconds."""
    import cfr

    _register_games()
    game = pyspiel.load_game(game_name)
    produce, producer = _producer(game)
    warm = cfr.compile_game("kuhn_poker")  # load the compiled kernels before measuring
    solver = cfr.TreeSolver(warm, "cfr+")
    solver.iterate(2)
    cfr.exploitability(warm, solver.average_policy())
    tiny = WARM_UP_VARIANTS.get(game.get_type().short_name)
    if producer != "pyspiel walk" and tiny:  # the producer's compiled code too
        produce(pyspiel.load_game(tiny), 10**6)
    del warm, solver
    out = {"producer": producer}
    _reset_peak_rss()
    rss0 = _status_kib("VmRSS")
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    cpu = time.process_time()
    cg = produce(game, 2**31 - 2)
    out["compile_cpu"] = time.process_time() - cpu
    held, peak = tracemalloc.get_traced_memory()
    out["histories"] = cg.num_nodes
    out["compiled"] = held - base
    out["compile_peak"] = peak - base
    out["compile_rss_peak"] = (_status_kib("VmHWM") - rss0) * 1024
    tracemalloc.reset_peak()
    _reset_peak_rss()
    solver = cfr.TreeSolver(cg, "cfr+")
    solver.iterate(1)
    out["iterate_peak"] = tracemalloc.get_traced_memory()[1] - base
    out["iterate_rss_peak"] = (_status_kib("VmHWM") - rss0) * 1024
    average = solver.average_policy()
    del solver
    tracemalloc.reset_peak()
    _reset_peak_rss()
    cfr.exploitability(cg, average)
    out["evaluate_peak"] = tracemalloc.get_traced_memory()[1] - base
    out["evaluate_rss_peak"] = (_status_kib("VmHWM") - rss0) * 1024
    tracemalloc.stop()
    print(json.dumps(out))


def _run_child(args: list[str], pythonpath: Path) -> dict:
    env = dict(os.environ, CFR_BENCH_PATH=str(pythonpath))
    done = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _export(ref: str) -> Path:
    """The ``cfr`` and ``trustme_analysis`` packages of git revision ``ref``, unpacked into a temporary directory
    (the kernel tree producers live in the latter)."""
    target = Path(tempfile.mkdtemp(prefix="cfr-before-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "cfr", "trustme_analysis"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def memory_table(games: list[str], before: Path | None) -> tuple[str, float]:
    rows = []
    worst = 0.0
    for name in games:
        versions = [("now", ROOT)] + ([("before", before)] if before else [])
        for label, path in versions:
            data = _run_child(["--memory-child", name], path)
            n = data["histories"]
            peak = max(data["compile_peak"], data["iterate_peak"], data["evaluate_peak"]) / n
            peak_rss = max(data["compile_rss_peak"], data["iterate_rss_peak"], data["evaluate_rss_peak"]) / n
            if label == "now":
                worst = max(worst, peak)
            rows.append([name, label, data["producer"], f"{n:,}", f"{data['compiled'] / n:.0f}", f"{data['compile_peak'] / n:.0f}",
                         f"{data['iterate_peak'] / n:.0f}", f"{data['evaluate_peak'] / n:.0f}", f"**{peak:.0f}**",
                         f"{peak_rss:.0f}"])
    text = _table(["game", "cfr", "producer", "histories", "compiled B/h", "compile peak B/h", "CFR+ iteration peak B/h",
                   "exploitability peak B/h", "peak B/h (tracemalloc)", "peak B/h (RSS growth)"], rows)
    return text, worst


# ------------------------------------------------------------------------------------------------- 3. compile
def _compile_child(game_name: str) -> None:
    import cfr

    _register_games()
    cfr.compile_game("kuhn_poker")
    wall, cpu = time.perf_counter(), time.process_time()
    cg = cfr.compile_game(game_name, max_histories=2**31 - 2)
    print(json.dumps({"histories": cg.num_nodes, "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}))


def _kernel_compile_child(game_name: str) -> None:
    """Both producers on one variant, in this one process: histories per CPU second of each."""
    import cfr

    _register_games()
    from trustme_analysis.solve.run import tree_producer

    game = pyspiel.load_game(game_name)
    produce, name = tree_producer(game)
    if produce is None:
        raise SystemExit(f"{game_name}: the game has no kernel tree producer")
    # Warm-up: every compiled function the producer uses loaded from numba's cache (or compiled) before the clock
    # starts, by one untimed run on the same variant (short beside the pyspiel walk's).
    produce(game, 2**31 - 2)
    cfr.compile_game("kuhn_poker")
    out = {"producer": name}
    for label, run in (("kernel", lambda: produce(game, 2**31 - 2)),
                       ("pyspiel", lambda: cfr.compile_game(game, max_histories=2**31 - 2))):
        wall, cpu = time.perf_counter(), time.process_time()
        cg = run()
        out[label] = {"histories": cg.num_nodes, "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
        del cg
    print(json.dumps(out))


def kernel_compile_table(games: list[str]) -> tuple[str, float]:
    rows = []
    worst = float("inf")
    for name in games:
        data = _run_child(["--kernel-compile-child", name], ROOT)
        k, p = data["kernel"], data["pyspiel"]
        if k["histories"] != p["histories"]:
            raise SystemExit(f"{name}: the producers disagree on the size ({k['histories']} vs {p['histories']})")
        ratio = (k["histories"] / k["cpu"]) / (p["histories"] / p["cpu"])
        worst = min(worst, ratio)
        for label, d in (("kernel: " + data["producer"], k), ("pyspiel walk", p)):
            rows.append([name, label, f"{d['histories']:,}", f"{d['wall']:.2f} / {d['cpu']:.2f}",
                         f"{d['histories'] / d['wall']:,.0f} / {d['histories'] / d['cpu']:,.0f}"])
        rows.append([name, "ratio kernel / pyspiel (CPU)", "", "", f"{ratio:.1f}x"])
    header = ["game", "producer", "histories", "seconds (wall / CPU)", "histories/s (wall / CPU)"]
    return _table(header, rows), worst


def compile_table(games: list[str], before: Path | None) -> tuple[str, float]:
    rows = []
    rate_now = 0.0
    for name in games:
        versions = [("now", ROOT)] + ([("before", before)] if before else [])
        for label, path in versions:
            data = _run_child(["--compile-child", name], path)
            rate = data["histories"] / data["cpu"]
            if label == "now":
                rate_now = max(rate_now, rate)
            rows.append([name, label, f"{data['histories']:,}", f"{data['wall']:.2f} / {data['cpu']:.2f}",
                         f"{data['histories'] / data['wall']:,.0f} / {rate:,.0f}"])
    return _table(["game", "cfr", "histories", "seconds (wall / CPU)", "histories/s (wall / CPU)"], rows), rate_now


# -------------------------------------------------------------------------------------------------- 4. ladder
def solve_to_share(game_name: str, share: float, budget: float, algorithm: str, eval_every: int,
                   producer: str = "pyspiel") -> dict:
    """Compile and iterate until exploitability <= share * utility range or the wall budget is spent."""
    import cfr

    _register_games()
    started = time.perf_counter()
    cpu0 = time.process_time()
    game = pyspiel.load_game(game_name)
    target = share * (game.max_utility() - game.min_utility())
    if producer == "kernel":
        from trustme_analysis.solve.run import tree_producer

        produce, _ = tree_producer(game)
        cg = produce(game, 2**31 - 2) if produce is not None else cfr.compile_game(game, max_histories=2**31 - 2)
    else:
        cg = cfr.compile_game(game, max_histories=2**31 - 2)
    compile_s = time.perf_counter() - started
    solver = cfr.TreeSolver(cg, algorithm)
    value = float("inf")
    evaluate_s = 0.0
    while time.perf_counter() - started < budget:
        solver.iterate(eval_every)
        mark = time.perf_counter()
        value = cfr.exploitability(cg, solver.average_policy())
        evaluate_s += time.perf_counter() - mark
        if value <= target:
            break
    return {
        "game": game_name, "histories": cg.num_nodes, "compile_s": compile_s, "iterations": solver.iteration,
        "iterate_s": solver.seconds, "evaluate_s": evaluate_s, "total_s": time.perf_counter() - started,
        "cpu_s": time.process_time() - cpu0, "exploitability": value, "target": target,
        "solved": value <= target and time.perf_counter() - started <= budget,
        # Lifetime peak of the whole process (interpreter and libraries included), in bytes.
        "max_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def ladder_table(games: list[str], share: float, budget: float, algorithm: str, eval_every: int,
                 producer: str = "pyspiel") -> tuple[str, int]:
    rows = []
    largest = 0
    for name in games:
        data = _run_child(["--ladder-child", name, "--share", str(share), "--budget", str(budget), "--algorithm",
                           algorithm, "--eval-every", str(eval_every), "--producer", producer], ROOT)
        rows.append([name, f"{data['histories']:,}", f"{data['compile_s']:.0f}", data["iterations"],
                     f"{data['iterate_s']:.0f}", f"{data['evaluate_s']:.0f}",
                     f"{data['total_s']:.0f} / {data['cpu_s']:.0f}", f"{data['exploitability']:.4g}",
                     f"{data['target']:.4g}", f"{data['max_rss'] / 2**30:.2f} ({data['max_rss'] / data['histories']:.0f})",
                     "yes" if data["solved"] else "NO"])
        if not data["solved"]:
            break
        largest = max(largest, data["histories"])
    header = ["game", "histories", "compile s", "iterations", "iterate s", "evaluate s", "total s (wall / CPU)",
              "exploitability", "target", "process peak RSS GiB (B/h)", f"solved in {budget:.0f} s"]
    return _table(header, rows), largest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["mccfr", "memory", "compile", "ladder", "trustme-compile", "trustme-ladder",
                                 "kernel-compile"],
                        help="sections to leave out")
    parser.add_argument("--mccfr-game", default="leduc_poker", help="game of the MCCFR speed table")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per MCCFR rate measurement")
    parser.add_argument("--memory-games", nargs="+", default=MEMORY_GAMES)
    parser.add_argument("--compile-games", nargs="+", default=COMPILE_GAMES)
    parser.add_argument("--before", default=None, metavar="REF",
                        help="also measure memory and compile rate of the cfr package at this git revision")
    parser.add_argument("--ladder", nargs="+", default=LADDER, help="games tried for the largest tree, in order")
    parser.add_argument("--trustme-compile-games", nargs="+", default=TRUSTME_COMPILE_GAMES)
    parser.add_argument("--trustme-ladder", nargs="+", default=TRUSTME_LADDER,
                        help="Trust Me variants tried for the largest tree, in order")
    parser.add_argument("--kernel-compile-games", nargs="+", default=KERNEL_COMPILE_GAMES,
                        help="Trust Me variants compiled by the game's kernel and by the pyspiel path")
    parser.add_argument("--producer", choices=["pyspiel", "kernel"], default="pyspiel",
                        help="who compiles the Trust Me ladder's trees: the pyspiel walk or the game's kernel")
    parser.add_argument("--share", type=float, default=0.01, help="target exploitability as a share of the range")
    parser.add_argument("--budget", type=float, default=600.0, help="wall seconds per ladder game")
    parser.add_argument("--algorithm", default="dcfr", help="full-tree algorithm of the ladder")
    parser.add_argument("--eval-every", type=int, default=10, help="ladder: evaluate every this many iterations")
    parser.add_argument("--memory-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--compile-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ladder-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--kernel-compile-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        _memory_child(args.memory_child)
        return 0
    if args.compile_child:
        _compile_child(args.compile_child)
        return 0
    if args.ladder_child:
        print(json.dumps(solve_to_share(args.ladder_child, args.share, args.budget, args.algorithm, args.eval_every,
                                        args.producer)))
        return 0
    if args.kernel_compile_child:
        _kernel_compile_child(args.kernel_compile_child)
        return 0

    before = _export(args.before) if args.before else None
    print(f"python {sys.version.split()[0]}, open_spiel {getattr(pyspiel, '__version__', '?')}, "
          f"{os.cpu_count()} CPUs; before = {args.before or '-'}")
    summary = []
    if "mccfr" not in args.skip:
        text, ratios = mccfr_table(args.mccfr_game, args.seconds)
        print(f"\n## MCCFR iterations per second on {args.mccfr_game}\n\n{text}")
        summary.append(["external-sampling MCCFR it/s vs OpenSpiel C++ (CPU)", f"{ratios['external']:.1f}x", ">= 3x"])
        summary.append(["outcome-sampling MCCFR it/s vs OpenSpiel C++ (CPU)", f"{ratios['outcome']:.1f}x", "-"])
    if "memory" not in args.skip:
        text, worst = memory_table(args.memory_games, before)
        print(f"\n## Bytes per history (B/h)\n\n{text}")
        summary.append(["peak bytes per history (compile, CFR+ iteration, evaluation; worst game)", f"{worst:.0f}",
                        "<= 100"])
    if "compile" not in args.skip:
        text, rate = compile_table(args.compile_games, before)
        print(f"\n## Compile rate of the pyspiel path\n\n{text}")
        summary.append(["compile rate, pyspiel path (histories per CPU second)", f"{rate:,.0f}", "(kernel path: later)"])
    if "ladder" not in args.skip:
        text, largest = ladder_table(args.ladder, args.share, args.budget, args.algorithm, args.eval_every)
        print(f"\n## Largest tree solved to {args.share:.0%} of its utility range in {args.budget:.0f} s "
              f"({args.algorithm}, evaluated every {args.eval_every} iterations)\n\n{text}")
        summary.append([f"largest tree solved to {args.share:.0%} in {args.budget:.0f} s (histories)", f"{largest:,}",
                        ">= 10^7"])
    if "trustme-compile" not in args.skip:
        text, rate = compile_table(args.trustme_compile_games, None)
        print(f"\n## Compile rate of the Trust Me games, pyspiel path\n\n{text}")
        summary.append(["compile rate of a Trust Me game, pyspiel path (histories per CPU second, best game)",
                        f"{rate:,.0f}", "kernel path >= 50x this (see the kernel-compile row)"])
    if "kernel-compile" not in args.skip:
        text, ratio = kernel_compile_table(args.kernel_compile_games)
        print(f"\n## Compile rate of a Trust Me game, kernel producer vs pyspiel path (same variant, same process)"
              f"\n\n{text}")
        summary.append(["compile rate of a Trust Me game, kernel vs pyspiel path (CPU, worst variant)",
                        f"{ratio:.1f}x", ">= 50x"])
    if "trustme-ladder" not in args.skip:
        text, largest = ladder_table(args.trustme_ladder, args.share, args.budget, args.algorithm, args.eval_every,
                                     args.producer)
        print(f"\n## Largest Trust Me variant solved to {args.share:.0%} of its utility range in {args.budget:.0f} s, "
              f"{args.producer} producer ({args.algorithm}, evaluated every {args.eval_every} iterations)\n\n{text}")
        summary.append([(f"largest Trust Me variant solved to {args.share:.0%} in {args.budget:.0f} s, "
                         f"{args.producer} producer (histories)"), f"{largest:,}", ">= 10^7"])
    print("\n## Summary\n")
    print(_table(["figure", "measured", "goal"], summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
