"""The draw protocol (trustme_analysis/engine/draws.py): its generator, and its compiled primitives
(trustme_analysis/engine/compiled_draws.py), the one copy every kernel imports."""

from __future__ import annotations

import numpy as np
import pytest

from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.draws import GameStream, pick, pick_weighted, walk

#: The compiled primitives (next output, integer below n, uniform float) on a one-element uint64 state array.
KERNELS = {
    "compiled_draws": (compiled_draws.next_u64, compiled_draws.below, compiled_draws.uniform01),
}


def test_splitmix64_gives_the_reference_outputs():
    # The first outputs of SplitMix64 from state 0 (Vigna's splitmix64.c).
    stream = GameStream(0)
    assert [stream.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_kernel_draws_what_the_protocol_draws(name):
    """Draw by draw, for many seeds and bounds (including bounds where multiply-and-reject rejects): the same outputs,
    integers, floats and generator states."""
    next_u64, below, uniform = KERNELS[name]
    rng = np.random.default_rng(7)
    bounds = [1, 2, 3, 6, 7, 52, 1000, 14_000, (1 << 31) + 1, (1 << 32) - 1]
    if name == "compiled_draws":  # Liar deals many copies into many cards: C(160, 8) ~ 4.2e11 deals (128-bit)
        bounds += [1 << 32, 421_171_716_095, (1 << 62) + 3, (1 << 63) - 1]
    for seed in [0, 1, (1 << 64) - 1, *rng.integers(0, 2**63, size=40).tolist()]:
        ours = GameStream(seed)
        theirs = np.array([seed], dtype=np.uint64)
        for step in range(60):
            kind = step % 3
            if kind == 0:
                assert next_u64(theirs) == ours.next_u64()
            elif kind == 1:
                n = bounds[step % len(bounds)]
                assert below(theirs, n) == ours.below(n)
            else:
                assert uniform(theirs) == ours.random()
            assert int(theirs[0]) == ours.state


def test_below_is_uniform_and_exact_where_plain_scaling_is_not():
    """Lemire's rejection makes every value equally likely: with n = 2**31 + 1 (where 32-bit scaling would favour
    some values), the share of the lower half of the range is 1/2 within sampling error."""
    stream = GameStream(11)
    n = (1 << 31) + 1
    draws = np.array([stream.below(n) for _ in range(20_000)])
    assert draws.min() >= 0 and draws.max() < n
    assert abs((draws < n // 2).mean() - 0.5) < 4 * 0.5 / np.sqrt(len(draws))
    small = np.bincount([stream.below(6) for _ in range(60_000)], minlength=6)
    expected = 10_000
    assert ((small - expected) ** 2 / expected).sum() < 20.5  # chi-square, 5 degrees of freedom, p ~ 0.001


def test_walk_compares_before_it_subtracts_and_falls_back_to_the_last_positive():
    assert walk([0.5, 0.5], 0.0) == 0
    assert walk([0.5, 0.5], 0.4999) == 0
    assert walk([0.5, 0.5], 0.5) == 1
    assert walk([0.2, 0.0, 0.3, 0.5], 0.35) == 2
    assert walk([0.25, 0.25, 0.0], 0.9999) == 1  # rounding leaves u past them all: the last positive one
    with pytest.raises(ValueError):
        walk([0.0, 0.0], 0.1)


def test_a_sure_outcome_draws_nothing_and_others_draw_once():
    stream = GameStream(3)
    assert pick([(4, 0.0), (9, 1.0)], stream) == 9
    assert stream.state == 3
    pick([(4, 0.5), (9, 0.5)], stream)
    assert stream.state == GameStream(3).state + 0x9E3779B97F4A7C15


def test_rewound_stands_where_the_stream_stood():
    stream = GameStream(5)
    stream.random()
    before = stream.state
    values = [stream.below(10), stream.random()]
    again = stream.rewound(2)
    assert again.state == before
    assert [again.below(10), again.random()] == values
    assert stream.rewound(0).state == stream.state
    with pytest.raises(ValueError, match="draws=9 is not allowed"):
        stream.rewound(9)


def test_bad_arguments_name_what_is_allowed():
    with pytest.raises(ValueError, match="seed=-1 is not allowed"):
        GameStream(-1)
    with pytest.raises(ValueError, match="n=0 is not allowed"):
        GameStream(1).below(0)
    with pytest.raises(ValueError, match=r"allowed: 1 to 2\*\*63 - 1"):
        GameStream(1).below(1 << 63)
    assert GameStream(1).integers(5, 6) == 5


def test_pick_weighted_walks_integer_blocks_and_a_sure_outcome_draws_nothing():
    stream = GameStream(3)
    assert pick_weighted([(7, 0), (8, 5)], stream) == 8
    assert stream.state == 3
    picks = [pick_weighted([(0, 1), (1, 2), (2, 3)], GameStream(s)) for s in range(6000)]
    assert [picks.count(i) for i in range(3)] == pytest.approx([1000, 2000, 3000], rel=0.1)
    # The integer r below the total decides: r = 0 -> the first outcome, r = 1, 2 -> the second, r >= 3 the third.
    for seed in range(50):
        r = GameStream(seed).below(6)
        assert pick_weighted([(0, 1), (1, 2), (2, 3)], GameStream(seed)) == (0 if r < 1 else 1 if r < 3 else 2)


@pytest.mark.parametrize("game_string", ["trustme_pinocchio(players=3)", "trustme_liar(players=4)",
                                         "trustme_1981(players=2)"])
def test_chance_outcomes_are_the_chance_weights_over_their_sum(game_string):
    """The state of every game with a kernel states whole-number chance weights (the protocol draws by them); its
    probabilities are those weights over their sum, exactly, at every chance node of random games. (The 1981
    investing round alone has no kernel and states percentages: it walks its probabilities.)"""
    import pyspiel

    import trustme_analysis  # noqa: F401  (registers the games)

    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(1)
    nodes = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                weights = state.chance_weights()
                total = sum(w for _, w in weights)
                assert all(isinstance(w, int) and w > 0 for _, w in weights)
                assert state.chance_outcomes() == [(a, w / total) for a, w in weights]
                nodes += 1
                state.apply_action(weights[rng.integers(len(weights))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
    assert nodes >= 5
