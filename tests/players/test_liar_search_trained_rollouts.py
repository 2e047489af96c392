"""A search player over the trained policy in Liar (``rollout = "trained"``): its rollouts play the stored policy
inside the compiled kernel (Liar's ``policy_rollout_kinds``, ``kernel.trained_rollouts``). One play-out from the start
is exactly the kernel's whole trained game of the same seed (mixed line-ups too); with no trained seat the trained
loops are the untrained ones bit for bit (same worlds, same draws); the search bot plays its rounds in the policy's
kernel, deterministically from its generator."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.liar.kernel import trained_rollouts as TRR
from trustme_analysis.games.liar.players import bots
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.search import kernel_for
from trustme_analysis.registry import game_entry
from trustme_analysis.train import game_settings, train
from trustme_analysis.train.tables import EMPTY

ITERATIONS = 3_000
TWO = "trustme_liar(players=2)"
#: A smaller deck with three seats: piles of others' plays, pickups, several models of the others.
SMALL = "trustme_liar(players=3,values=6,copies=4,max_play=3)"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("policy")
    knobs = {"iterations": ITERATIONS, "seed": 4, "outdir": str(out)}
    policy = train(TWO, game_settings(TWO, iterations=ITERATIONS, seed=4), out)
    return knobs, policy


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("small")
    return train(SMALL, game_settings(SMALL, iterations=ITERATIONS, seed=2), out)


def _positions(game, seed, games=2):
    """Every decision of a few engine games between heuristic seats, as pyspiel states."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        seats = [make_bot(game, "heuristic", p, rng) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            out.append(state.clone())
            state.apply_action(seats[state.current_player()].step(state))
    return out


def test_one_trained_rollout_is_the_kernels_trained_game_of_that_seed(stored):
    _, policy = stored
    game = pyspiel.load_game(TWO)
    entry = game_entry("trustme_liar")
    table = (*policy.lookup(), 0)
    games = entry.new_kernel(game, ["trained"], trained=table)
    rollouts = entry.new_kernel(game, ["trained"], use="rollout", trained=table)
    seeds = np.arange(40, 60, dtype=np.uint64)
    played = games.play(seeds)
    for g, seed in enumerate(seeds):
        np.testing.assert_array_equal(rollouts.rollouts(rollouts.new_state(), 1, int(seed)), played.returns[g])
    # ... and they are not the random kernel's play-outs
    random = entry.new_kernel(game, ["random"], use="rollout")
    assert not np.array_equal(random.rollouts(random.new_state(), 200, 5),
                              rollouts.rollouts(rollouts.new_state(), 200, 5))
    # n play-outs continue one stream: deterministic from the seed, and their mean is a mean of returns
    many = rollouts.rollouts(rollouts.new_state(), 50, 9)
    np.testing.assert_array_equal(many, rollouts.rollouts(rollouts.new_state(), 50, 9))
    assert many.shape == (2,) and np.all(np.abs(many) <= 1.0)


def test_mixed_line_ups_roll_out_their_trained_games_too(small):
    game = pyspiel.load_game(SMALL)
    entry = game_entry("trustme_liar")
    kinds = ["trained", "heuristic", "random"]
    table = (*small.lookup(), 0)
    games = entry.new_kernel(game, kinds, trained=table)
    rollouts = entry.new_kernel(game, kinds, use="rollout", trained=table)
    seeds = np.arange(7, 27, dtype=np.uint64)
    played = games.play(seeds)
    for g, seed in enumerate(seeds):
        np.testing.assert_array_equal(rollouts.rollouts(rollouts.new_state(), 1, int(seed)), played.returns[g])


def test_trained_action_rollouts_play_the_policy_and_are_deterministic(small):
    game = pyspiel.load_game(SMALL)
    entry = game_entry("trustme_liar")
    trained = entry.new_kernel(game, ["trained"], use="rollout", trained=(*small.lookup(), 0))
    heuristic = entry.new_kernel(game, ["heuristic"], use="rollout")
    state = [s for s in _positions(game, seed=6) if len(s._table.pile) >= 2][0]
    viewer = state.current_player()
    actions = bots.search_actions(state, viewer)[:4]
    for belief in (True, False):
        a = trained.action_rollouts(trained.state_from(state), actions, 200, 1, 21, viewer, belief)
        assert a.shape == (len(actions), 3) and np.all(np.abs(a) <= 1.0)
        np.testing.assert_array_equal(a, trained.action_rollouts(trained.state_from(state), actions, 200, 1, 21,
                                                                 viewer, belief))
        assert not np.array_equal(a, heuristic.action_rollouts(heuristic.state_from(state), actions, 200, 1, 21,
                                                                viewer, belief))


