"""The trustme_liar heuristic bot states its mixed strategy (``choose`` draws from it): exact probabilities on a small
deck, and best responses against it equal OpenSpiel's."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.games.liar.players.heuristic import _false_card_outcomes
from trustme_analysis.games.liar import BURN, LIAR, PASS

G2 = "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=20,first_player=seat0)"


def _play_to(game, deal, moves):
    state = game.new_initial_state()
    for a in game.deal_actions(deal) + moves:
        state.apply_action(a)
    return state


def test_false_cards_are_different_values_chosen_uniformly():
    # Hand (counts per value 1..5): 1x1, 2x2, 1x3, 3x4; announcing value 5 (index 4, not held).
    hand = [1, 2, 1, 3, 0]
    assert _false_card_outcomes(hand, 4, 1) == [((0,), 0.25), ((1,), 0.25), ((2,), 0.25), ((3,), 0.25)]
    two = _false_card_outcomes(hand, 4, 2)
    assert len(two) == 6 and all(p == pytest.approx(1 / 6) for _, p in two)
    # More false cards asked than values held: one card of each.
    assert _false_card_outcomes([1, 0, 1], 1, 3) == [((0, 2), 1.0)]
    assert _false_card_outcomes([0, 0, 2, 0, 0], 2, 1) == []


def test_starter_and_responder_probabilities_on_a_small_deck():
    game = pyspiel.load_game(G2)
    # Seat 0 holds 1, 2, 3 (no pairs): each value is held most and has one copy out of sight; honest by default.
    state = _play_to(game, [[1, 2, 3], [1, 2, 3]], [])
    probs = make_bot(game, "heuristic", 0, np.random.default_rng(0)).action_probabilities(state)
    assert {a: p for a, p in probs.items() if p} == {game.play_action([v], v): pytest.approx(1 / 3) for v in (1, 2, 3)}
    # With slack for one false card and bluff_start 0.4: 0.6 honest, 0.4 adding one of the two other values.
    probs = make_bot(game, "heuristic", 0, np.random.default_rng(0), bluff_slack=1, bluff_start=0.4,
                     bluff_per_card=0.0).action_probabilities(state)
    for v in (1, 2, 3):
        assert probs[game.play_action([v], v)] == pytest.approx(0.6 / 3)
        for w in (1, 2, 3):
            if w != v:
                assert probs[game.play_action(sorted([v, w]), v)] == pytest.approx(0.4 / 3 / 2)
    assert sum(probs.values()) == pytest.approx(1.0)
    # Seat 0 plays a true 1; seat 1 holds the other 1: the claim is as likely false as the prior, below the call
    # threshold, so seat 1 adds its true 1 (or calls at call_rate).
    state.apply_action(game.play_action([1], 1))
    probs = make_bot(game, "heuristic", 1, np.random.default_rng(0), call_rate=0.25).action_probabilities(state)
    assert probs[LIAR] == pytest.approx(0.25) and probs[game.play_action([1], 1)] == pytest.approx(0.75)
    # Seat 1 passes: seat 0 has no 1 left, so it burns (bluffing would be provably false).
    state.apply_action(PASS)
    probs = make_bot(game, "heuristic", 0, np.random.default_rng(0), burn_rate=0.6).action_probabilities(state)
    assert probs[BURN] == pytest.approx(1.0)


def test_best_response_against_the_heuristic_bot_matches_open_spiel():
    from open_spiel.python.algorithms.best_response import BestResponsePolicy

    import cfr
    from trustme_analysis.solve.profile import bots_policy

    cg = cfr.compile_game("trustme_liar(players=2,values=2,copies=2,max_play=2,max_turns=4)")
    game = cg.game
    for seat in (0, 1):
        other = 1 - seat
        bot = make_bot(game, "heuristic", other, np.random.default_rng(0), call_rate=0.3, bluff_rate=0.4)
        profile = bots_policy(cg, {other: bot})
        ours = cfr.best_response_value(cg, profile, seat)
        theirs = BestResponsePolicy(game, seat, cfr.to_tabular_policy(cg, profile)).value(game.new_initial_state())
        assert ours == pytest.approx(theirs, abs=1e-9)
