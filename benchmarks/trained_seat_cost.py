"""What a trained Pinocchio seat's decision costs, part by part (issue 28's speed target: trained-seat games at
>= 25% of random-seat games per CPU second, 2 players).

Usage::

    python benchmarks/trained_seat_cost.py [--games 20000] [--iterations 400000] [--seed 37] [--out /tmp/seat_cost]

It trains (or reuses, under ``--out``) a 2-player policy, then plays the same seeds in the kernel with every seat of
one kind, in this process, and prints games per CPU second and the ratio to random seats for:

- ``random`` and ``heuristic`` seats (the kernel's own);
- ``heuristic row``: a trained seat's decision cut down to listing the legal moves and computing the heuristic's
  row over them (``heuristic_probs``), then drawing from it: what every trained decision computes first, since the
  coarse level marks each move with the heuristic's choice;
- ``+ position key``: the same plus the position key (``abstraction.info_key``);
- ``+ move descriptions``: the whole row (``abstraction.row_of``: the descriptions and their slot keys) drawn
  from the heuristic's probabilities, without reading the table;
- ``trained``: the trained seat itself (the table lookups too).

The cut-down seats are built from ``kernel/trained.py``'s own source with the first lines of ``trained_action``
replaced (the draw that follows is the seat's), so they stay what the seat computes; they play different games than
the trained seat (their draws differ), of about the same length. The ratios, not the absolute rates, are the result:
the machine is shared.
"""

from __future__ import annotations

import argparse
import inspect
import time
import types

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.pinocchio.kernel import trained as trained_module
from trustme_analysis.registry import find_game
from trustme_analysis.train import game_settings, train

#: The first lines of ``trained_action``: the row and the table lookup, which each cut-down seat replaces.
ROW_LINES = ("    na = K.legal_actions(s, R, acts, cbuf)\n"
             "    m = A.row_of(s, R, s[K.ACTOR], acts, na, row, which, detail, probs)\n"
             "    T.known_row(tkeys, tavg, row, m, probs)\n")
CUTS = {
    "heuristic row": ("    na = K.legal_actions(s, R, acts, cbuf)\n"
                      "    K.heuristic_probs(s, R, A.DEFAULT_HEURISTIC, acts, na, probs, row)\n"
                      "    m = na\n"
                      "    for j in range(na):\n"
                      "        which[j] = j\n"),
    # (the key decides nothing here, but it is read so that the compiler keeps it)
    "+ position key": ("    na = K.legal_actions(s, R, acts, cbuf)\n"
                       "    K.heuristic_probs(s, R, A.DEFAULT_HEURISTIC, acts, na, probs, row)\n"
                       "    m = na\n"
                       "    key = A.info_key(s, R, s[K.ACTOR], detail)\n"
                       "    for j in range(na):\n"
                       "        which[j] = j if key != 5 else 0\n"),
    "+ move descriptions": ("    na = K.legal_actions(s, R, acts, cbuf)\n"
                            "    m = A.row_of(s, R, s[K.ACTOR], acts, na, row, which, detail, probs)\n"),
}


def cut_down(label: str):
    """``play_batch_trained`` of a module compiled from ``kernel/trained.py`` with the row lines cut to ``label``'s
    (no numba cache: the module has no file)."""
    src = inspect.getsource(trained_module)
    if ROW_LINES not in src:
        raise SystemExit("benchmarks/trained_seat_cost.py: trained_action's first lines changed; update ROW_LINES")
    src = src.replace(ROW_LINES, CUTS[label]).replace("cache=True", "cache=False")
    src = src.replace("from cfr.numba_borrowing import borrowing",
                      "from cfr.numba_borrowing import borrowing as _borrowing\n"
                      "def borrowing():\n"
                      "    return _borrowing(cache=False)")
    mod = types.ModuleType(f"trained_seat_cost_{len(label)}")
    exec(compile(src, mod.__name__, "exec"), mod.__dict__)
    return mod.play_batch_trained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--iterations", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--out", default="/tmp/seat_cost")
    args = parser.parse_args()
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    policy = train(game, game_settings(game, iterations=args.iterations, seed=args.seed), args.out)
    kernel_class = find_game("trustme_pinocchio").kernel_part("kernel")
    seeds = np.arange(args.games, dtype=np.uint64)
    original = trained_module.play_batch_trained
    rates: dict[str, float] = {}
    try:
        for label in ("random", "heuristic", *CUTS, "trained"):
            if label in ("random", "heuristic"):
                k = kernel_class(game, [label])
            else:
                trained_module.play_batch_trained = cut_down(label) if label in CUTS else original
                k = kernel_class(game, ["trained"], trained=(*policy.lookup(), 0))
            k.play(seeds[:64])  # compile first
            t0 = time.process_time()
            k.play(seeds)
            rates[label] = len(seeds) / (time.process_time() - t0)
    finally:
        trained_module.play_batch_trained = original
    print("| seats | games per CPU s | of random | CPU µs per game |")
    print("|---|---|---|---|")
    for label, r in rates.items():
        print(f"| {label} | {r:,.0f} | {100 * r / rates['random']:.1f}% | {1e6 / r:.1f} |")


if __name__ == "__main__":
    main()
