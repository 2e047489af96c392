"""Expected values, best responses, NashConv and exploitability against OpenSpiel's own implementations."""

import functools

import numpy as np
import pyspiel
import pytest

from cfr import compile_game
from cfr.evaluate import best_response, best_response_value, expected_values, exploitability, nash_conv
from cfr.passes import normalise
from cfr.policy_io import to_dict


@functools.lru_cache(maxsize=None)
def compiled(name):
    return compile_game(name)


def random_policy(cg, seed):
    rng = np.random.default_rng(seed)
    return normalise(cg, rng.random(cg.num_slots) ** 3)


def test_kuhn_uniform_nash_conv_is_11_12():
    cg = compiled("kuhn_poker")
    assert nash_conv(cg, cg.uniform_policy()) == pytest.approx(11 / 12, abs=1e-12)
    assert exploitability(cg, cg.uniform_policy()) == pytest.approx(11 / 24, abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "python_kuhn_poker"])
def test_two_player_agreement_with_pyspiel(name):
    cg = compiled(name)
    for seed in (1, 2):
        pol = random_policy(cg, seed)
        table = to_dict(cg, pol)
        assert exploitability(cg, pol) == pytest.approx(pyspiel.exploitability(cg.game, table), abs=1e-9)
        assert nash_conv(cg, pol) == pytest.approx(pyspiel.nash_conv(cg.game, table), abs=1e-9)


def test_three_player_kuhn_agreement_with_pyspiel():
    cg = compiled("kuhn_poker(players=3)")
    for seed in (4, 5):
        pol = random_policy(cg, seed)
        assert nash_conv(cg, pol) == pytest.approx(pyspiel.nash_conv(cg.game, to_dict(cg, pol)), abs=1e-9)


def test_general_sum_game_nash_conv_and_refused_exploitability():
    # The prisoner's dilemma played in turns: uniform play leaves each player 1.5 to gain by always defecting.
    cg = compiled("turn_based_simultaneous_game(game=matrix_pd())")
    pol = cg.uniform_policy()
    assert nash_conv(cg, pol) == pytest.approx(pyspiel.nash_conv(cg.game, to_dict(cg, pol)), abs=1e-12)
    assert nash_conv(cg, pol) == pytest.approx(3.0, abs=1e-12)
    with pytest.raises(ValueError, match="not constant-sum"):
        exploitability(cg, pol)


def test_level_by_level_best_response_equals_single_pass():
    for name in ("leduc_poker", "kuhn_poker(players=3)"):
        cg = compiled(name)
        pol = random_policy(cg, 6)
        for p in range(cg.num_players):
            fast = best_response_value(cg, pol, p, by_level=False)
            general = best_response_value(cg, pol, p, by_level=True)
            assert fast == pytest.approx(general, abs=1e-12)


def test_best_response_policy_attains_its_value():
    cg = compiled("leduc_poker")
    pol = random_policy(cg, 7)
    value, br = best_response(cg, pol, 1)
    assert expected_values(cg, br)[1] == pytest.approx(value, abs=1e-12)
    lo, hi = cg.player_slots[1], cg.player_slots[2]
    assert set(np.unique(br[lo:hi]).tolist()) <= {0.0, 1.0}


def test_expected_values_of_kuhn_uniform():
    # Uniform play in Kuhn: player 0 wins 1/8 on average (known value; zero-sum so player 1 loses the same).
    ev = expected_values(compiled("kuhn_poker"), compiled("kuhn_poker").uniform_policy())
    assert ev[0] == pytest.approx(0.125, abs=1e-12) and ev[1] == pytest.approx(-0.125, abs=1e-12)


def test_policy_shape_is_checked():
    with pytest.raises(ValueError, match="shape"):
        nash_conv(compiled("kuhn_poker"), np.ones(3))
