"""OpenSpiel's own consistency checks and property tests over random play of trustme_1981."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_board1981_support import write_small_board

import trustme_analysis  # noqa: F401


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_default_board(players):
    # A lower turn cap keeps the serialise-at-every-step check quick; cap ends are part of what is checked.
    game = pyspiel.load_game(f"trustme_1981(players={players},max_turns=120,peek=True)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_other_board_file(tmp_path):
    game = pyspiel.load_game(
        "trustme_1981", {"players": 3, "board": write_small_board(tmp_path), "payoff_mix": "2/1/1/2"}
    )
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _random_game_checked(game, seed):
    """Play uniformly at random from ``seed``, checking the money and share invariants after every step."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    n = game.num_players()
    start_money = n * game.rules.money
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        steps += 1
        assert steps <= game.max_game_length()
        flows = state.bank_flows()
        # Money only enters or leaves the players and the reserve through the Bank, and that is accounted.
        assert sum(state.money()) + state.reserve() == start_money + flows["bank_out"] - flows["bank_in"]
        assert min(state.shares()) >= 0 and min(state.money()) >= 0
    return state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_money_conserved_shares_never_negative_game_ends(tmp_path, seed, players):
    game = pyspiel.load_game(
        "trustme_1981",
        {"players": players, "board": write_small_board(tmp_path), "payoff_mix": "2/1/1/2", "max_turns": 150},
    )
    state = _random_game_checked(game, seed)
    snap = state.snapshot()
    assert snap["end"] in ("two_cases_left", "turn_cap")
    assert [w["total"] for w in snap["wealth"]] == state.wealth()
    json.dumps(snap)


def test_default_game_ends_and_snapshot_events_are_json():
    game = pyspiel.load_game("trustme_1981(players=4)")
    state = _random_game_checked(game, 7)
    snap = state.snapshot()
    kinds = {e["kind"] for e in snap["events"]}
    assert {"turn", "roll", "move", "investing", "invest", "reveal", "end"} <= kinds
    assert len(snap["cases_left"]) == 2 or snap["end"] == "turn_cap"
    json.loads(json.dumps(snap))
