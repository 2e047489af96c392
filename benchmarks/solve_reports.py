"""Time every ``[[solve]]`` section of the solve specs in ``reports/`` (``solve_*.toml``), as a user runs them.

Each section is solved with :func:`trustme_analysis.solve.run.run_solve` into a temporary folder (the whole solve:
compiling the tree, the solver to the spec's stopping rule, the statistics, best responses and simple strategies),
and its compile, solver and total seconds are printed beside the same figures of a reference solve run in the same
process first (DCFR on OpenSpiel's ``kuhn_poker`` for a fixed number of iterations, its statistics included, after
one untimed run that compiles the numba kernels). Only
the ratio to the reference is comparable between machines; on a shared machine CPU seconds are the steadier figure.
Nothing is asserted.

Usage: python benchmarks/solve_reports.py [SPEC ...]   (default: every reports/solve_*.toml)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.solve.run import run_solve
from trustme_analysis.solve.spec import load_solve_file, parse_solve

REPORTS = Path(__file__).resolve().parents[1] / "reports"
REFERENCE = {"name": "reference", "game": "kuhn_poker", "algorithm": "dcfr", "iterations": 2000, "eval_every": 100}


def timed(spec, out: Path) -> dict[str, float]:
    """Wall and CPU seconds of one whole solve, with the result's compile and solver seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run_solve(spec, out, quiet=True)
    return {
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "compile": result["compile_seconds"],
        "solver": result["solver_seconds"],
        "iterations": result["iterations"],
        "metric": result["metric"],
        "value": result["value"],
        "stop": result["stop_reason"],
        "histories": result["sizes"]["histories"],
    }


def main(paths: list[str]) -> None:
    specs = [Path(p) for p in paths] or sorted(REPORTS.glob("solve_*.toml"))
    with tempfile.TemporaryDirectory() as tmp:
        timed(parse_solve(REFERENCE), Path(tmp) / "warm-up")  # compiles the numba kernels once, outside the timings
        ref = timed(parse_solve(REFERENCE), Path(tmp) / "reference")
        print(f"reference: DCFR on kuhn_poker, {ref['iterations']} iterations: wall {ref['wall']:.2f} s, "
              f"CPU {ref['cpu']:.2f} s")
        print(f"{'spec / section':42} {'histories':>10} {'iterations':>10} {'stop':>10} {'metric value':>14} "
              f"{'compile s':>9} {'solver s':>9} {'wall s':>8} {'CPU s':>8} {'CPU / ref':>9}")
        for path in specs:
            solve_file = load_solve_file(path)
            for spec in solve_file.solves:
                t = timed(spec, Path(tmp) / path.stem)
                label = f"{path.stem} / {spec.name}"
                print(f"{label:42} {t['histories']:>10,} {t['iterations']:>10,} {t['stop']:>10} "
                      f"{t['value']:>14.4g} {t['compile']:>9.2f} {t['solver']:>9.2f} {t['wall']:>8.1f} "
                      f"{t['cpu']:>8.1f} {t['cpu'] / ref['cpu']:>9.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
