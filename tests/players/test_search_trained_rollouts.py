"""A search player over the trained policy (``rollout = "trained"``): its rollouts play the stored policy inside the
compiled kernel (Pinocchio's ``policy_rollout_kinds``), one play-out is exactly the kernel's whole trained game of
the same seed, bad knobs are refused in one line, and a sweep's train stage trains the policy its rollouts play."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.players.search import kernel_for
from trustme_analysis.registry import game_entry
from trustme_analysis.results.comparisons import seat_strength
from trustme_analysis.sweep.policies import resolve_trained, trainings
from trustme_analysis.sweep.spec import parse_spec
from trustme_analysis.train import game_settings, train

ITERATIONS = 2_000
TWO = "trustme_pinocchio(players=2)"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("policy")
    knobs = {"iterations": ITERATIONS, "seed": 4, "outdir": str(out)}
    policy = train(TWO, game_settings(TWO, iterations=ITERATIONS, seed=4), out)
    return knobs, policy


def test_one_trained_rollout_is_the_kernels_trained_game_of_that_seed(stored):
    _, policy = stored
    game = pyspiel.load_game(TWO)
    entry = game_entry("trustme_pinocchio")
    table = (*policy.lookup(), 0)
    games = entry.new_kernel(game, ["trained"], trained=table)
    rollouts = entry.new_kernel(game, ["trained"], use="rollout", trained=table)
    seeds = np.arange(40, 60, dtype=np.uint64)
    played = games.play(seeds, histories=True)
    for g, seed in enumerate(seeds):
        final = games.from_history(played.history(g)).returns()
        np.testing.assert_array_equal(rollouts.rollouts(rollouts.new_state(), 1, int(seed)), final)
    # ... and they are not the random kernel's play-outs
    random = entry.new_kernel(game, ["random"], use="rollout")
    assert not np.array_equal(random.rollouts(random.new_state(), 200, 5),
                              rollouts.rollouts(rollouts.new_state(), 200, 5))


def test_search_over_the_trained_policy_plays_its_rollouts_in_the_kernel(stored):
    knobs, policy = stored
    game = pyspiel.load_game(TWO)
    bot = make_bot(game, "search", 0, np.random.default_rng(3), budget=40, rollout="trained", rollout_knobs=knobs)
    assert bot.engine_used == "kernel" and bot.knobs()["rollout_knobs"] == knobs
    again = make_bot(game, "search", 0, np.random.default_rng(3), budget=40, rollout="trained", rollout_knobs=knobs)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert bot.action_values(state) == again.action_values(state)  # deterministic from the generator
    # The kernel is the policy's: one per (variant, policy folder), shared by the bots.
    assert kernel_for(game, "trained", policy) is bot.rollouts.kernel
    # A search seat over the trained policy ranks above a trained seat (the report's stronger line-up).
    search = {"bot": "search", "knobs": {"rollout": "trained", "budget": 40}}
    assert seat_strength(search) > seat_strength({"bot": "trained"})


def test_a_search_bot_reads_its_rollout_policy_on_its_first_decision_not_when_built(tmp_path):
    # A sweep builds its bots to check them before its train stage stores the policy: building must not train.
    knobs = {"iterations": ITERATIONS, "seed": 5, "outdir": str(tmp_path / "later")}
    bot = make_bot(pyspiel.load_game(TWO), "search", 0, np.random.default_rng(0), rollout="trained",
                   rollout_knobs=knobs)
    assert bot.engine_used == "kernel" and not (tmp_path / "later").exists()


@pytest.mark.parametrize("knobs, says", [
    ({"rollout": "trained", "rollout_knobs": 3}, "rollout_knobs=3 is not allowed; allowed: a table"),
    ({"rollout_knobs": {"seed": 1}}, "rollout is 'auto'"),
])
def test_bad_rollout_knobs_are_refused_in_one_line(knobs, says):
    with pytest.raises(ValueError, match=says):
        make_bot(pyspiel.load_game(TWO), "search", 0, np.random.default_rng(0), **knobs)


def test_the_train_stage_trains_the_policy_a_search_seats_rollouts_play(tmp_path):
    spec = parse_spec({
        "game": "trustme_pinocchio", "games": 4, "seed": 1, "params": {"players": 2},
        "lineups": {"strong": {"seats": [{"bot": "search", "knobs": {"budget": 20, "rollout": "trained"}}]},
                    "trained": {"seats": ["trained"]}},
        "train": {"iterations": ITERATIONS, "seed": 4},
    })
    found = trainings(spec, tmp_path)
    # The search seats' rollouts take [train]'s knobs, as the trained seats do: one policy for both line-ups.
    assert len(found) == 1 and set(found[0].variants) == {v.id for v in spec.variants}
    resolved = resolve_trained(spec, tmp_path, require=False)
    strong = next(v for v in resolved.variants if v.lineup.name == "strong")
    seat = strong.lineup.seats_for(2)[0]
    assert seat.knobs["rollout_knobs"]["outdir"] == found[0].outdir
    assert seat.knobs["rollout_knobs"]["iterations"] == ITERATIONS
