"""The policy bot plays the stored policy, falls back where it has none, and refuses another variant."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

from tests.solve.conftest import PINOCCHIO_TINY
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.solve import storage


def _first_decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_policy_bot_plays_the_stored_distribution(solved_tiny):
    out, _ = solved_tiny
    path = str(storage.solution_dir(out, "tiny") / storage.POLICY)
    game = pyspiel.load_game(PINOCCHIO_TINY)
    assert "policy" in bot_kinds("trustme_pinocchio")
    state = _first_decision(game)
    table = storage.load_policy(path)["policy"][state.information_state_string(0)]
    bot = make_bot(game, "policy", 0, np.random.default_rng(3), policy=path)
    probs = bot.action_probabilities(state)
    assert probs == pytest.approx({a: p for a, p in table.items() if a in state.legal_actions()})
    picks = [bot.choose(state) for _ in range(200)]
    assert set(picks) <= {a for a, p in probs.items() if p > 0}
    assert bot.misses == 0


def test_policy_bot_falls_back_at_unlisted_states(solved_tiny, tmp_path):
    out, _ = solved_tiny
    data = json.loads((storage.solution_dir(out, "tiny") / storage.POLICY).read_text())
    game = pyspiel.load_game(PINOCCHIO_TINY)
    state = _first_decision(game)
    del data["policy"][state.information_state_string(0)]
    del data["fingerprint"]  # an edited policy is another policy: its stored fingerprint no longer holds
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(data))
    bot = make_bot(game, "policy", 0, np.random.default_rng(0), policy=str(path))
    legal = state.legal_actions()
    assert bot.action_probabilities(state) == pytest.approx({a: 1 / len(legal) for a in legal})
    bot.choose(state)
    assert bot.misses == 1
    heuristic = make_bot(game, "policy", 0, np.random.default_rng(0), policy=str(path), fallback="heuristic")
    expected = make_bot(game, "heuristic", 0, np.random.default_rng(0)).action_probabilities(state)
    assert heuristic.action_probabilities(state) == pytest.approx(expected)


def test_policy_bot_refuses_another_variant_and_bad_knobs(solved_tiny):
    out, _ = solved_tiny
    path = str(storage.solution_dir(out, "tiny"))
    other = pyspiel.load_game(PINOCCHIO_TINY.replace("chart=1/3", "chart=1/4"))
    with pytest.raises(ValueError, match="solved for"):
        make_bot(other, "policy", 0, np.random.default_rng(0), policy=path)
    game = pyspiel.load_game(PINOCCHIO_TINY)
    with pytest.raises(ValueError, match="needs knob solve .* or policy"):
        make_bot(game, "policy", 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="knob policy=''"):
        make_bot(game, "policy", 0, np.random.default_rng(0), policy="")
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['bluff_rate'\]"):
        make_bot(game, "policy", 0, np.random.default_rng(0), policy=path, bluff_rate=0.1)
    missing = make_bot(game, "policy", 0, np.random.default_rng(0), policy=path + "/nope.json")
    with pytest.raises(FileNotFoundError, match="run the solve first"):
        missing.choose(_first_decision(game))
