"""Trained seats inside the Pinocchio kernel's whole-game loop: admitted only with a policy, deterministic per seed,
and playing only moves the trained bot gives probability (replayed through the bot)."""

import numpy as np
import pyspiel
import pytest

from trustme_analysis.games.pinocchio.kernel import kernel
from trustme_analysis.players import make_bot
from trustme_analysis.registry import game_entry
from trustme_analysis.train import game_settings, train

GAME = "trustme_pinocchio(players=3)"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("trained")
    return train(GAME, game_settings(GAME, iterations=20_000, seed=4), out), str(out)


def test_trained_seats_need_a_policy(stored):
    """The kernel class plays trained seats only when given a policy; the kernel entry does not offer them to sweeps
    (a sweep cannot hand the kernel a stored policy yet), so a trained line-up plays on the pyspiel path."""
    game = pyspiel.load_game(GAME)
    policy, _ = stored
    kernel.Kernel(game, ["trained", "random", "random"], trained=(*policy.lookup(), 0))
    with pytest.raises(ValueError, match="trained"):
        kernel.Kernel(game, ["trained", "heuristic", "random"])
    assert "not trained" in game_entry("trustme_pinocchio").kernel_reason(game, ["trained", "random", "random"])


def test_kernel_games_play_the_bots_policy(stored):
    policy, outdir = stored
    game = pyspiel.load_game(GAME)
    kinds = ["trained", "heuristic", "trained"]
    kern = kernel.Kernel(game, kinds, trained=(*policy.lookup(), 0))
    games = kern.play(np.arange(12, dtype=np.uint64), histories=True)
    again = kern.play(np.arange(12, dtype=np.uint64), histories=True)
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
    # The same kernel's rollouts play its seats too (a search player over the trained policy, issue 28): the
    # returns are a deterministic function of the seed.
    out = kern.rollouts(kern.new_state(), 8, 5)
    assert np.array_equal(out, kern.rollouts(kern.new_state(), 8, 5))
    assert out.shape == (3,) and np.all(np.isfinite(out))
