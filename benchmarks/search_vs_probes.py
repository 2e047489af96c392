"""The search player against each probe line-up (and the heuristic's): the search player in one seat (seats
rotating), a probe (or the heuristic) in every other seat; its win rate with a 95% Wilson interval against the fair
share, and its CPU seconds per decision.

Usage::

    python benchmarks/search_vs_probes.py --game "trustme_liar(players=2)" [--games 40] [--budget N]
        [--knobs '{"rollouts_per_world": 8}'] [--workers 2]

``benchmarks/players.py`` puts each probe in one seat against the heuristic; this puts the search player against
line-ups of the probes, which the target "the search player beats the heuristic and every probe" also asks for.
A seat wins when it has the best return (ties counted for each). Game ``i`` uses seed ``i`` and seats the search player
at ``i % players``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.stats.intervals import wilson


def play(args: tuple[str, str, int, int, dict]) -> tuple[bool, float, int]:
    """One game: (search player won, its CPU seconds, its decisions)."""
    game_string, opponent, seed, budget, knobs = args
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    rng = np.random.default_rng(seed)
    me = seed % n
    bots = []
    for p in range(n):
        if p == me:
            bots.append(make_bot(game, "search", p, rng, budget=budget, **knobs))
        elif opponent == "heuristic":
            bots.append(make_bot(game, "heuristic", p, rng))
        else:
            bots.append(make_bot(game, "probe", p, rng, strategy=opponent))
    state = game.new_initial_state()
    spent, decisions = 0.0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        p = state.current_player()
        start = time.process_time()
        action = bots[p].step(state)
        if p == me and len(state.legal_actions()) > 1:
            spent += time.process_time() - start
            decisions += 1
        state.apply_action(action)
    # The game's returns rank the seats in every Trust Me game (Pinocchio's tie-break chain included), so the best
    # return is a win; ties count for each seat that shares it.
    returns = state.returns()
    return returns[me] == max(returns), spent, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="trustme_liar(players=2)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=int, default=None, help="rollouts per decision (default: the game's default)")
    parser.add_argument("--knobs", default="{}", help="the search player's knobs besides the budget (JSON; default: "
                        "its own defaults)")
    parser.add_argument("--opponents", default="", help="comma-separated; default: heuristic and every probe")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(args.game)
    knobs = json.loads(args.knobs)
    opponents = [o for o in args.opponents.split(",") if o] or ["heuristic", *probe_strategies(game)]
    fair = 1.0 / game.num_players()
    budget = "the game's default" if args.budget is None else args.budget
    print(f"{args.game}  search budget {budget} knobs {knobs}")
    print(f"{'opponents':18s} {'games':>6s} {'search wins [95%]':>20s} {'fair':>5s} {'CPU s/decision':>15s}")
    with ProcessPoolExecutor(args.workers) as pool:
        for opponent in opponents:
            jobs = [(args.game, opponent, i, args.budget, knobs) for i in range(args.games)]
            results = list(pool.map(play, jobs))
            wins = sum(r[0] for r in results)
            iv = wilson(wins, len(results))
            secs = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
            cell = f"{100 * iv.estimate:.0f}% [{100 * iv.low:.0f}, {100 * iv.high:.0f}]"
            print(f"{opponent:18s} {len(results):6d} {cell:>20s} {100 * fair:4.0f}% {secs:15.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
