"""Time to solve the strategy-statistics presets of the 1981 investing round and Liar (printed, never asserted).

For each preset: the tree size, the compile time, and the solver time and iterations (DCFR, evaluated every few
iterations) to exploitability 1% of the utility range (``game.max_utility() - game.min_utility()``, the usual
target) and to a tighter absolute target; wall and CPU seconds of the whole run. Run on a shared machine, the CPU
seconds are the steadier figure.

Usage: python benchmarks/solve_presets.py [NAME ...]   (names: 1981_small, 1981_duel, liar_tiny, ...)
"""

from __future__ import annotations

import sys
import time

import pyspiel

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.engine.investment import PRESETS
from trustme_analysis.games.liar.engine.variants import TINY_VARIANTS

#: name -> (game string, tighter absolute target, evaluate every)
CASES = {
    "1981_small": (PRESETS["small"], 1e-3, 2),
    "1981_duel": (PRESETS["duel"], 1e-3, 2),
    "liar_tiny": (TINY_VARIANTS["tiny"], 1e-3, 5),
    "liar_tiny_trustme": (TINY_VARIANTS["tiny_trustme"], 1e-2, 5),
    "liar_tiny_plays2": (TINY_VARIANTS["tiny_plays2"], 2e-3, 10),
    "liar_tiny_plays2_trustme": (TINY_VARIANTS["tiny_plays2_trustme"], 2e-2, 10),
}


def measure(name: str) -> None:
    game_string, tight, every = CASES[name]
    game = pyspiel.load_game(game_string)
    span = game.max_utility() - game.min_utility()
    wall, cpu = time.perf_counter(), time.process_time()
    compiled = cfr.compile_game(game)
    compile_s = time.perf_counter() - wall
    result = cfr.solve(compiled, algorithm="dcfr", target_exploitability=tight, eval_every=every, time_limit=540)
    curve = result.curve
    first = curve[curve["exploitability"] <= 0.01 * span]
    hit = first.iloc[0] if len(first) else None
    s = compiled.summary()
    print(f"{name}: {game_string}")
    print(f"  histories={s['histories']} infosets={s['infosets_per_player']} compile={compile_s:.2f}s "
          f"utility range={span:g}")
    if hit is not None:
        print(f"  to 1% of range ({0.01 * span:g}): {int(hit['iteration'])} iterations, {hit['seconds']:.2f}s solver "
              f"(+ compile), exploitability {hit['exploitability']:.4g}")
    last = curve.iloc[-1]
    print(f"  to {tight:g} ({result.stop_reason}): {int(last['iteration'])} iterations, {last['seconds']:.2f}s solver, "
          f"exploitability {last['exploitability']:.4g}; whole run wall {time.perf_counter() - wall:.1f}s, "
          f"CPU {time.process_time() - cpu:.1f}s")


if __name__ == "__main__":
    for case in sys.argv[1:] or list(CASES):
        measure(case)