def test_a_round_of_trained_play_outs_matches_the_python_path(small):
    """Without the belief, the compiled round's mean per move (worlds dealt in compiled code, played out by the
    policy) agrees with worlds from the engine's sampler, each copied into the kernel and played out by the same
    policy (``Kernel.rollouts``), within their sampling error."""
    game = pyspiel.load_game(SMALL)
    kernel = game_entry("trustme_liar").new_kernel(game, ["trained"], use="rollout", trained=(*small.lookup(), 0))
    state = [s for s in _positions(game, seed=8) if len(s._table.pile) >= 2][1]
    viewer = state.current_player()
    actions = bots.search_actions(state, viewer)[:3]
    ours = kernel.action_rollouts(kernel.state_from(state), actions, 2000, 1, 5, viewer, belief=False)[:, viewer]
    rng = np.random.default_rng(2)
    theirs = np.zeros((len(actions), 600))
    for w in range(theirs.shape[1]):
        world = state.resample_from_infostate(viewer, rng.random)
        for j, a in enumerate(actions):
            child = world.clone()
            child.apply_action(a)
            theirs[j, w] = kernel.rollouts(kernel.state_from(child), 1, int(rng.integers(2**63)))[viewer]
    for j in range(len(actions)):
        se = np.sqrt(theirs[j].var() / theirs.shape[1] + theirs[j].var() / 2000) + 1e-9
        assert abs(ours[j] - theirs[j].mean()) < 4.5 * se, (actions[j], ours[j], theirs[j].mean(), se)


def test_search_over_the_trained_policy_plays_its_rollouts_in_the_kernel(stored):
    knobs, policy = stored
    game = pyspiel.load_game(TWO)
    bot = make_bot(game, "search", 0, np.random.default_rng(3), budget=60, rollout="trained", rollout_knobs=knobs)
    assert bot.engine_used == "kernel" and bot._kernel_worlds and bot.knobs()["rollout_knobs"] == knobs
    again = make_bot(game, "search", 0, np.random.default_rng(3), budget=60, rollout="trained", rollout_knobs=knobs)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    values = bot.action_values(state)
    assert len(values) > 1 and values == again.action_values(state)  # deterministic from the generator
    # The kernel is the policy's: one per (variant, policy folder), shared by the bots; its seats are trained.
    assert kernel_for(game, "trained", policy) is bot.rollouts.kernel
    assert bot.rollouts.kernel.seat_kinds == ("trained", "trained")
    assert (bot.rollouts.kernel._policy[0] != EMPTY).any()  # the stored policy's rows, not the empty table
    # ... and it plays a game to the end against a trained seat
    seats = [bot, make_bot(game, "trained", 1, rng, **knobs)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        state.apply_action(seats[state.current_player()].step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_the_belief_is_off_by_default_over_trained_rollouts_and_on_when_asked(stored):
    # Liar's belief models heuristic-like bluffing; over the trained policy's rollouts it made the search weaker
    # against the trained line-up (belief_off_for). Over heuristic rollouts, and when a spec asks, it is on.
    knobs, _ = stored
    game = pyspiel.load_game(TWO)

    def search(**kw):
        return make_bot(game, "search", 0, np.random.default_rng(3), budget=60, **kw)

    assert game_entry("trustme_liar").belief_off_for == ("trained",)
    assert not search(rollout="trained", rollout_knobs=knobs).knobs()["belief"]
    assert search(rollout="trained", rollout_knobs=knobs, belief=True).knobs()["belief"]
    assert search(rollout="heuristic").knobs()["belief"] and search().knobs()["belief"]
    assert not search(rollout="heuristic", belief=False).knobs()["belief"]
    pinocchio = pyspiel.load_game("trustme_pinocchio(players=2)")
    assert make_bot(pinocchio, "search", 0, np.random.default_rng(3), budget=60).knobs()["belief"]
    with pytest.raises(ValueError, match="belief='yes' is not allowed"):
        search(belief="yes")


def test_the_kernel_entry_admits_trained_rollouts_only_with_a_policy():
    game = pyspiel.load_game(TWO)
    entry = game_entry("trustme_liar")
    assert entry.kernel.policy_rollout_kinds == ("trained",)
    assert "only when handed a trained policy" in entry.kernel_reason(game, ["trained"], use="rollout")
    assert entry.kernel_reason(game, ["trained"], use="rollout", trained=True) is None
    assert kernel_for(game, "trained") is None  # no policy: no kernel with trained seats


def test_the_trained_rollouts_borrow_and_their_cache_is_keyed_by_what_they_inline():
    from cfr.numba_cache import source_digest
    from trustme_analysis.engine import compiled_draws
    from trustme_analysis.games.liar.kernel import abstraction, actions, deal, heuristic, layout, moves, play, search
    from trustme_analysis.games.liar.kernel import trained
    from trustme_analysis.train import tables

    functions = (TRR.play_out_trained, TRR.rollouts_trained, TRR.action_rollouts_trained)
    for fn in functions:
        assert fn.targetoptions.get("_nrt") is False, fn.__name__  # no reference counts (cfr.numba_borrowing)
    modules = (TRR, layout, deal, actions, moves, heuristic, play, compiled_draws, search, abstraction, tables,
               trained)
    for fn in functions:
        stamp = fn._cache._cache_file._source_stamp
        assert stamp[1] == source_digest(TRR, *search.SOURCES, search, abstraction, tables, trained)
    assert set(modules) <= {TRR, *search.SOURCES, search, abstraction, tables, trained}
