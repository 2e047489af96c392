"""The compiled heuristic is the Python heuristic, and ``Kernel.state_from`` is the engine's position.

At every decision of engine games (heuristic and random seats, several variants and knob settings) the kernel state
built from the engine state has the same legal actions and chance outcomes, and the compiled heuristic gives the same
support and probabilities (to 1e-12) as the Python bot's ``action_probabilities``. A kernel state built mid-game
then plays on in lock-step with the engine to the same end; kernel games with heuristic seats are seeded and use
only actions the Python policy gives positive probability.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from test_board1981_support import write_small_board

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.kernel.kernel import Kernel
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.registry import game_entry

KNOB_SETS = [
    {},
    {"claim_unseen": 0.3, "claim_empty": False, "invest_threshold": 0.0, "divest_threshold": 0.5, "stake": 0.5,
     "signal_weight": 0.6},
    {"claim_unseen": 1.0, "invest_threshold": 3.0, "stake": 0.2, "signal_weight": 1.0},
]
VARIANTS = [
    ("players=2", 0),
    ("players=3,peek=true", 1),
    ("players=4,buy_max=false", 2),
    ("players=2,payoff_mix=2/2/2/10,lots=1/2/3,money=3,shares=0", 1),
    ("players=3,trust_mix=2/10/16,roll_off_tie=challenger", 0),
]


def _compare_along_games(game, knobs, seeds, kinds):
    kernel = Kernel(game, ("heuristic",), knobs=knobs)
    checked = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        bots = [make_bot(game, k, p, rng, **(knobs if k == "heuristic" else {})) for p, k in enumerate(kinds)]
        policies = [make_bot(game, "heuristic", p, rng, **knobs) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            mirror = kernel.state_from(state)
            assert mirror.current_player() == state.current_player()
            if state.is_chance_node():
                assert mirror.chance_outcomes() == state.chance_outcomes()
                state.apply_action(sample_chance(state, rng))
                continue
            p = state.current_player()
            assert mirror.legal_actions() == state.legal_actions()
            expected = policies[p].action_probabilities(state)
            got = kernel.heuristic_policy(mirror)
            assert set(got) == set(expected)
            assert {a for a, x in got.items() if x > 0} == {a for a, x in expected.items() if x > 0}, state.phase_name()
            for a in expected:
                assert abs(got[a] - expected[a]) <= 1e-12, (state.phase_name(), a, got, expected)
            checked += 1
            state.apply_action(bots[p].step(state))
    return checked


@pytest.mark.parametrize("variant,knob_set", VARIANTS)
def test_compiled_heuristic_equals_the_python_policy(variant, knob_set):
    game = pyspiel.load_game(f"trustme_1981({variant})")
    n = game.num_players()
    kinds = ["heuristic"] * (n - 1) + ["random"]
    checked = _compare_along_games(game, KNOB_SETS[knob_set], range(3), kinds)
    checked += _compare_along_games(game, KNOB_SETS[(knob_set + 1) % len(KNOB_SETS)], range(3, 5), ["heuristic"] * n)
    assert checked > 200


def test_compiled_heuristic_equals_the_python_policy_on_a_small_board(tmp_path):
    game = pyspiel.load_game("trustme_1981", {"players": 3, "board": write_small_board(tmp_path),
                                              "payoff_mix": "2/1/1/2", "peek": True})
    assert _compare_along_games(game, KNOB_SETS[1], range(6), ["heuristic", "random", "heuristic"]) > 100


def test_a_kernel_state_from_the_middle_plays_on_like_the_engine():
    game = pyspiel.load_game("trustme_1981(players=3,peek=true)")
    kernel = Kernel(game)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        for _ in range(40 + 30 * seed):
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        mirror = kernel.state_from(state)
        while not state.is_terminal():
            assert mirror.current_player() == state.current_player()
            if state.is_chance_node():
                assert mirror.chance_outcomes() == state.chance_outcomes()
                action = sample_chance(state, rng)
            else:
                assert mirror.legal_actions() == state.legal_actions()
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
            mirror.apply_action(action)
        assert mirror.is_terminal() and mirror.returns() == state.returns()
        assert mirror.wealth() == state.wealth()


def test_kernel_heuristic_seats_play_seeded_games_the_python_policy_allows():
    game = pyspiel.load_game("trustme_1981(players=2)")
    assert game_entry("trustme_1981").kernel_reason(game, ("heuristic",)) is None
    kernel = Kernel(game, ("heuristic", "random"))
    seeds = np.arange(6, dtype=np.uint64)
    a = kernel.play(seeds, histories=True)
    b = kernel.play(seeds, histories=True)
    assert a.rows() == b.rows()
    policy = make_bot(game, "heuristic", 0, np.random.default_rng(0))
    for g in range(len(seeds)):
        state = game.new_initial_state()
        for action in a.history(g):
            if not state.is_chance_node() and state.current_player() == 0:
                assert policy.action_probabilities(state)[action] > 0
            state.apply_action(action)
        assert state.is_terminal()
    # Heuristic rollouts from the start differ from random ones.
    start = kernel.opening(5)
    assert kernel.rollouts(start, 50, 1).tolist() != Kernel(game).rollouts(start, 50, 1).tolist()
