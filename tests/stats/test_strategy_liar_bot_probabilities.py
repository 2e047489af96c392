"""The trustme_liar heuristic bot states the mixed strategy its ``choose`` draws from (for exact best responses)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.games.liar.bots import _false_card_outcomes
from trustme_analysis.games.liar import BURN, LIAR, PASS

G2 = "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=20)"
G3 = "trustme_liar(players=3,values=5,copies=4,max_play=3)"


def _play_to(game, deal, moves):
    state = game.new_initial_state()
    for a in game.deal_actions(deal) + moves:
        state.apply_action(a)
    return state


def test_false_cards_are_the_rarest_values_in_random_order():
    # Hand (counts per value 1..5): 1x1, 2x1, 1x3, 3x4; announcing value 5 (index 4, not held).
    hand = [1, 2, 1, 3, 0]
    assert _false_card_outcomes(hand, 4, 1) == [((0,), 0.5), ((2,), 0.5)]
    # Two cards: both singletons first; three: the singletons, then one of the pair of 2s.
    assert _false_card_outcomes(hand, 4, 2) == [((0, 2), 1.0)]
    assert _false_card_outcomes(hand, 4, 3) == [((0, 1, 2), 1.0)]
    assert _false_card_outcomes([0, 0, 2, 0, 0], 2, 1) == [((), 1.0)]


def test_starter_probabilities_by_hand():
    game = pyspiel.load_game(G2)
    # Seat 0 holds 1, 2, 3 (no pairs): each value is held most (once); bluff chance 0.3 + 0.02 * 3 = 0.36 adds one
    # of the two other singletons.
    state = _play_to(game, [[1, 2, 3], [1, 2, 3]], [])
    probs = make_bot(game, "heuristic", 0, np.random.default_rng(0)).action_probabilities(state)
    for v in (1, 2, 3):
        assert probs[game.play_action([v], v)] == pytest.approx((1 - 0.36) / 3)
        for w in (1, 2, 3):
            if w != v:
                assert probs[game.play_action(sorted([v, w]), v)] == pytest.approx(0.36 / 3 / 2)
    assert sum(probs.values()) == pytest.approx(1.0)


def test_respond_add_or_burn_and_last_cards():
    game = pyspiel.load_game(G2)
    # Seat 0 plays a true 1; seat 1 holds the other 1, so one copy is out of its sight: one claimed 1 is possible and
    # not suspicious.
    state = _play_to(game, [[1, 2, 3], [1, 2, 3]], [game.play_action([1], 1)])
    bot = make_bot(game, "heuristic", 1, np.random.default_rng(0), call_rate=0.25, bluff_rate=0.5)
    probs = bot.action_probabilities(state)
    # Call at call_rate; otherwise add its own 1 (a true card).
    assert probs[LIAR] == pytest.approx(0.25)
    assert probs[game.play_action([1], 1)] == pytest.approx(0.75)
    assert probs[PASS] == 0.0
    # Seat 1 passes: seat 0 has no 1 left, so it burns at burn_rate or bluffs its rarest other value.
    state.apply_action(PASS)
    probs = make_bot(game, "heuristic", 0, np.random.default_rng(0), burn_rate=0.6).action_probabilities(state)
    assert probs[BURN] == pytest.approx(0.6)
    assert probs[game.play_action([2], 1)] == pytest.approx(0.2)
    assert probs[game.play_action([3], 1)] == pytest.approx(0.2)


def test_timeout_rate_mixes_in_the_timeout_action():
    game = pyspiel.load_game(G2)
    state = _play_to(game, [[1, 2, 3], [1, 2, 3]], [])
    bot = make_bot(game, "heuristic", 0, np.random.default_rng(0), timeout_rate=0.5, bluff_rate=0.0, bluff_per_card=0.0)
    probs = bot.action_probabilities(state)
    # Time-out: play the lowest card truthfully; otherwise one of the three singletons, honestly.
    assert probs[game.play_action([1], 1)] == pytest.approx(0.5 + 0.5 / 3)
    assert probs[game.play_action([2], 2)] == pytest.approx(0.5 / 3)


@pytest.mark.parametrize("gs,knobs", [(G2, {}), (G3, {"bluff_extra": 2, "timeout_rate": 0.1, "call_rate": 0.3})])
def test_choose_draws_from_the_stated_probabilities(gs, knobs):
    """At every decision of a few played games: choose() only takes actions with positive probability, and over
    200 generators its frequencies stay within 4.5 standard errors of the stated probabilities."""
    game = pyspiel.load_game(gs)
    rng = np.random.default_rng(7)
    draws = 200
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, p = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(p) / sum(p))])
                continue
            bot = make_bot(game, "heuristic", state.current_player(), np.random.default_rng(0), **knobs)
            probs = bot.action_probabilities(state)
            assert sorted(probs) == sorted(state.legal_actions())
            assert sum(probs.values()) == pytest.approx(1.0)
            counts: dict[int, int] = {}
            for d in range(draws):
                bot.rng = np.random.default_rng(10_000 + d)
                a = bot.choose(state)
                assert probs[a] > 0
                counts[a] = counts.get(a, 0) + 1
            for a, p in probs.items():
                freq = counts.get(a, 0) / draws
                assert abs(freq - p) <= 4.5 * np.sqrt(p * (1 - p) / draws) + 1e-12
            state.apply_action(bot.choose(state))


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
