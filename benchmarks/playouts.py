"""Full random playouts per second through the pyspiel API, beside OpenSpiel's own ``python_kuhn_poker``.

Run: ``python benchmarks/playouts.py [--seconds S]``. Each line gives games/s and steps/s for one game string and the
ratio of its steps/s to the reference game measured in the same process (the machines are shared and noisy, so only
the ratio is comparable between runs).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

import trustme_analysis  # noqa: F401  (registers the Trust Me games)

REFERENCE = "python_kuhn_poker"

# One line per engine variant; each engine adds its own.
GAMES: list[str] = [
    "trustme_1981(players=2)",
    "trustme_1981(players=3)",
    "trustme_1981(players=4)",
    "trustme_1981_investment(players=3)",
    "trustme_pinocchio(players=2)",
    "trustme_pinocchio(players=3)",
    "trustme_pinocchio(players=4)",
    "trustme_liar(players=2)",
    "trustme_liar(players=4)",
    "trustme_liar(players=6)",
    "trustme_liar(players=4,mode=trustme)",
    "trustme_liar(players=4,values=8)",
    "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6)",
]


def random_playouts(game_string: str, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play uniform random games of ``game_string`` for about ``seconds``; return (games, steps, elapsed)."""
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))]
            else:
                legal = state.legal_actions()
                action = legal[rng.integers(len(legal))]
            state.apply_action(action)
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each game string")
    args = parser.parse_args()
    ref_games, ref_steps, ref_time = random_playouts(REFERENCE, args.seconds)
    ref_rate = ref_steps / ref_time
    print(f"{'game':60s} {'games/s':>10s} {'steps/s':>10s} {'steps/game':>10s} {'steps/s vs ref':>14s}")
    print(f"{REFERENCE:60s} {ref_games / ref_time:10.1f} {ref_rate:10.0f} {ref_steps / ref_games:10.1f} {1.0:14.3f}")
    for game_string in GAMES:
        n, steps, elapsed = random_playouts(game_string, args.seconds)
        rate = steps / elapsed
        print(f"{game_string:60s} {n / elapsed:10.1f} {rate:10.0f} {steps / max(n, 1):10.1f} {rate / ref_rate:14.3f}")


if __name__ == "__main__":
    main()
