"""Trained seats inside the Pinocchio kernel's whole-game loop: admitted only with a policy, deterministic per seed,
and playing only moves the trained bot gives probability (replayed through the bot)."""

import numpy as np
import pyspiel
import pytest

from trustme_analysis.games.pinocchio import kernel
from trustme_analysis.players import make_bot
from trustme_analysis.train import TrainSettings, train

GAME = "trustme_pinocchio(players=3)"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("trained")
    return train(GAME, TrainSettings(iterations=20_000, seed=4), out), str(out)


def test_trained_seats_need_a_policy(stored):
    game = pyspiel.load_game(GAME)
    assert "trained" in (kernel.kernel_supports(game, ["trained", "random", "random"]) or "")
    policy, _ = stored
    assert kernel.kernel_supports(game, ["trained", "random", "random"], trained=(*policy.lookup(), 0)) is None
    with pytest.raises(ValueError):
        kernel.Kernel(game, ["trained", "heuristic", "random"])


def test_kernel_games_play_the_bots_policy(stored):
    policy, outdir = stored
    game = pyspiel.load_game(GAME)
    kinds = ["trained", "heuristic", "trained"]
    kern = kernel.Kernel(game, kinds, trained=(*policy.lookup(), 0))
    games = kern.play_random(np.arange(12, dtype=np.uint64), histories=True)
    again = kern.play_random(np.arange(12, dtype=np.uint64), histories=True)
    assert all(games.history(g) == again.history(g) for g in range(12))
    bots = {p: make_bot(game, "trained", p, np.random.default_rng(0), iterations=20_000, seed=4, outdir=outdir)
            for p in (0, 2)}
    checked = 0
    for g in range(12):
        state = game.new_initial_state()
        for a in games.history(g):
            p = state.current_player()
            if p in bots:
                assert bots[p].action_probabilities(state).get(a, 0.0) > 0.0
                checked += 1
            state.apply_action(a)
        assert state.is_terminal()
    assert checked > 100
    with pytest.raises(ValueError, match="whole games"):
        kern.rollouts(kern.new_state(), 1, 0)
