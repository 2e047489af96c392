"""Games per second of a probe seat against two trained seats (Pinocchio, 3 players): the sweep's kernel path
against its pyspiel path, the same line-up, records included.

    PYTHONPATH=. python benchmarks/kernel_probe_seats.py [--kernel-games 20000] [--pyspiel-games 200] [--outdir DIR]

The trained policy is trained first (a small budget: the speed of play hardly depends on it) and stored under
``--outdir``; both paths then play its stored table. The kernel figure is after a warm-up (compile or cache load).
"""

from __future__ import annotations

import argparse
import tempfile
import time

import pyspiel

from trustme_analysis.registry import game_entry
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.play import chunk_task, kernel_tables, run_chunk
from trustme_analysis.sweep.spec import parse_spec

GAME = "trustme_pinocchio"
PLAYERS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel-games", type=int, default=20_000)
    parser.add_argument("--pyspiel-games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=20_000, help="training iterations of the trained seats")
    parser.add_argument("--strategy", default="never trust")
    parser.add_argument("--outdir", default=None, help="where the trained policy is stored (default: a temp folder)")
    args = parser.parse_args()
    outdir = args.outdir or tempfile.mkdtemp(prefix="kprobe-")
    trained = {"bot": "trained", "knobs": {"iterations": args.iterations, "seed": 1, "outdir": outdir}}
    seats = [{"bot": "probe", "knobs": {"strategy": args.strategy}}, trained, trained]
    records = game_entry(GAME).part("records")

    def spec(engine: str, games: int):
        return parse_spec({"game": GAME, "games": games, "chunk_size": games, "seed": 7, "engine": engine,
                           "grid": {"players": [PLAYERS]}, "lineups": {"probe_vs_trained": {"seats": seats}}})

    fast = spec("auto", args.kernel_games)
    variant = fast.variants[0]
    print(f"auto resolves the line-up to: {variant.engine} {variant.engine_note!r}")
    from trustme_analysis.players.trained import settings_from
    from trustme_analysis.train import train

    start = time.perf_counter()
    knobs = {k: v for k, v in trained["knobs"].items() if k != "outdir"}
    train(pyspiel.load_game(variant.game_string), settings_from(knobs, GAME), outdir)
    print(f"trained the policy in {time.perf_counter() - start:.1f} s")
    kinds = engines.seat_kinds(variant.lineup, PLAYERS)
    engines.warm_up(variant.game_string, kinds)
    task = chunk_task(fast, variant, 0, records)
    start = time.perf_counter()
    frame = run_chunk(task)
    kernel_s = time.perf_counter() - start
    assert len(frame) == args.kernel_games * PLAYERS
    start = time.perf_counter()
    tables = kernel_tables(task)  # what a sweep stores (Arrow, no Python object per value)
    arrow_s = time.perf_counter() - start
    assert tables[variant.id].num_rows == args.kernel_games * PLAYERS
    slow = spec("pyspiel", args.pyspiel_games)
    start = time.perf_counter()
    slow_frame = run_chunk(chunk_task(slow, slow.variants[0], 0, records))
    pyspiel_s = time.perf_counter() - start
    assert len(slow_frame) == args.pyspiel_games * PLAYERS
    k_rate, p_rate = args.kernel_games / kernel_s, args.pyspiel_games / pyspiel_s
    print(f"kernel : {args.kernel_games:7,d} games in {kernel_s:6.2f} s = {k_rate:9,.0f} games/s as a frame "
          f"(probe win rate {frame[frame.seat == 0].win.mean():.3f})")
    print(f"kernel : {args.kernel_games:7,d} games in {arrow_s:6.2f} s = {args.kernel_games / arrow_s:9,.0f} games/s "
          "as the sweep stores them (Arrow tables)")
    print(f"pyspiel: {args.pyspiel_games:7,d} games in {pyspiel_s:6.2f} s = {p_rate:9,.0f} games/s "
          f"(probe win rate {slow_frame[slow_frame.seat == 0].win.mean():.3f})")
    print(f"speed-up: {k_rate / p_rate:,.0f}x")


if __name__ == "__main__":
    main()
