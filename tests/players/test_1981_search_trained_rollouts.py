"""A search player over the trained policy in Trust Me (1981) (``rollout = "trained"``): its rollouts play the stored
policy inside the compiled kernel (the entry's ``policy_rollout_kinds``, :mod:`~trustme_analysis.games.board1981.
kernel.trained_rollouts`).

One play-out from the start is exactly the kernel's whole trained game of the seed the rollout loop derives (play-out
``i`` of seed ``s`` is seeded by the ``i``-th SplitMix64 output of ``s``); the search bot plays its rollouts in the
policy's kernel and replays from its generator."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.compiled_draws import next_u64
from trustme_analysis.games.board1981.engine.state import INVEST_CHOICE
from trustme_analysis.games.board1981.kernel.trained import SEAT_TRAINED
from trustme_analysis.players import make_bot
from trustme_analysis.players.search import kernel_for
from trustme_analysis.registry import game_entry
from trustme_analysis.train import game_settings, train

ITERATIONS = 2_000
TWO = "trustme_1981(players=2)"
# Wealth returns: a play-out's returns are both seats' final wealth, so equal returns mean equal games.
WEALTH = "trustme_1981(players=2,utility=wealth)"
ENTRY = game_entry("trustme_1981")


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("policy")
    knobs = {"iterations": ITERATIONS, "seed": 4, "outdir": str(out)}
    policy = train(TWO, game_settings(TWO, iterations=ITERATIONS, seed=4), out)
    return knobs, policy


def derived_seeds(seed: int, n: int) -> np.ndarray:
    """The seeds of play-outs ``0..n-1`` of a rollout call seeded with ``seed`` (SplitMix64 outputs of ``seed``)."""
    base = np.asarray([seed], np.uint64)
    return np.asarray([next_u64(base) for _ in range(n)], np.uint64)


def positions(game: pyspiel.Game, count: int, seed: int) -> list[pyspiel.State]:
    """Engine states at decisions with more than one legal move from games of uniformly random moves, investing
    decisions among them (the belief weighs the others' investing choices there)."""
    rng = np.random.default_rng(seed)
    out: list[pyspiel.State] = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and (state._phase == INVEST_CHOICE or rng.random() < 0.05):
                out.append(state.clone())
            state.apply_action(legal[rng.integers(len(legal))])
    return out


def test_the_entry_plays_trained_rollouts_only_with_a_policy():
    game = pyspiel.load_game(TWO)
    assert ENTRY.kernel.policy_rollout_kinds == ("trained",)
    assert "only when handed a trained policy" in ENTRY.kernel_reason(game, ["trained"], use="rollout")
    assert ENTRY.kernel_reason(game, ["trained", "heuristic"], use="rollout", trained=True) is None


def test_trained_rollouts_are_the_kernels_trained_games_of_the_derived_seeds(tmp_path):
    policy = train(WEALTH, game_settings(WEALTH, iterations=ITERATIONS, seed=4), tmp_path)
    game = pyspiel.load_game(WEALTH)
    table = (*policy.lookup(), 0)
    games = ENTRY.new_kernel(game, ["trained"], trained=table)
    rollouts = ENTRY.new_kernel(game, ["trained"], use="rollout", trained=table)
    start = rollouts.new_state()
    for seed in range(40, 60):
        played = games.play(derived_seeds(seed, 1))
        np.testing.assert_array_equal(rollouts.rollouts(start, 1, seed), played.returns[0])
    # n play-outs: the mean of the whole games of the first n derived seeds
    played = games.play(derived_seeds(7, 5))
    np.testing.assert_array_equal(rollouts.rollouts(start, 5, 7), played.returns.sum(axis=0) / 5)
    # ... mixed with a heuristic seat as well
    mixed = ENTRY.new_kernel(game, ["heuristic", "trained"], use="rollout", trained=table)
    mixed_games = ENTRY.new_kernel(game, ["heuristic", "trained"], trained=table)
    np.testing.assert_array_equal(mixed.rollouts(start, 1, 3), mixed_games.play(derived_seeds(3, 1)).returns[0])
    # ... and they are not the random or the heuristic kernel's play-outs
    for kind in ("random", "heuristic"):
        other = ENTRY.new_kernel(game, [kind], use="rollout")
        assert not np.array_equal(other.rollouts(other.new_state(), 200, 5), rollouts.rollouts(start, 200, 5))


def test_paired_trained_rollouts_replay_from_their_seed_and_differ_from_the_heuristics(stored):
    _, policy = stored
    game = pyspiel.load_game(TWO)
    trained = ENTRY.new_kernel(game, ["trained"], use="rollout", trained=(*policy.lookup(), 0))
    heuristic = ENTRY.new_kernel(game, ["heuristic"], use="rollout")
    differ = 0
    for i, state in enumerate(positions(game, 6, 3)):
        args = (state.legal_actions(), 30, 1, i, state.current_player(), True)
        means = trained.action_rollouts(trained.state_from(state), *args)
        assert means.shape == (len(args[0]), 2)
        np.testing.assert_array_equal(means, trained.action_rollouts(trained.state_from(state), *args))
        differ += not np.array_equal(means, heuristic.action_rollouts(heuristic.state_from(state), *args))
    assert differ >= 5


def test_search_over_the_trained_policy_plays_its_rollouts_in_the_kernel(stored, monkeypatch):
    knobs, policy = stored
    game = pyspiel.load_game(TWO)
    bot = make_bot(game, "search", 0, np.random.default_rng(3), budget=40, rollout="trained", rollout_knobs=knobs)
    assert bot.engine_used == "kernel" and bot.knobs()["rollout_knobs"] == knobs
    again = make_bot(game, "search", 0, np.random.default_rng(3), budget=40, rollout="trained", rollout_knobs=knobs)
    state = positions(game, 1, 5)[0]
    if state.current_player() != 0:
        bot = make_bot(game, "search", 1, np.random.default_rng(3), budget=40, rollout="trained", rollout_knobs=knobs)
        again = make_bot(game, "search", 1, np.random.default_rng(3), budget=40, rollout="trained",
                         rollout_knobs=knobs)
    # The kernel is the policy's: one per (variant, policy folder), shared by the bots; every seat plays it.
    kernel = kernel_for(game, "trained", policy)
    assert kernel is bot.rollouts.kernel and kernel is again.rollouts.kernel
    assert kernel.seat_kinds.tolist() == [SEAT_TRAINED, SEAT_TRAINED]
    calls = []
    rollouts = kernel.action_rollouts
    monkeypatch.setattr(kernel, "action_rollouts", lambda *a, **k: calls.append(a) or rollouts(*a, **k))
    values = bot.action_values(state)
    assert calls and set(values) == set(state.legal_actions())
    assert values == again.action_values(state)  # deterministic from the generator
    # ... and not the heuristic rollouts' values from the same generator
    heuristic = make_bot(game, "search", bot.player_id, np.random.default_rng(3), budget=40, rollout="heuristic")
    assert heuristic.action_values(state) != values


def test_a_search_seat_over_the_trained_policy_plays_a_short_game(stored):
    from trustme_analysis.players.play import play_game

    knobs, _ = stored
    game = pyspiel.load_game("trustme_1981(players=2,max_turns=12)")
    histories = []
    for _ in range(2):
        rng = np.random.default_rng(8)
        seats = [make_bot(game, "search", 0, rng, budget=24, rollout="trained", rollout_knobs=knobs),
                 make_bot(game, "heuristic", 1, rng)]
        histories.append(play_game(game, seats, rng).history())
    assert histories[0] == histories[1] and len(histories[0]) > 10
