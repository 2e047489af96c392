"""The trustme_1981 heuristic bot states the mixed strategy its ``choose`` draws from (for exact best responses)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot


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
            if state.phase_name() != "property" or game.actions.claim_unseen not in state.legal_actions():
                continue
            me = state.current_player()
            prop = game.board.space_property[state.positions()[me]]
            if prop in state.known_cards(me):
                continue
            probs = make_bot(game, "heuristic", me, np.random.default_rng(0), claim_unseen=0.3).action_probabilities(
                state)
            assert probs[game.actions.claim_unseen] == pytest.approx(0.3)
            assert probs[game.actions.look] == pytest.approx(0.7)
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


def test_investing_round_bot_follows_the_heuristic_rule_by_hand():
    """Preset ``tiny`` ($2, lots 1/2, cards One/Two/Had each 1/3; seat 1 decides first, the claimant seat 0 last)."""
    from trustme_analysis.games.board1981.engine.investment import PRESETS

    game = pyspiel.load_game(PRESETS["tiny"])
    label = game.investing.label

    def decide(actions, seat):
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        bot = make_bot(game, "heuristic", seat, np.random.default_rng(0))
        probs = bot.action_probabilities(state)
        assert sorted(probs.values())[-1] == 1.0 and sum(probs.values()) == 1.0
        return label(bot.choose(state)), state

    # Unseen: P(had) = 1/3 >= divest_threshold 0.3, so divest all.
    assert decide([0, 0], 1)[0] == "divest all"
    # Saw Two Stacks: 2 per share less the $1 handed to the claimant >= 0.25, and the card is certain: all its $2.
    chosen, state = decide([1, 1], 1)
    assert chosen == "buy 2"
    # The claimant saw nothing; seat 1 (who looked) bought, which the heuristic does only on Two Stacks (One Stack
    # pays 1 - 1 < 0.25): with signal_weight 0.8 the belief is (1/6, 2/3, 0, 1/6), 4/3 a share, not certain: buy
    # within stake 1 of its $2 (all of it); with stake 0.5 within $1.
    state.apply_action(game.investing.legal(2, 2)[2])
    bot = make_bot(game, "heuristic", 0, np.random.default_rng(0))
    assert label(bot.choose(state)) == "buy 2"
    half = make_bot(game, "heuristic", 0, np.random.default_rng(0), stake=0.5)
    assert label(half.choose(state)) == "buy 1"


def test_best_response_against_the_investing_round_bot_matches_open_spiel():
    from open_spiel.python.algorithms.best_response import BestResponsePolicy

    import cfr
    from trustme_analysis.games.board1981.engine.investment import PRESETS
    from trustme_analysis.solve.profile import bots_policy

    cg = cfr.compile_game(PRESETS["tiny"])
    game = cg.game
    for seat in (0, 1):
        other = 1 - seat
        profile = bots_policy(cg, {other: make_bot(game, "heuristic", other, np.random.default_rng(0))})
        ours = cfr.best_response_value(cg, profile, seat)
        theirs = BestResponsePolicy(game, seat, cfr.to_tabular_policy(cg, profile)).value(game.new_initial_state())
        assert ours == pytest.approx(theirs, abs=1e-9)
