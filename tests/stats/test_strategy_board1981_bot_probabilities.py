"""The trustme_1981 heuristic bot states the mixed strategy its ``choose`` draws from (for exact best responses)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.bots import make_bot


def _decisions(game, seed, limit):
    """States at the first ``limit`` decisions of a game played by heuristic bots (chance sampled)."""
    rng = np.random.default_rng(seed)
    bots = [make_bot(game, "heuristic", p, np.random.default_rng(seed + p)) for p in range(game.num_players())]
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < limit:
        if state.is_chance_node():
            outcomes, p = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(p) / sum(p))])
            continue
        out.append(state.clone())
        state.apply_action(bots[state.current_player()].step(state))
    return out


def test_property_decision_mixes_look_and_claim_unseen_by_the_knob():
    game = pyspiel.load_game("trustme_1981(players=2)")
    found = 0
    for seed in range(6):
        for state in _decisions(game, seed, 150):
            if state.phase_name() != "property" or game.a_claim_unseen not in state.legal_actions():
                continue
            me = state.current_player()
            prop = game.board.space_property[state.positions()[me]]
            if prop in state.known_cards(me):
                continue
            probs = make_bot(game, "heuristic", me, np.random.default_rng(0), claim_unseen=0.3).action_probabilities(
                state)
            assert probs[game.a_claim_unseen] == pytest.approx(0.3)
            assert probs[game.a_look] == pytest.approx(0.7)
            found += 1
    assert found > 0


def test_choose_draws_from_the_stated_probabilities():
    """choose() only takes actions with positive probability; deterministic decisions are taken every time, and
    mixed ones within 4.5 standard errors over 150 generators."""
    game = pyspiel.load_game("trustme_1981(players=3)")
    mixed = 0
    for state in _decisions(game, 3, 120):
        bot = make_bot(game, "heuristic", state.current_player(), np.random.default_rng(0))
        probs = bot.action_probabilities(state)
        assert sorted(probs) == sorted(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        draws = 150 if max(probs.values()) < 1 else 5
        mixed += draws == 150
        counts: dict[int, int] = {}
        for d in range(draws):
            bot.rng = np.random.default_rng(500 + d)
            a = bot.choose(state)
            assert probs[a] > 0
            counts[a] = counts.get(a, 0) + 1
        for a, p in probs.items():
            assert abs(counts.get(a, 0) / draws - p) <= 4.5 * np.sqrt(p * (1 - p) / draws) + 1e-12
    assert mixed > 0
